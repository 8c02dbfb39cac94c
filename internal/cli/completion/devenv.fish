# fish completion for devenv. Load it with
#   devenv completion fish | source
# or save it as ~/.config/fish/completions/devenv.fish.
# devenv answers the question itself: it is asked with the words typed so
# far and --generate-bash-completion, and prints one candidate a line.
function __devenv_candidates
    set -l typed (commandline -opc)
    set -l cur (commandline -ct)
    if string match -q -- '-*' $cur
        set typed $typed $cur
    end
    $typed[1] $typed[2..-1] --generate-bash-completion 2>/dev/null
end
complete -c devenv -f -a '(__devenv_candidates)'
