/// A write position in a fixed scratch buffer: how the per-fix formatters
/// (the log line, its numbers and its time) write bytes.
///
/// A log line used to be a few dozen `Array.append` calls, each checking the
/// array's uniqueness and capacity and most copying through a slice; that
/// was two thirds of the per-fix cost. Here a whole line is written through a
/// pointer into stack scratch space and copied into the caller's array once.
///
/// Every writer checks, before it writes, that its output fits: with a
/// `precondition`, so a scratch buffer too small for what it is given traps
/// instead of writing past its end. Callers size the scratch space for the
/// longest output they can produce, so the check never fails in practice.
///
/// Its writers, `FixedDecimal.write` and `ByteText.writeUTC` are `@inlinable`:
/// the log line is written in LocationProtocol and numbers in the engine, a
/// library away from here, and without their bodies across that line every
/// number and byte was a call (a replay ran 8 % more instructions a fix after
/// the library split; docs/performance.md, "The NMEA device", after #47–#50).
@usableFromInline package struct ByteCursor {
    /// The first byte of the scratch space.
    @usableFromInline let start: UnsafeMutablePointer<UInt8>
    /// Where the next byte goes.
    @usableFromInline var next: UnsafeMutablePointer<UInt8>
    /// One past the last writable byte.
    @usableFromInline let end: UnsafeMutablePointer<UInt8>

    @usableFromInline init(start: UnsafeMutablePointer<UInt8>, end: UnsafeMutablePointer<UInt8>) {
        self.start = start
        self.next = start
        self.end = end
    }

    /// Runs `body` with a cursor over `capacity` bytes of scratch space (on
    /// the stack for the small sizes used here) and appends what it wrote to
    /// `out` in one copy.
    @inlinable @inline(__always)
    package static func append<Result>(
        to out: inout [UInt8], capacity: Int, _ body: (inout ByteCursor) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
            // A zero capacity still yields a (never written) base address.
            let start = scratch.baseAddress!
            var cursor = ByteCursor(start: start, end: start + scratch.count)
            let result = body(&cursor)
            out.append(contentsOf: UnsafeBufferPointer(start: start, count: cursor.next - start))
            return result
        }
    }

    /// Traps unless `count` more bytes fit.
    @inlinable @inline(__always)
    func needs(_ count: Int) {
        precondition(count <= end - next, "ByteCursor: output longer than its scratch buffer")
    }

    /// Writes one byte.
    @inlinable @inline(__always)
    package mutating func put(_ byte: UInt8) {
        needs(1)
        next.pointee = byte
        next += 1
    }

    /// Writes the UTF-8 of a literal (keys and punctuation: `","lat":`).
    @inlinable @inline(__always)
    package mutating func put(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        needs(count)
        next.update(from: text.utf8Start, count: count)
        next += count
    }

    /// Writes the UTF-8 of `text`. (Not an unlabelled `put`: a literal would
    /// pick that overload over the `StaticString` one.)
    package mutating func put(contentsOf text: String) {
        var text = text
        text.withUTF8 { bytes in
            needs(bytes.count)
            guard let base = bytes.baseAddress else { return }
            next.update(from: base, count: bytes.count)
            next += bytes.count
        }
    }

    /// `"00"` to `"99"` back to back: the two digits of `n` start at `2 * n`.
    @usableFromInline static var twoDigits: StaticString {
        """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
    }

    /// Writes `value` (0...99) as exactly two digits (`07`).
    @inlinable @inline(__always)
    package mutating func putTwoDigits(_ value: Int) {
        precondition(value >= 0 && value < 100, "ByteCursor: \(value) has more than two digits")
        needs(2)
        next.update(from: Self.twoDigits.utf8Start + 2 * value, count: 2)
        next += 2
    }

    /// Writes `value` in decimal, zero-padded on the left to `minimumWidth` digits.
    @inlinable
    package mutating func putDigits(_ value: UInt64, minimumWidth: Int = 1) {
        var count = 1
        var limit: UInt64 = 10
        while count < 20, value >= limit {
            count += 1
            limit &*= 10  // wraps only after the last comparison (10^19 → count 20)
        }
        putDigits(value, width: max(count, minimumWidth))
    }

    /// Writes exactly `width` digits of `value` (below 10^`width`), zero-padded
    /// on the left: from the right, two at a time.
    @inlinable @inline(__always)
    package mutating func putDigits(_ value: UInt64, width: Int) {
        needs(width)
        let pairs = Self.twoDigits.utf8Start
        var position = next + width
        var rest = value
        var left = width
        while left >= 2 {
            position -= 2
            position.update(from: pairs + 2 * Int(rest % 100), count: 2)
            rest /= 100
            left -= 2
        }
        if left == 1 {
            position -= 1
            position.pointee = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        precondition(rest == 0, "ByteCursor: \(value) has more than \(width) digits")
        next += width
    }

    /// Takes back up to `count` of the last bytes written while they are
    /// `byte`; returns how many it took back. (`FixedDecimal` writes every
    /// decimal, then trims the zeros it need not keep.)
    @inlinable @inline(__always)
    package mutating func dropTrailing(_ byte: UInt8, atMost count: Int) -> Int {
        precondition(count <= next - start, "ByteCursor: dropping more than was written")
        var dropped = 0
        while dropped < count, (next - 1).pointee == byte {
            next -= 1
            dropped += 1
        }
        return dropped
    }

    /// Writes a signed integer in decimal.
    @inlinable
    package mutating func putInteger(_ value: Int) {
        if value < 0 { put(UInt8(ascii: "-")) }
        putDigits(UInt64(value.magnitude))
    }
}
