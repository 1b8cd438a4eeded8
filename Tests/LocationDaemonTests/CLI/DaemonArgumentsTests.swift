import LocationCore
import LocationDaemon
import Testing

/// locationd's own command line: `run`, `check-config`, `replay`, help and version.
@Suite(.timeLimit(.minutes(10))) struct DaemonArgumentsTests {
    static let accepted: [([String], [String: String], DaemonInvocation)] = [
        (["run"], [:], .run(config: "/etc/locationd/locationd.conf")),
        (["run"], ["LOCATIOND_CONFIG": "/tmp/l.conf"], .run(config: "/tmp/l.conf")),
        (["run", "--config", "/x.conf"], ["LOCATIOND_CONFIG": "/tmp/l.conf"], .run(config: "/x.conf")),
        (["run", "--config=/y.conf"], [:], .run(config: "/y.conf")),
        (["check-config"], [:], .checkConfig(config: "/etc/locationd/locationd.conf")),
        (["check-config", "--config", "c.conf"], [:], .checkConfig(config: "c.conf")),
        (["replay", "walk.nmea"], [:], .replay(.init(inputs: ["walk.nmea"], config: "/etc/locationd/locationd.conf"))),
        // Several recordings, each its own receiver, in the order given (options may come between them).
        (["replay", "good.nmea", "--config", "c", "poor.nmea", "-"], [:],
         .replay(.init(inputs: ["good.nmea", "poor.nmea", "-"], config: "c"))),
        (["replay", "-", "--config", "c", "--events", "e.jsonl", "--log-dir", "/tmp/logs", "--state", "s.json"], [:],
         .replay(.init(inputs: ["-"], config: "c", events: "e.jsonl", logDirectory: "/tmp/logs", state: "s.json"))),
        (["--log-dir=/l", "replay", "w.nmea"].suffix(2) + ["--log-dir=/l"], [:],
         .replay(.init(inputs: ["w.nmea"], config: "/etc/locationd/locationd.conf", logDirectory: "/l"))),
        (["--help"], [:], .help(command: nil)),
        (["help", "replay"], [:], .help(command: "replay")),
        (["replay", "--help"], [:], .help(command: "replay")),
        (["--version"], [:], .version),
    ]

    @Test(arguments: accepted)
    func parsesEverySubcommand(args: [String], env: [String: String], expected: DaemonInvocation) {
        #expect((try? DaemonArguments.parse(args, environment: env).get()) == expected, "\(args)")
    }

    @Test(arguments: [
        ([], "missing command"),
        (["runn"], "did you mean \"run\""),
        (["replay"], "missing FILE"),
        (["replay", "a", "b", "a"], "\"a\" given twice"),
        (["replay", "a", "--event", "e"], "did you mean \"--events\""),
        (["run", "--events", "e"], "unknown option --events for run"),
        (["run", "--config"], "--config needs a value"),
        (["check-config", "extra"], "unexpected argument"),
    ])
    func refusesBadCommandLines(args: [String], words: String) {
        switch DaemonArguments.parse(args) {
        case .success(let invocation): Issue.record("accepted \(args) as \(invocation)")
        case .failure(let error):
            #expect(error.message.contains(words), "\(error.message)")
            #expect(error.description.hasPrefix("locationd: "))
            #expect(error.description.contains("usage: locationd "))
        }
    }

    @Test func everySubcommandHasHelp() {
        for name in ["run", "replay", "check-config"] {
            #expect(DaemonUsage.help(for: name).hasPrefix("usage: locationd \(name)"))
        }
        #expect(DaemonUsage.overview.contains("replay FILE"))
    }
}
