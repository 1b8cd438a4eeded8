
extension CompletionScript {
    /// The bash script (bash-completion's `_init_completion`, `_filedir`).
    static func bash(_ commands: [CtlCommand]) -> String {
        let names = words(commands)
        var lines = [
            "# bash completion for locationctl(1). Installed as",
            "# /usr/share/bash-completion/completions/locationctl.",
            "#",
            header("#"),
            "",
            "_locationctl_commands=\"\(names.joined(separator: " "))\"",
            "",
            "# The clients the daemon reports, one per line; nothing when it does not answer.",
            "_locationctl_clients()",
            "{",
            "    local -a socket=()",
            "    local i",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        if [[ ${COMP_WORDS[i]} == --socket ]]; then",
            "            socket=(--socket \"${COMP_WORDS[i + 1]}\")",
            "        fi",
            "    done",
            "    timeout 2 \"${COMP_WORDS[0]}\" \"${socket[@]}\" --json status 2>/dev/null |",
            "        grep -o '\"client\":\"[^\"\\\\]*\"' | cut -d'\"' -f4 | sort -u",
            "}",
            "",
            "_locationctl()",
            "{",
            "    local cur prev words cword",
            "    _init_completion || return",
            "",
            "    # The command word and how many arguments follow it so far (option values skipped).",
            "    local command=\"\" i arg=0",
            "    for ((i = 1; i < cword; i++)); do",
            "        case ${words[i]} in",
        ]
        let valued = Set(
            (globalOptions + commands.flatMap(\.options)).filter(\.takesValue).flatMap(\.names))
        lines.append("            " + valued.sorted().joined(separator: " | ") + ") ((i++)) ;;")
        lines += [
            "            -*) ;;",
            "            *)",
            "                if [[ -z $command ]]; then command=${words[i]}; else ((arg++)); fi",
            "                ;;",
            "        esac",
            "    done",
            "",
            "    # The value of an option.",
            "    case $command:$prev in",
            "        *:--socket)",
            "            _filedir",
            "            return",
            "            ;;",
        ]
        for command in commands {
            for option in command.options {
                guard let value = option.value else { continue }
                let pattern = option.names.map { "\(command.name):\($0)" }.joined(separator: " | ")
                lines.append("        \(pattern))")
                lines += bashOffer(value, indent: "            ", direct: true)
                lines.append("            return")
                lines.append("            ;;")
            }
        }
        lines += [
            "    esac",
            "",
            "    if [[ -z $command ]]; then",
            "        if [[ $cur == -* ]]; then",
            "            COMPREPLY=($(compgen -W \"\(globalOptions.flatMap(\.names).filter { $0 != "-h" }.joined(separator: " "))\" -- \"$cur\"))",
            "        else",
            "            COMPREPLY=($(compgen -W \"$_locationctl_commands\" -- \"$cur\"))",
            "        fi",
            "        return",
            "    fi",
            "",
            "    local words_here=\"\"",
            "    if [[ $cur == -* ]]; then",
            "        case $command in",
        ]
        for command in commands where !command.options.isEmpty {
            lines.append("            \(command.name)) words_here=\"\(command.options.flatMap(\.names).joined(separator: " "))\" ;;")
        }
        lines += [
            "        esac",
            "    else",
            "        case $command:$arg in",
            "            help:0) words_here=$_locationctl_commands ;;",
        ]
        for command in commands {
            for (index, argument) in command.arguments.enumerated() where argument.completion != .none {
                let position = argument.repeats ? "*" : String(index)
                lines.append("            \(command.name):\(position))")
                lines += bashOffer(argument.completion, indent: "                ", direct: false)
                lines.append("                ;;")
            }
        }
        lines += [
            "        esac",
            "    fi",
            "    [[ $cur == -* && -z $words_here ]] && words_here=\"--help\"",
            "    COMPREPLY+=($(compgen -W \"$words_here\" -- \"$cur\"))",
            "}",
            "complete -F _locationctl locationctl",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The lines that offer `completion`: straight into COMPREPLY (`direct`)
    /// or into `words_here`, which the function's end turns into COMPREPLY.
    private static func bashOffer(_ completion: CtlCommand.Completion, indent: String, direct: Bool) -> [String] {
        func offer(_ words: String) -> String {
            direct ? "COMPREPLY=($(compgen -W \"\(words)\" -- \"$cur\"))" : "words_here=\"\(words)\""
        }
        switch completion {
        case .client: return [indent + offer("$(_locationctl_clients)")]
        case .words(let words): return [indent + offer(words.joined(separator: " "))]
        case .file: return [indent + "_filedir"]
        case .clientOrFile: return [indent + offer("$(_locationctl_clients)"), indent + "_filedir"]
        case .command: return [indent + offer("$_locationctl_commands")]
        case .none: return direct ? [] : [indent + ":"]
        }
    }
}
