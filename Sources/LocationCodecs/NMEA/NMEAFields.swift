/// The comma-separated fields of one accepted sentence, as views into the
/// lexer's buffer: no copies, no allocation.
///
/// Field 0 is the tag (`GPGGA`). The checksum part, from the first `*`, is
/// not a field. `count` follows gpsd's convention, which decoders use for
/// their minimum lengths: the number of fields when the sentence has a `*`,
/// one less when it has none.
struct NMEAFields {
    private let text: UnsafeBufferPointer<UInt8>
    private let bounds: UnsafeMutableBufferPointer<UInt8>
    /// Fields present.
    let pieces: Int
    /// gpsd's field count (see above).
    let count: Int

    /// Most fields a sentence of at most 102 bytes can have.
    static let capacity = 104

    /// Splits `text` (from `$`, without CR/LF) using `bounds` (at least
    /// `2 * capacity` bytes) to record where each field starts and ends.
    init(text: UnsafeBufferPointer<UInt8>, bounds: UnsafeMutableBufferPointer<UInt8>) {
        self.text = text
        self.bounds = bounds
        let n = text.count
        var pieces = 0
        var start = 1
        var k = 1
        var star = false
        while k < n {
            let c = text[k]
            // Digits, letters and `.` are above both separators: one comparison for most bytes.
            if c > UInt8(ascii: ",") {
                k += 1
                continue
            }
            if c == UInt8(ascii: ",") {
                bounds[2 * pieces] = UInt8(truncatingIfNeeded: start)
                bounds[2 * pieces + 1] = UInt8(truncatingIfNeeded: k)
                pieces += 1
                start = k + 1
            } else if c == UInt8(ascii: "*") {
                star = true
                break
            }
            k += 1
        }
        bounds[2 * pieces] = UInt8(truncatingIfNeeded: start)
        bounds[2 * pieces + 1] = UInt8(truncatingIfNeeded: k)
        pieces += 1
        self.pieces = pieces
        self.count = star ? pieces : pieces - 1
    }

    /// Field `i`, empty when the sentence has fewer fields.
    @inline(__always)
    subscript(_ i: Int) -> NMEAField {
        guard i < pieces else { return NMEAField(base: text.baseAddress, count: 0) }
        let start = Int(bounds[2 * i]), end = Int(bounds[2 * i + 1])
        return NMEAField(base: text.baseAddress.map { $0 + start }, count: end - start)
    }
}
