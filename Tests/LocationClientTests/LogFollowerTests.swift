#if canImport(Glibc)
import Glibc
#endif
import LocationClient
import LocationSystem
import Testing
import TestSupport

/// `tail` and `tail -f` on real files: last lines, appends, lines written in
/// pieces, rotation by rename, truncation.
@Suite(.timeLimit(.minutes(10))) struct LogFollowerTests {
    static func lines(_ range: Range<Int>) -> String {
        range.map { "line \($0)\n" }.joined()
    }

    static func append(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        let bytes = Array(text.utf8)
        #expect(write(fd, bytes, bytes.count) == bytes.count)
    }

    static func text(_ lines: [[UInt8]]) -> [String] {
        lines.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test(arguments: [0, 1, 3, 10, 5000, 20_000])
    func theLastLinesAreTheLastCompleteOnes(count: Int) throws {
        let directory = try ScratchDirectory("tail")
        // 10 000 lines (about 100 KiB, more than one read) and a torn last line.
        let path = try directory.write("log.jsonl", Self.lines(0..<10_000) + "torn")
        let follower = try LogFollower(path: path)
        let expected = (max(0, 10_000 - count)..<10_000).map { "line \($0)" }
        #expect(Self.text(try follower.lastLines(count)) == expected)
        // The torn line comes once it is finished.
        try Self.append(" now whole\n", to: path)
        #expect(Self.text(try follower.readNew().lines) == ["torn now whole"])
    }

    @Test func anEmptyFileAndAFileWithoutNewlinesHaveNoLines() throws {
        let directory = try ScratchDirectory("tail-empty")
        let empty = try directory.write("empty.jsonl", "")
        #expect(try LogFollower(path: empty).lastLines(10).isEmpty)
        let torn = try directory.write("torn.jsonl", "no newline yet")
        let follower = try LogFollower(path: torn)
        #expect(try follower.lastLines(10).isEmpty)
        try Self.append("\nnext\n", to: torn)
        #expect(Self.text(try follower.readNew().lines) == ["no newline yet", "next"])
    }

    @Test func appendedLinesArriveWholeEvenWhenWrittenInPieces() throws {
        let directory = try ScratchDirectory("tail-append")
        let path = try directory.write("log.jsonl", Self.lines(0..<3))
        let follower = try LogFollower(path: path)
        #expect(Self.text(try follower.lastLines(1)) == ["line 2"])
        #expect(try follower.readNew().lines.isEmpty)
        try Self.append("line 3\nline", to: path)
        #expect(Self.text(try follower.readNew().lines) == ["line 3"])
        try Self.append(" 4\n", to: path)
        #expect(Self.text(try follower.readNew().lines) == ["line 4"])
    }

    @Test func rotationIsFollowedToTheNewFileAfterTheOldOneIsRead() throws {
        let directory = try ScratchDirectory("tail-rotate")
        let path = try directory.write("log.jsonl", Self.lines(0..<2))
        let follower = try LogFollower(path: path)
        _ = try follower.lastLines(10)
        // Written just before logrotate renamed it, then the daemon reopens a new file.
        try Self.append("line 2\n", to: path)
        #expect(rename(path, path + ".1") == 0)
        try Self.append("line 3 (old file, after the rename)\n", to: path + ".1")
        try Self.append("line 4\n", to: path)
        let update = try follower.readNew()
        #expect(update.rotated)
        #expect(Self.text(update.lines) == ["line 2", "line 3 (old file, after the rename)", "line 4"])
        try Self.append("line 5\n", to: path)
        let next = try follower.readNew()
        #expect(!next.rotated && Self.text(next.lines) == ["line 5"])
    }

    @Test func whileTheNewFileIsMissingTheOldOneIsKept() throws {
        let directory = try ScratchDirectory("tail-gap")
        let path = try directory.write("log.jsonl", Self.lines(0..<1))
        let follower = try LogFollower(path: path)
        _ = try follower.lastLines(1)
        #expect(rename(path, path + ".1") == 0)
        #expect(!(try follower.readNew().rotated))
        try Self.append("line 1\n", to: path)
        let update = try follower.readNew()
        #expect(update.rotated && Self.text(update.lines) == ["line 1"])
    }

    @Test func truncationStartsAgainFromTheTop() throws {
        let directory = try ScratchDirectory("tail-truncate")
        let path = try directory.write("log.jsonl", Self.lines(0..<100))
        let follower = try LogFollower(path: path)
        _ = try follower.lastLines(1)
        // logrotate's copytruncate: the same file, emptied, then written again.
        #expect(truncate(path, 0) == 0)
        try Self.append("fresh 0\nfresh 1\n", to: path)
        let update = try follower.readNew()
        #expect(update.truncated)
        #expect(Self.text(update.lines) == ["fresh 0", "fresh 1"])
    }

    @Test func aMissingFileIsAnErrorNamingIt() throws {
        let directory = try ScratchDirectory("tail-missing")
        #expect(throws: SystemError("open \(directory.file("nope.jsonl"))", errno: ENOENT)) {
            try LogFollower(path: directory.file("nope.jsonl"))
        }
    }
}
