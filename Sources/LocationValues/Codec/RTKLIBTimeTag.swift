/// RTKLIB's time-tag file, `FILE.tag` beside a raw stream `FILE` (what `str2str -out
/// file://FILE::T` writes and `str2str -in file://FILE::T` replays at the stream's own pace), as
/// the Debian package's RTKLIB 2.4.3 b34 writes and reads it:
///
/// * a 64-byte header: the text `TIMETAG RTKLIB 2.4.3`, zeros, and in its last 4 bytes the
///   millisecond tick at which the file was opened (a shared clock lets two files play in step);
/// * the file's start time in GPS time: whole seconds (4 bytes) and the fraction (a `double`);
/// * then per chunk written, the chunk's tick (4 bytes, milliseconds since the start) and the
///   stream file's size after it (4 bytes: RTKLIB's default, so a stream stays under 4 GiB —
///   a size `split` keeps it there).
///
/// Little-endian throughout. Pure: the raw capture's writer and `locationd replay` use it.
public enum RTKLIBTimeTag {
    /// Bytes of the header, the start time included.
    public static let headerSize = 64 + 12
    /// Bytes of one chunk's entry.
    public static let entrySize = 8
    /// GPS time less UTC since 2017-01-01, in seconds (RTKLIB's tags are in GPS time).
    public static let leapSeconds = 18.0
    /// The header's text.
    public static let signature = "TIMETAG RTKLIB 2.4.3"

    /// A tag file read back.
    public struct Tags: Sendable, Hashable {
        /// When the file started, UTC seconds.
        public var start: Double
        /// The tick at which it was opened (milliseconds on the writer's clock).
        public var openTick: UInt32
        /// Each chunk: milliseconds after `start`, and the stream's size after it.
        public var chunks: [Chunk]
    }

    /// One chunk's entry.
    public struct Chunk: Sendable, Hashable {
        /// Milliseconds after the file's start.
        public var tick: UInt32
        /// The stream file's size once the chunk was written.
        public var end: UInt64

        /// A chunk from its parts.
        public init(tick: UInt32, end: UInt64) {
            self.tick = tick
            self.end = end
        }
    }

    /// The header of a file started at `start` (UTC seconds), opened at `openTick`.
    public static func header(start: Double, openTick: UInt32) -> [UInt8] {
        var out = Array(signature.utf8)
        out += repeatElement(0, count: 60 - out.count)
        append(openTick, to: &out)
        let gps = start + leapSeconds
        let whole = gps.rounded(.down)
        append(UInt32(clamping: Int64(whole)), to: &out)
        append((gps - whole).bitPattern, to: &out)
        return out
    }

    /// One chunk's entry.
    public static func entry(_ chunk: Chunk) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(entrySize)
        append(chunk.tick, to: &out)
        append(UInt32(clamping: chunk.end), to: &out)
        return out
    }

    /// Reads a tag file: nil when its header is not RTKLIB's; a torn last entry is left out.
    public static func parse(_ bytes: [UInt8]) -> Tags? {
        guard bytes.count >= headerSize, bytes.starts(with: Array("TIMETAG RTKLIB".utf8)) else { return nil }
        let openTick = UInt32(truncatingIfNeeded: read(bytes, at: 60, count: 4))
        let whole = Double(read(bytes, at: 64, count: 4))
        let fraction = Double(bitPattern: read(bytes, at: 68, count: 8))
        var chunks: [Chunk] = []
        var at = headerSize
        while at + entrySize <= bytes.count {
            chunks.append(Chunk(tick: UInt32(truncatingIfNeeded: read(bytes, at: at, count: 4)), end: read(bytes, at: at + 4, count: 4)))
            at += entrySize
        }
        return Tags(start: whole + fraction - leapSeconds, openTick: openTick, chunks: chunks)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    private static func read(_ bytes: [UInt8], at offset: Int, count: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in (0..<count).reversed() { value = value << 8 | UInt64(bytes[offset + i]) }
        return value
    }
}
