#if canImport(Glibc)
import Glibc
#endif
import LocationSystem
import Testing
import TestSupport

@testable import LocationDaemon

/// A listener's socket reaches its path only with its final mode: it is bound
/// under a staging name beside it and linked into place (no moment in which
/// the umask's mode stands at the path).
@Suite(.timeLimit(.minutes(10))) struct UnixListenerTests {
    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode : nil
    }

    static func names(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    @Test func theSocketStandsAtItsPathWithItsModeAndNothingElseIsLeft() throws {
        let scratch = try ScratchDirectory("listener")
        let path = scratch.file("run/control.sock")
        let listener = try UnixListener(path: path, role: "control socket", mode: 0o660, group: nil, directoryMode: 0o755, journal: Diagnostics.control)
        #expect(Self.mode(path).map { $0 & S_IFMT } == S_IFSOCK)
        #expect(Self.mode(path).map { $0 & 0o777 } == 0o660)
        #expect(Self.names(in: scratch.file("run")) == ["control.sock"], "no staging name left")
        listener.close()
        #expect(Self.mode(path) == nil, "closing removes the file it made")
    }

    @Test func aSocketLeftAtTheStagingNameIsReplacedAndAFileThereIsLeftAlone() throws {
        let scratch = try ScratchDirectory("listener-left")
        let path = scratch.file("control.sock")
        let first = try #require(UnixListener.stagingPath(for: path)).path
        let second = try #require(UnixListener.stagingPath(for: path)).path
        #expect(first.hasPrefix(scratch.path + "/.\(getpid()).") && first.hasSuffix(".new"), "\(first)")
        #expect(first != second, "each listener a name of its own")

        // A socket from a start that died between bind and link: removed, the name used.
        let left = scratch.path + "/.\(getpid()).7.new"
        let dead = try UnixListener(path: left, role: "test", mode: 0o600, group: nil, directoryMode: 0o755, journal: Diagnostics.control)
        Glibc.close(dead.fd)
        #expect(Self.mode(left).map { $0 & S_IFMT } == S_IFSOCK)
        #expect(UnixListener.stagingPath(for: path, number: 7)?.path == left)
        #expect(Self.mode(left) == nil, "the left socket is gone")

        // Someone's file at the staging name: kept, and no staging name (bind at the path itself).
        _ = try scratch.write(".\(getpid()).8.new", "not mine\n")
        #expect(UnixListener.stagingPath(for: path, number: 8) == nil)
        #expect(FileIO.text(scratch.path + "/.\(getpid()).8.new") == "not mine\n")
        // A name that is the path itself is no staging name either.
        #expect(UnixListener.stagingPath(for: scratch.path + "/.\(getpid()).9.new", number: 9) == nil)

        // However the staging goes, the socket stands at its path with its mode, alone.
        let listener = try UnixListener(path: path, role: "control socket", mode: 0o660, group: nil, directoryMode: 0o755, journal: Diagnostics.control)
        defer { listener.close() }
        #expect(Self.mode(path).map { $0 & 0o777 } == 0o660)
        #expect(Self.names(in: scratch.path) == [".\(getpid()).8.new", "control.sock"])
    }

    @Test func aServerThatAnswersAtThePathKeepsIt() throws {
        let scratch = try ScratchDirectory("listener-busy")
        let path = scratch.file("control.sock")
        let first = try UnixListener(path: path, role: "control socket", mode: 0o660, group: nil, directoryMode: 0o755, journal: Diagnostics.control)
        defer { first.close() }
        #expect(throws: UnixListener.Failure.alreadyServed) {
            try UnixListener(path: path, role: "control socket", mode: 0o660, group: nil, directoryMode: 0o755, journal: Diagnostics.control)
        }
        #expect(Self.names(in: scratch.path) == ["control.sock"])
    }
}
