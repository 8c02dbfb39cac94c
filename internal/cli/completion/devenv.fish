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
    set -l out ($typed[1] $typed[2..-1] --generate-bash-completion 2>/dev/null)
    if test (count $out) -gt 0
        printf '%s\n' $out
    else
        # nothing to offer (mirror SOURCE, submit FILE, a flag's path): files
        __fish_complete_path $cur
    end
end
complete -c devenv -f -a '(__devenv_candidates)'
