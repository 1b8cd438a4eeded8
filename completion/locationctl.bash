# bash completion for locationctl(1). Installed as
# /usr/share/bash-completion/completions/locationctl.
#
# Generated from locationctl's command table by
# `locationctl --generate-completion-script`: do not edit by hand
# (Tests/LocationToolsTests/CLI/CompletionScriptTests.swift checks it is current).
#
# Client names come from the running daemon (`locationctl --json status`,
# at most 2 s) and are left out when it does not answer.

_locationctl_commands="status services authorize accuracy request prompts answer share reset request-full-accuracy session start stop locate watch report tail export summary plot help"

# The clients the daemon reports, one per line; nothing when it does not answer.
_locationctl_clients()
{
    local -a socket=()
    local i
    for ((i = 1; i < COMP_CWORD; i++)); do
        if [[ ${COMP_WORDS[i]} == --socket ]]; then
            socket=(--socket "${COMP_WORDS[i + 1]}")
        fi
    done
    timeout 2 "${COMP_WORDS[0]}" "${socket[@]}" --json status 2>/dev/null |
        grep -o '"client":"[^"\\]*"' | cut -d'"' -f4 | sort -u
}

_locationctl()
{
    local cur prev words cword
    _init_completion || return

    # The command word and how many arguments follow it so far (option values skipped).
    local command="" i arg=0
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --format | --gap | --lines | --output | --reference | --since | --socket | --timeout | -n | -o) ((i++)) ;;
            -*) ;;
            *)
                if [[ -z $command ]]; then command=${words[i]}; else ((arg++)); fi
                ;;
        esac
    done

    # The value of an option.
    case $command:$prev in
        *:--socket)
            _filedir
            return
            ;;
        locate:--timeout)
            return
            ;;
        report:--since)
            return
            ;;
        tail:-n | tail:--lines)
            return
            ;;
        export:--format)
            COMPREPLY=($(compgen -W "gpx geojson kml csv" -- "$cur"))
            return
            ;;
        export:-o | export:--output)
            _filedir
            return
            ;;
        export:--gap)
            return
            ;;
        summary:--gap)
            return
            ;;
        summary:--reference)
            return
            ;;
        plot:-o | plot:--output)
            _filedir
            return
            ;;
        plot:--gap)
            return
            ;;
        plot:--reference)
            return
            ;;
    esac

    if [[ -z $command ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--socket --json --help --version" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$_locationctl_commands" -- "$cur"))
        fi
        return
    fi

    local words_here=""
    if [[ $cur == -* ]]; then
        case $command in
            status) words_here="--sky" ;;
            answer) words_here="--approximate" ;;
            locate) words_here="--timeout" ;;
            watch) words_here="--in-use" ;;
            report) words_here="--since" ;;
            tail) words_here="-n --lines -f --follow" ;;
            export) words_here="--format -o --output --gap --line" ;;
            summary) words_here="--gap --reference" ;;
            plot) words_here="-o --output --gap --reference" ;;
        esac
    else
        case $command:$arg in
            help:0) words_here=$_locationctl_commands ;;
            status:0)
                words_here="$(_locationctl_clients)"
                ;;
            services:0)
                words_here="on off"
                ;;
            authorize:0)
                words_here="$(_locationctl_clients)"
                ;;
            authorize:1)
                words_here="never ask while-using always"
                ;;
            accuracy:0)
                words_here="$(_locationctl_clients)"
                ;;
            accuracy:1)
                words_here="full reduced"
                ;;
            request:0)
                words_here="$(_locationctl_clients)"
                ;;
            request:1)
                words_here="while-using always"
                ;;
            answer:0)
                words_here="$(_locationctl_clients)"
                ;;
            answer:1)
                words_here="allow-once allow-while-using deny allow keep-while-using change-to-always"
                ;;
            share:0)
                words_here="$(_locationctl_clients)"
                ;;
            reset:0)
                words_here="$(_locationctl_clients)"
                ;;
            request-full-accuracy:0)
                words_here="$(_locationctl_clients)"
                ;;
            session:0)
                words_here="$(_locationctl_clients)"
                ;;
            session:1)
                words_here="begin end"
                ;;
            start:0)
                words_here="$(_locationctl_clients)"
                ;;
            stop:0)
                words_here="$(_locationctl_clients)"
                ;;
            locate:0)
                words_here="$(_locationctl_clients)"
                ;;
            watch:0)
                words_here="$(_locationctl_clients)"
                ;;
            report:0)
                words_here="$(_locationctl_clients)"
                ;;
            tail:0)
                words_here="$(_locationctl_clients)"
                _filedir
                ;;
            export:0)
                _filedir
                ;;
            summary:*)
                _filedir
                ;;
            plot:*)
                _filedir
                ;;
        esac
    fi
    [[ $cur == -* && -z $words_here ]] && words_here="--help"
    COMPREPLY+=($(compgen -W "$words_here" -- "$cur"))
}
complete -F _locationctl locationctl
