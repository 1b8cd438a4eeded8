import LocationProtocol

extension CtlCommands {
    /// The commands that talk to the daemon: permissions, prompts, the app side, events.
    static let permissions: [CtlCommand] = [
        CtlCommand(
            name: CommandWord.status.rawValue, synopsis: "status [CLIENT] [--sky]",
            summary: "what the daemon sees, and why each client is or is not getting locations",
            details: """
                Shows the source (gpsd link, last fix, its age and accuracy), Location Services,
                and for each client (or only CLIENT): its effective authorization and accuracy,
                whether it is in use and updating, whether it is getting locations right now and
                why not, and the one command that would change that. Pending prompts are listed
                with every answer as a command to copy.

                Options:
                  --sky   print each receiver's satellites instead (PRN, constellation,
                          elevation, azimuth, SNR, used), as cgps shows them; only root and
                          the socket group see them, and only while Location Services are on

                Example:
                  locationctl status logger
                  locationctl status --sky
                """,
            arguments: [.init("CLIENT", .client)],
            options: [.init(["--sky"], help: "each receiver's satellites")]
        ) { p in
            p.expect(["CLIENT"], optional: 1).map { args in
                p.flag("--sky") ? .statusSky(client: args.first) : .request(.status(client: args.first))
            }
        },
        CtlCommand(
            name: CommandWord.services.rawValue, synopsis: "services on|off",
            summary: "switch Location Services for every client",
            details: """
                With services off every client is effectively 'never'; each client's own setting
                comes back unchanged when services are switched on again.

                Example:
                  locationctl services off
                """,
            arguments: [.init("on|off", .words(["on", "off"]))],
            options: []
        ) { p in
            p.expect(["on|off"]).flatMap { args in
                p.word(args[0], "services", ["on", "off"]) { $0 == "on" ? true : $0 == "off" ? false : nil }
            }.map { .request(.command(.services(on: $0))) }
        },
        CtlCommand(
            name: CommandWord.authorize.rawValue, synopsis: "authorize CLIENT never|ask|while-using|always",
            summary: "set a client's authorization, as the Settings app does",
            details: """
                Stores the status and clears the once and provisional flags. 'ask' makes the next
                request open a prompt again. A client locked by [policy] restricted cannot be changed
                here.

                Example:
                  locationctl authorize logger while-using
                """,
            arguments: [.init("CLIENT", .client), .init("STATUS", .words(["never", "ask", "while-using", "always"]))],
            options: []
        ) { p in
            p.expect(["CLIENT", "STATUS"]).flatMap { args in
                if args[1] == "restricted" {
                    return p.fail("restricted is set only by an administrator, with [policy] restricted in locationd.conf")
                }
                let words = ["never", "ask", "while-using", "always"]
                return p.word(args[1], "status", words) { words.contains($0) ? AuthorizationStatus(rawValue: $0) : nil }
                    .flatMap { p.request(.authorize(client: args[0], status: $0)) }
            }
        },
        CtlCommand(
            name: CommandWord.accuracy.rawValue, synopsis: "accuracy CLIENT full|reduced",
            summary: "set a client's Precise Location switch",
            details: """
                'reduced' gives the client an approximate position on a grid of about 2 km, at
                most once every 15 minutes.

                Example:
                  locationctl accuracy logger reduced
                """,
            arguments: [.init("CLIENT", .client), .init("full|reduced", .words(["full", "reduced"]))],
            options: []
        ) { p in
            p.expect(["CLIENT", "full|reduced"]).flatMap { args in
                p.word(args[1], "accuracy", ["full", "reduced"]) { $0 == "full" ? true : $0 == "reduced" ? false : nil }
                    .flatMap { p.request(.accuracy(client: args[0], full: $0)) }
            }
        },
        CtlCommand(
            name: CommandWord.request.rawValue, synopsis: "request CLIENT while-using|always",
            summary: "ask for authorization, as an app does (opens a prompt)",
            details: """
                From 'ask' this opens a prompt; answer it with 'locationctl answer'. A permanent
                while-using client asking for always gets the upgrade prompt. The client needs
                usage (and for always, usage_always) in its config section.

                Example:
                  locationctl request logger while-using
                """,
            arguments: [.init("CLIENT", .client), .init("while-using|always", .words(RequestKind.allCases.map(\.rawValue)))],
            options: []
        ) { p in
            p.expect(["CLIENT", "while-using|always"]).flatMap { args in
                p.word(args[1], "request", RequestKind.allCases.map(\.rawValue)) { RequestKind(rawValue: $0) }
                    .flatMap { p.request(.request(client: args[0], kind: $0)) }
            }
        },
        CtlCommand(
            name: CommandWord.prompts.rawValue, synopsis: "prompts",
            summary: "list pending prompts and their possible answers",
            details: """
                Example:
                  locationctl prompts
                """,
            arguments: [],
            options: []
        ) { p in
            p.expect([]).map { _ in .request(.prompts) }
        },
        CtlCommand(
            name: CommandWord.answer.rawValue, synopsis: "answer CLIENT ANSWER [--approximate]",
            summary: "answer a client's pending prompt, as the user does",
            details: """
                ANSWER depends on the prompt:
                  while-using or always prompt:  allow-once | allow-while-using | deny
                  always-upgrade prompt:         keep-while-using | change-to-always
                  full-accuracy prompt:          allow | deny
                  share prompt:                  allow | deny

                Options:
                  --approximate   turn the prompt's Precise switch off: with allow-once or
                                  allow-while-using the client gets reduced accuracy at once

                Examples:
                  locationctl answer logger allow-while-using
                  locationctl answer logger allow-once --approximate
                """,
            arguments: [.init("CLIENT", .client), .init("ANSWER", .words(Answer.allCases.map(\.rawValue)))],
            options: [.init(["--approximate"], help: "turn the prompt's Precise switch off")]
        ) { p in
            p.expect(["CLIENT", "ANSWER"]).flatMap { args in
                p.word(args[1], "answer", Answer.allCases.map(\.rawValue)) { Answer(rawValue: $0) }
                    .flatMap {
                        p.request(.answer(client: args[0], answer: $0, precise: p.flag("--approximate") ? false : nil))
                    }
            }
        },
        CtlCommand(
            name: CommandWord.share.rawValue, synopsis: "share CLIENT",
            summary: "the location button: allow once and put the client in use",
            details: """
                From 'ask' (or a once grant) this gives while-using for this session only and marks
                the client in use. The first time a client's button is used from 'ask' it opens a
                one-time share prompt instead ('locationctl answer CLIENT allow'); once allowed,
                later shares grant at once. A client set to never must be changed with 'authorize'.

                Example:
                  locationctl share logger
                """,
            arguments: [.init("CLIENT", .client)],
            options: []
        ) { p in
            p.expect(["CLIENT"]).flatMap { p.request(.share(client: $0[0])) }
        },
        CtlCommand(
            name: CommandWord.reset.rawValue, synopsis: "reset CLIENT",
            summary: "reset a client's location and privacy settings, as Settings does",
            details: """
                Puts the client back to its configured first-start status (authorization) and
                accuracy (precise), ends once, provisional and temporary grants, and forgets that
                the always-upgrade prompt and the share prompt were shown. Its reduced-accuracy
                secret is kept.

                Example:
                  locationctl reset logger
                """,
            arguments: [.init("CLIENT", .client)],
            options: []
        ) { p in
            p.expect(["CLIENT"]).flatMap { p.request(.reset(client: $0[0])) }
        },
        CtlCommand(
            name: CommandWord.requestFullAccuracy.rawValue, synopsis: "request-full-accuracy CLIENT KEY",
            summary: "ask for temporary full accuracy for a purpose (opens a prompt)",
            details: """
                KEY is a purpose key of the client's config (purpose.KEY = text). The client must
                have reduced accuracy and be in use.

                Example:
                  locationctl request-full-accuracy logger survey
                """,
            arguments: [.init("CLIENT", .client), .init("KEY", .none)],
            options: []
        ) { p in
            p.expect(["CLIENT", "KEY"]).flatMap { p.request(.requestFullAccuracy(client: $0[0], purpose: $0[1])) }
        },
        CtlCommand(
            name: CommandWord.session.rawValue, synopsis: "session CLIENT begin|end | session CLIENT -- COMMAND...",
            summary: "mark a client in use (foreground) or not; an app holds it while a command runs",
            details: """
                While-using clients get locations only while in use; an Allow Once grant ends
                once the client has been out of use for once_grace seconds.

                'session CLIENT -- COMMAND...' begins the session, runs COMMAND, holds the
                session while it runs (as systemd-inhibit and flock do), ends it and exits
                with COMMAND's status. This is how a client's app is in use through
                locationctl: an app's session lasts while the connection that began it
                lives, so a one-shot 'session CLIENT begin' from an app would hold nothing
                and is refused, naming this form (and 'watch CLIENT --in-use'). The
                operator's 'begin' lasts until 'end'.

                Example:
                  locationctl session logger end
                  locationctl session survey -- gpspipe -w -n 20
                """,
            arguments: [.init("CLIENT", .client), .init("begin|end", .words(["begin", "end"]))],
            options: []
        ) { p in
            if let split = p.dashDashAt {
                let command = Array(p.positionals[split...])
                guard split == 1, !p.positionals[0].isEmpty else {
                    return p.fail("session CLIENT -- COMMAND... takes only the client's name before --")
                }
                guard !command.isEmpty else { return p.fail("missing COMMAND after --") }
                return .success(.session(client: p.positionals[0], command: command))
            }
            return p.expect(["CLIENT", "begin|end"]).flatMap { args in
                p.word(args[1], "session", ["begin", "end"]) { $0 == "begin" ? true : $0 == "end" ? false : nil }
                    .flatMap { p.request(.session(client: args[0], inUse: $0)) }
            }
        },
        CtlCommand(
            name: CommandWord.start.rawValue, synopsis: "start CLIENT",
            summary: "start location updates for a client",
            details: """
                Example:
                  locationctl start logger
                """,
            arguments: [.init("CLIENT", .client)],
            options: []
        ) { p in
            p.expect(["CLIENT"]).flatMap { p.request(.start(client: $0[0])) }
        },
        CtlCommand(
            name: CommandWord.stop.rawValue, synopsis: "stop CLIENT",
            summary: "stop location updates for a client",
            details: """
                Example:
                  locationctl stop logger
                """,
            arguments: [.init("CLIENT", .client)],
            options: []
        ) { p in
            p.expect(["CLIENT"]).flatMap { p.request(.stop(client: $0[0])) }
        },
        CtlCommand(
            name: CommandWord.locate.rawValue, synopsis: "locate CLIENT [--timeout S]",
            summary: "deliver exactly one location to a client",
            details: """
                Asks for one location, printed when it is delivered. If none arrives within S
                seconds (default: the client's locate_timeout, 30) the client gets
                location-unknown.

                Options:
                  --timeout S   seconds to wait, above 0 and at most \(Int(ControlRequest.maximumLocateTimeout))

                Example:
                  locationctl locate logger --timeout 10
                """,
            arguments: [.init("CLIENT", .client)],
            options: [.init(["--timeout"], value: CtlCommand.Completion.none, help: "seconds to wait for a fix")]
        ) { p in
            p.expect(["CLIENT"]).flatMap { args in
                var timeout: Double?
                if let text = p.option("--timeout") {
                    guard let seconds = Double(text), seconds > 0, seconds <= ControlRequest.maximumLocateTimeout else {
                        return p.fail(
                            "--timeout must be a number of seconds above 0 and at most "
                                + "\(Int(ControlRequest.maximumLocateTimeout)), not \"\(text)\"")
                    }
                    timeout = seconds
                }
                return p.request(.locate(client: args[0], timeout: timeout))
            }
        },
        CtlCommand(
            name: CommandWord.watch.rawValue, synopsis: "watch [CLIENT] [--in-use]",
            summary: "print events as they happen, one line each",
            details: """
                Starts with the current state (source, each client's authorization, open prompts),
                then prints authorization, prompt, location, error and source events until
                interrupted. With --json, each event is printed as the daemon sent it.

                Options:
                  --in-use   begin CLIENT's session first and hold it while the watch runs
                             (how an app is in use and sees its positions; ended when the
                             watch ends)

                Example:
                  locationctl watch logger
                  locationctl watch survey --in-use
                """,
            arguments: [.init("CLIENT", .client)],
            options: [.init(["--in-use"], help: "hold CLIENT's session while watching")]
        ) { p in
            p.expect(["CLIENT"], optional: 1).flatMap { args in
                guard p.flag("--in-use") else { return .success(.request(.watch(client: args.first))) }
                guard let client = args.first else { return p.fail("--in-use needs CLIENT: whose session to hold") }
                return .success(.watchInUse(client: client))
            }
        },
        CtlCommand(
            name: CommandWord.report.rawValue, synopsis: "report [CLIENT] [--since DURATION]",
            summary: "the access report: positions handed to each client",
            details: """
                Per client: the first and last minute a position was handed out, how many,
                by sink (log, gpsd_socket, gpsd_port, nmea_socket, watch), by accuracy and by
                socket peer, over the days the daemon keeps (report_days, default 7) or the
                last DURATION (90s, 15m, 2h, 7d). The operator sees every client, a client's
                app its own, anyone else none. With --json, one object: {"clients":[…]}.

                Example:
                  locationctl report logger --since 1d
                """,
            arguments: [.init("CLIENT", .client)],
            options: [.init(["--since"], value: CtlCommand.Completion.none, help: "only the last DURATION (90s, 15m, 2h, 7d)")]
        ) { p in
            p.expect(["CLIENT"], optional: 1).flatMap { args in
                var since: Double?
                if let text = p.option("--since") {
                    guard let seconds = CommandParser.duration(text), seconds > 0, seconds <= 366 * 86_400 else {
                        return p.fail("--since must be a duration such as 90s, 15m, 2h or 7d (at most 366d), not \"\(text)\"")
                    }
                    since = seconds
                }
                return .success(.request(.report(client: args.first, since: since)))
            }
        },
    ]
}
