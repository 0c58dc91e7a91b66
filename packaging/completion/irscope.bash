# bash completion for irscope (installed as
# /usr/share/bash-completion/completions/irscope). The subcommands and each
# one's options are read from the program's own --help, so they never go
# stale; what a command prints is cached for the shell session.
_irscope_help() {
    declare -gA _irscope_help_cache
    local key="${1:-top}"
    if [[ -z "${_irscope_help_cache[$key]+set}" ]]; then
        if [[ $key == top ]]; then
            _irscope_help_cache[$key]=$(irscope --help 2>/dev/null)
        elif [[ $key == gui ]]; then
            _irscope_help_cache[$key]=$(QT_QPA_PLATFORM=offscreen irscope --help-gui 2>/dev/null)
        else
            _irscope_help_cache[$key]=$(irscope "$key" --help 2>/dev/null)
        fi
    fi
    printf '%s\n' "${_irscope_help_cache[$key]}"
}

_irscope() {
    local cur="${COMP_WORDS[COMP_CWORD]}"
    local commands
    commands=$(_irscope_help top | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' | tr '\n' ' ')
    local command="" word
    for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
        if [[ " $commands " == *" $word "* ]]; then
            command=$word
            break
        fi
    done
    if [[ $cur == -* ]]; then
        local options
        options=$(_irscope_help "${command:-gui}" | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
        [[ -z $command && $COMP_CWORD -eq 1 ]] && options+=$'\n--help\n--version\n--help-gui\n--new-window'
        mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
        return
    fi
    if [[ -z $command && $COMP_CWORD -eq 1 ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$cur")
    fi
    local files
    mapfile -t files < <(compgen -f -- "$cur")
    COMPREPLY+=("${files[@]}")
    compopt -o filenames 2>/dev/null
}
complete -F _irscope irscope
