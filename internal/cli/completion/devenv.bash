# bash completion for devenv. Load it with
#   source <(devenv completion bash)
# or save it as ~/.local/share/bash-completion/completions/devenv.
# devenv answers the question itself: it is asked with the words typed so
# far and --generate-bash-completion, and prints one candidate a line.
_devenv() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    local -a typed=("${COMP_WORDS[@]:1:COMP_CWORD-1}")
    if [[ $cur == -* ]]; then
        typed+=("$cur")
    fi
    local IFS=$'\n'
    COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" "${typed[@]}" --generate-bash-completion 2>/dev/null)" -- "$cur"))
}
complete -o default -F _devenv devenv
