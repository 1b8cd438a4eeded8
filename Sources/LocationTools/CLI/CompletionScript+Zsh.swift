
extension CompletionScript {
    /// The zsh script (`_arguments`, `_describe`).
    static func zsh(_ commands: [CtlCommand]) -> String {
        var lines = [
            "#compdef locationctl",
            "# zsh completion for locationctl(1). Installed as _locationctl in a",
            "# directory of $fpath (/usr/share/zsh/vendor-completions on Debian).",
            "#",
            header("#"),
            "",
            "# The command line's locationctl and its --socket, taken before _arguments",
            "# shifts $words to the command's own arguments.",
            "typeset -ga _locationctl_query",
            "",
            "_locationctl_clients() {",
            "    local -a clients",
            "    clients=(${(f)\"$(timeout 2 $_locationctl_query --json status 2>/dev/null |",
            "        grep -o '\"client\":\"[^\"\\\\]*\"' | cut -d'\"' -f4 | sort -u)\"})",
            "    (( $#clients )) && _describe -t clients 'client' clients",
            "}",
            "",
            "_locationctl() {",
            "    local -a commands",
            "    commands=(",
        ]
        for command in commands {
            lines.append("        " + quoted(command.name + ":" + command.summary))
        }
        lines.append("        " + quoted("help:show help for a command"))
        lines += [
            "    )",
            "    local i",
            "    _locationctl_query=(${words[1]})",
            "    for (( i = 2; i < CURRENT; i++ )); do",
            "        [[ ${words[i]} == --socket ]] && _locationctl_query+=(--socket \"${words[i+1]}\")",
            "    done",
            "    local curcontext=$curcontext state line",
            "    _arguments -C \\",
            "        '--socket[control socket]:socket:_files' \\",
            "        '--json[print replies and events as JSON]' \\",
            "        '(- *)'{-h,--help}'[show help]' \\",
            "        '(- *)--version[print the version]' \\",
            "        '1:command:->command' \\",
            "        '*::argument:->argument'",
            "    case $state in",
            "        command)",
            "            _describe -t commands 'locationctl command' commands",
            "            ;;",
            "        argument)",
            "            case $words[1] in",
            "                help) _describe -t commands 'command' commands ;;",
        ]
        for command in commands {
            var specs: [String] = []
            for option in command.options {
                for name in option.names {
                    let value = option.value.map { ":value:" + zshAction($0) } ?? ""
                    specs.append(quoted(name + "[" + option.help + "]" + value))
                }
            }
            for (index, argument) in command.arguments.enumerated() {
                let position = argument.repeats ? "*" : String(index + 1)
                specs.append(quoted(position + ":" + argument.name + ":" + zshAction(argument.completion)))
            }
            guard !specs.isEmpty else {
                lines.append("                \(command.name)) ;;")
                continue
            }
            lines.append("                \(command.name))")
            lines.append("                    _arguments " + specs.joined(separator: " \\\n                        ") + " ;;")
        }
        lines += [
            "            esac",
            "            ;;",
            "    esac",
            "}",
            "",
            "_locationctl \"$@\"",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `_arguments`' action for `completion`.
    private static func zshAction(_ completion: CtlCommand.Completion) -> String {
        switch completion {
        case .client: "_locationctl_clients"
        case .words(let words): "(" + words.joined(separator: " ") + ")"
        case .file: "_files"
        case .clientOrFile: "{_locationctl_clients; _files}"
        case .command: "{_describe -t commands command commands}"
        case .none: " "
        }
    }
}
