#compdef devenv
# zsh completion for devenv. Load it with
#   source <(devenv completion zsh)
# or save it as _devenv in a directory on $fpath.
# devenv answers the question itself: it is asked with the words typed so
# far and --generate-bash-completion, and prints one candidate a line.
_devenv() {
    local cur=${words[CURRENT]}
    local -a typed candidates
    typed=("${(@)words[2,CURRENT-1]}")
    if [[ $cur == -* ]]; then
        typed+=("$cur")
    fi
    candidates=("${(@f)$(${words[1]} "${(@)typed}" --generate-bash-completion 2>/dev/null)}")
    if (( ${#candidates} )) && [[ -n ${candidates[1]} ]]; then
        compadd -- "${(@)candidates}"
    else
        _files
    fi
}
# Installed as _devenv on $fpath (the packages do), this file is the body
# of the autoloaded _devenv: complete now. Sourced, register the function.
if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
    _devenv "$@"
elif (( $+functions[compdef] )); then
    compdef _devenv devenv
fi
