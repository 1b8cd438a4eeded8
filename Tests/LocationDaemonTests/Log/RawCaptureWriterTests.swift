#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import LocationValues
import LocationDaemon
import LocationSystem
import Testing
import TestSupport

/// A receiver's raw capture and its RTKLIB time tags (`raw_log`): every byte in order and
/// unchanged, one write per flush, tags RTKLIB reads, and a crash's torn tail cut off at open.
@Suite(.timeLimit(.minutes(10))) struct RawCaptureWriterTests {
    static let start = UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 9, minute: 30, second: 0.25)

    /// Every byte value, then a u-blox capture from gpsd's corpus (fixtures/gpsd/gpsd-corpus), in
    /// chunks of 700; a capture that cannot be read fails the test rather than leaving it the 256 bytes.
    static func chunks() throws -> [[UInt8]] {
        var bytes = (0...255).map { UInt8($0) }
        bytes += try FileIO.read(PackagePaths.gpsdCaptures + "/gpsd-corpus/ublox-8.log")
        return stride(from: 0, to: bytes.count, by: 700).map { Array(bytes[$0..<min($0 + 700, bytes.count)]) }
    }

    static func write(_ chunks: [[UInt8]], to path: String, every seconds: Double) throws -> RawCaptureWriter {
        let writer = try RawCaptureWriter(path: path, start: start, openTick: 1234, fsync: .interval)
        for (n, chunk) in chunks.enumerated() {
            chunk.withUnsafeBytes { writer.append($0, at: start + Double(n) * seconds) }
        }
        #expect(writer.flush() == nil)
        return writer
    }

    @Test func everyByteIsKeptInOrderWithATagPerChunkInOneWrite() throws {
        let dir = try ScratchDirectory("raw")
        let path = dir.file("raw/ttyACM0.ubx")
        let chunks = try Self.chunks()
        let writer = try Self.write(chunks, to: path, every: 0.1)
        #expect(writer.writes == 1, "gathered, then one write")
        #expect(writer.close() == nil)
        #expect(try dir.read(path) == chunks.flatMap { $0 })
        let tags = try #require(RTKLIBTimeTag.parse(try dir.read(path + ".tag")))
        #expect(abs(tags.start - Self.start) < 1e-6)
        #expect(tags.openTick == 1234)
        #expect(tags.chunks.map(\.tick) == chunks.indices.map { UInt32($0 * 100) })
        var end: UInt64 = 0
        #expect(tags.chunks.map(\.end) == chunks.map { end += UInt64($0.count); return end })
    }

    @Test func openingCutsATornTagAndTheBytesNoTagNames() throws {
        let dir = try ScratchDirectory("raw-torn")
        let path = dir.file("r.raw")
        let chunks = try Self.chunks()
        _ = try Self.write(Array(chunks.prefix(3)), to: path, every: 0.2).close()
        // A crash mid-flush: part of a chunk's bytes written, and part of its tag.
        try FileIO.append(path, Array(repeating: 0x55, count: 40))
        try FileIO.append(path + ".tag", [1, 2, 3])
        let again = try RawCaptureWriter(path: path, start: Self.start + 100, openTick: 0, fsync: .always)
        #expect(abs(again.start - Self.start) < 1e-6, "an existing capture keeps its start")
        chunks[3].withUnsafeBytes { again.append($0, at: Self.start + 1) }
        #expect(again.close() == nil)
        #expect(try dir.read(path) == chunks.prefix(4).flatMap { $0 })
        let tags = try #require(RTKLIBTimeTag.parse(try dir.read(path + ".tag")))
        #expect(tags.chunks.map(\.tick) == [0, 200, 400, 1000])
        #expect(try dir.read(path + ".tag").count == RTKLIBTimeTag.headerSize + 4 * RTKLIBTimeTag.entrySize)
    }

    @Test func aWriteThatFailsPartWayIsCutBackWholeAndReportedOnce() async throws {
        let dir = try ScratchDirectory("raw-full")
        // setrlimit would limit every test in this process: do it in a child.
        await #expect(processExitsWith: .success) { [path = dir.file("r.raw") as String] in
            SignalSource.ignoreBenignSignals()
            let writer = try RawCaptureWriter(path: path, start: 0, openTick: 0, fsync: .interval)
            let first = [UInt8](repeating: 0xB5, count: 3000)
            first.withUnsafeBytes { writer.append($0, at: 1) }
            #expect(writer.flush() == nil)
            let original = try #require(FileSizeLimit.set(4096))
            // 3000 more bytes would end at 6000: the write stops at 4096 and is cut back.
            let second = [UInt8](repeating: 0x62, count: 3000)
            second.withUnsafeBytes { writer.append($0, at: 2) }
            #expect(writer.flush()?.errno == EFBIG, "the first failure is returned")
            second.withUnsafeBytes { writer.append($0, at: 3) }
            #expect(writer.flush() == nil, "later failures of the episode are not")
            #expect(try FileIO.read(path) == first, "no part of a chunk is left")
            #expect(writer.bytesLost == 6000)
            try #require(FileSizeLimit.restore(original))
            let third = [UInt8](repeating: 0x01, count: 10)
            third.withUnsafeBytes { writer.append($0, at: 4) }
            #expect(writer.flush() == nil)
            #expect(writer.close() == nil)
            #expect(try FileIO.read(path) == first + third)
            #expect(RTKLIBTimeTag.parse(try FileIO.read(path + ".tag"))?.chunks.map(\.end) == [3000, 3010])
        }
    }

    @Test func aSymbolicLinkIsRefused() throws {
        let dir = try ScratchDirectory("raw-link")
        #expect(symlink(dir.file("elsewhere"), dir.file("r.raw.tag")) == 0)
        #expect(throws: SystemError.self) { try RawCaptureWriter(path: dir.file("r.raw"), start: 0, openTick: 0, fsync: .always) }
        #expect(!FileIO.exists(dir.file("elsewhere")))
    }

    @Test(.enabled(if: ExternalTool.isAvailable("str2str"), "needs str2str (rtklib)"), .timeLimit(.minutes(1)))
    func str2strPlaysTheCaptureBackByItsTags() async throws {
        let dir = try ScratchDirectory("raw-str2str")
        let path = dir.file("r.raw")
        let chunks = try Self.chunks()
        _ = try Self.write(chunks, to: path, every: 0.01).close()
        let whole = chunks.flatMap { $0 }
        let played = try await RTKLIB.playBack(path, into: dir.file("out.raw"), count: whole.count)
        #expect(played.bytes == whole, "str2str read \(played.bytes.count) of \(whole.count) bytes: \(played.output)")
    }
}
