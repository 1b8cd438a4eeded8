# bash completion for locationctl(1). Installed as
# /usr/share/bash-completion/completions/locationctl.
#
# Commands, and the words each takes; client names come from the running
# daemon (`locationctl --json status`, at most 2 s) and are left out when it
# does not answer. Keep the command list in step with locationctl's
# (Tests/LocationCoreTests/CLI/CompletionScriptTests.swift checks it).

_locationctl_commands="status services authorize accuracy request prompts answer share reset
request-full-accuracy session start stop locate watch report tail export summary plot help"

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

    # The command word and how many arguments follow it so far.
    local command="" i arg=0
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --socket) ((i++)) ;;
            -*) ;;
            *)
                if [[ -z $command ]]; then command=${words[i]}; else ((arg++)); fi
                ;;
        esac
    done

    case $prev in
        --socket)
            _filedir
            return
            ;;
        --format)
            COMPREPLY=($(compgen -W "gpx geojson kml csv" -- "$cur"))
            return
            ;;
        -o)
            _filedir
            return
            ;;
        --timeout | --gap | -n)
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

    # Commands of the form COMMAND CLIENT WORD: the words of the second argument.
    local second=""
    case $command in
        authorize) second="never ask while-using always" ;;
        accuracy) second="full reduced" ;;
        request) second="while-using always" ;;
        answer) second="allow-once allow-while-using deny keep-while-using change-to-always allow" ;;
        session) second="begin end" ;;
    esac

    local words_here=""
    if [[ $command == answer && $cur == -* ]]; then
        words_here="--approximate"
    elif [[ -n $second ]]; then
        case $arg in
            0) words_here=$(_locationctl_clients) ;;
            1) words_here=$second ;;
        esac
    else
        case $command in
            help)
                ((arg == 0)) && words_here=$_locationctl_commands
                ;;
            services)
                ((arg == 0)) && words_here="on off"
                ;;
            status | watch | report | share | reset | start | stop | request-full-accuracy)
                ((arg == 0)) && words_here=$(_locationctl_clients)
                ;;
            locate)
                if [[ $cur == -* ]]; then
                    words_here="--timeout"
                elif ((arg == 0)); then
                    words_here=$(_locationctl_clients)
                fi
                ;;
            tail)
                if [[ $cur == -* ]]; then
                    words_here="-n -f"
                else
                    words_here=$(_locationctl_clients)
                    _filedir
                fi
                ;;
            export | summary | plot)
                if [[ $cur == -* ]]; then
                    case $command in
                        export) words_here="--format -o --gap" ;;
                        summary) words_here="--gap" ;;
                        plot) words_here="-o --gap" ;;
                    esac
                else
                    _filedir
                fi
                ;;
        esac
    fi
    [[ $cur == -* && -z $words_here ]] && words_here="--help"
    COMPREPLY+=($(compgen -W "$words_here" -- "$cur"))
}
complete -F _locationctl locationctl
