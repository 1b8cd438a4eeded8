#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationSystem
import Testing
import TestSupport

/// `locationd.conf.d/*.conf`: read after the main file in byte order of
/// their names; a later key overrides; every problem names its own file.
@Suite(.timeLimit(.minutes(10))) struct ConfigDropInTests {
    static let main = """
        [source]
        type = gpsd
        port = 2947

        [client.logger]
        log = logger.jsonl
        distance_filter = 5
        """

    @Test func dropInsApplyInOrderAndALaterKeyOverrides() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("locationd.conf", Self.main)
        #expect(mkdir(dir.file("locationd.conf.d"), 0o755) == 0)
        // "20-" sorts after "10-" and both after the main file; the last word on port is 20-'s.
        _ = try dir.write("locationd.conf.d/20-port.conf", "[source]\nport = 3000\n")
        _ = try dir.write("locationd.conf.d/10-port.conf", "[source]\nport = 2948\n[client.logger]\ndistance_filter = 10\n")
        _ = try dir.write("locationd.conf.d/30-tracker.conf", "[client.tracker]\nlog = tracker.jsonl\n")
        // Not *.conf: an editor's backup and a dpkg leftover are left alone.
        _ = try dir.write("locationd.conf.d/20-port.conf~", "[source]\nport = 1\n")
        _ = try dir.write("locationd.conf.d/10-port.conf.dpkg-old", "nonsense\n")

        #expect(try ConfigLoader.dropIns(of: path) == [
            dir.file("locationd.conf.d/10-port.conf"), dir.file("locationd.conf.d/20-port.conf"),
            dir.file("locationd.conf.d/30-tracker.conf"),
        ])
        let config = try ConfigLoader.load(path: path, environment: ["LOGS_DIRECTORY": dir.path])
        #expect(config.source == .gpsd(host: "127.0.0.1", port: 3000))
        #expect(config.clients.map(\.name) == ["logger", "tracker"])
        #expect(config.client(named: "logger")?.distanceFilter == 10)
        #expect(config.client(named: "logger")?.log == "logger.jsonl", "keys a drop-in does not set stay")
        #expect(config.file == path)
    }

    @Test func noDropInDirectoryIsNoDropIns() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("locationd.conf", Self.main)
        #expect(try ConfigLoader.dropIns(of: path).isEmpty)
        #expect(try ConfigLoader.load(path: path, environment: [:]).client(named: "logger")?.distanceFilter == 5)
    }

    @Test func problemsNameTheDropInAndItsLine() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("locationd.conf", Self.main + "\ncolour = blue\n")
        #expect(mkdir(dir.file("locationd.conf.d"), 0o755) == 0)
        let dropIn = try dir.write("locationd.conf.d/50-bad.conf", "# a comment\n[client.logger]\ndistance_filter = far\n[source]\n[source]\n")
        do {
            _ = try ConfigLoader.load(path: path, environment: [:])
            Issue.record("a drop-in with errors was accepted")
        } catch {
            let lines = error.errors.map(\.description)
            #expect(lines.count == 3, "\(lines)")
            #expect(lines.first?.hasPrefix("\(path):8: ") == true, "the main file's first: \(lines)")
            #expect(lines.contains { $0.hasPrefix("\(dropIn):3: [client.logger] distance_filter = \"far\"") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("\(dropIn):5: ") }, "a section repeated inside one drop-in: \(lines)")
        }
    }

    @Test func aRuleAcrossKeysSeesTheMergedFiles() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("locationd.conf", Self.main)
        #expect(mkdir(dir.file("locationd.conf.d"), 0o755) == 0)
        // type = nmea without a device: the rule sees the merged [source].
        let dropIn = try dir.write("locationd.conf.d/nmea.conf", "[source]\ntype = nmea\n")
        #expect(throws: ConfigErrors.self) { try ConfigLoader.load(path: path, environment: [:]) }
        _ = try dir.write("locationd.conf.d/serial.conf", "[source]\ndevice = /dev/ttyACM0\n")
        #expect(try ConfigLoader.dropIns(of: path) == [dropIn, dir.file("locationd.conf.d/serial.conf")])
        let config = try ConfigLoader.load(path: path, environment: [:])
        #expect(config.source.description.contains("/dev/ttyACM0"), "\(config.source)")
    }

    @Test func anUnreadableDropInIsAnError() throws {
        let dir = try ScratchDirectory()
        let path = try dir.write("locationd.conf", Self.main)
        #expect(mkdir(dir.file("locationd.conf.d"), 0o755) == 0)
        #expect(mkdir(dir.file("locationd.conf.d/dir.conf"), 0o755) == 0)
        do {
            _ = try ConfigLoader.load(path: path, environment: [:])
            Issue.record("a directory named *.conf was taken")
        } catch {
            #expect(error.errors.count == 1)
            #expect(error.errors.first?.file == dir.file("locationd.conf.d/dir.conf"))
            #expect(error.errors.first?.kind == .unreadable)
        }
    }
}
