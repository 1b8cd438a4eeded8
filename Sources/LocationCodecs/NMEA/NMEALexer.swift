/// Frames NMEA-0183 sentences out of a raw byte stream and checks their
/// checksums, following the rules of gpsd's packet lexer (`packet.c`) so that
/// garbage is treated the way gpsd treats it:
///
/// * A sentence starts at `$` followed by a talker or vendor leader gpsd
///   knows (`GP GN GL GA GB BD QZ`, `P` + letter, and the marine leaders).
/// * It ends at LF, or at CR followed by LF (any number of CRs). A CR followed
///   by anything else, or any unprintable byte (NUL, TAB, bytes ≥ 0x7F) inside
///   the sentence, abandons it.
/// * A `$` inside a sentence sets the fragment aside (gpsd's "stash"). When
///   the sentence that interrupted it is accepted, the fragment is resumed, so
///   a sentence split by another one is reassembled; otherwise it is lost.
/// * `#` outside a sentence starts a comment that runs to LF (or to the next
///   unprintable byte).
/// * The checksum is checked when the sentence ends in `*` and two uppercase
///   hex digits (trailing blanks allowed); a sentence without one is accepted.
/// * A sentence longer than 102 bytes, terminator included, is rejected.
struct NMEALexer: Sendable {
    /// gpsd's `NMEA_MAX`: the longest sentence accepted, from `$` through LF.
    static let maximumLength = 102
    /// Bytes kept of a sentence being read; anything longer is over-long anyway.
    static let capacity = 128

    private enum State: UInt8, Sendable {
        case ground, comment, dollar, leaderSecond, leaderThird, body, carriageReturn
    }

    private var state: State = .ground
    /// First and second leader bytes after `$`, while the leader is checked.
    private var leader: (UInt8, UInt8) = (0, 0)
    /// The sentence being read, from `$`, without its CR/LF.
    private(set) var line: [UInt8] = Array(repeating: 0, count: NMEALexer.capacity)
    /// Bytes of the current sentence seen so far, CR/LF included (may exceed `capacity`).
    private var length = 0
    /// Bytes of the current sentence before its CR/LF (the stored text, when not over-long).
    private(set) var textLength = 0
    /// A sentence interrupted by `$`, waiting to be resumed.
    private var stash: [UInt8] = Array(repeating: 0, count: NMEALexer.capacity)
    private var stashLength = 0
    /// The last sentence returned was accepted: resume the stash before reading on.
    private var resumePending = false

    /// Complete sentences framed (accepted, bad checksum or over-long).
    private(set) var framed = 0
    /// Sentences whose checksum did not match.
    private(set) var badChecksums = 0
    /// Sentences framed but longer than `maximumLength`.
    private(set) var overLong = 0
    /// Fragments abandoned, never framed as sentences: truncated, interrupted
    /// and never resumed, broken by an unprintable byte or a bad leader.
    private(set) var broken = 0

    init() {}

    /// Reads `input` from `index` until a sentence is accepted (returns true:
    /// its text is `line[0..<textLength]`, starting with `$`) or the input is
    /// used up (returns false). Call again with the same `index` to go on.
    mutating func next(_ input: UnsafeRawBufferPointer, _ index: inout Int) -> Bool {
        let count = input.count
        var i = index
        var found = false
        // The buffer is moved out of `self` while it is written, so that the
        // helpers below may update the other stored properties.
        var buffer: [UInt8] = []
        swap(&buffer, &self.line)
        defer { swap(&buffer, &self.line) }
        buffer.withUnsafeMutableBufferPointer { line in
            if resumePending { resumeStash(line) }
            while i < count {
                if state == .body {
                    // The hot path: printable bytes other than `$` are the
                    // sentence's text. Kept in locals so they stay in registers.
                    // While the sentence fits the buffer every byte is stored without asking
                    // for room; an over-long rest is only counted.
                    var k = i
                    var stored = length
                    let fits = min(count, k + max(0, Self.capacity - stored))
                    while k < fits {
                        let c = input[k]
                        guard Self.isText(c) else { break }
                        line[stored] = c
                        stored &+= 1
                        k &+= 1
                    }
                    if k == fits {
                        while k < count && Self.isText(input[k]) {
                            stored &+= 1
                            k &+= 1
                        }
                    }
                    length = stored
                    i = k
                    if i == count { break }
                }
                let c = input[i]
                i += 1
                switch state {
                case .ground:
                    if c == UInt8(ascii: "$") {
                        line[0] = c
                        length = 1
                        state = .dollar
                    } else if c == UInt8(ascii: "#") {
                        state = .comment
                    }
                case .comment:
                    // A comment ends at LF; an unprintable byte ends it too (gpsd
                    // drops back to hunting), and is then skipped as garbage.
                    if c == 0x0A || !Self.isPrintable(c) { state = .ground }
                case .body:
                    if c == UInt8(ascii: "$") {
                        stashFragment(line)
                        line[0] = c
                        length = 1
                        state = .dollar
                    } else if c == 0x0D {
                        textLength = length
                        length += 1
                        state = .carriageReturn
                    } else if c == 0x0A {
                        textLength = length
                        length += 1
                        state = .ground
                        found = complete(line)
                    } else {
                        abandon()
                        state = .ground
                    }
                case .carriageReturn:
                    if c == 0x0A {
                        length += 1
                        state = .ground
                        found = complete(line)
                    } else if c == 0x0D {
                        length += 1
                    } else {
                        // CR not followed by LF: the sentence is dropped and the
                        // byte is looked at again as possible start of the next.
                        abandon()
                        state = .ground
                        i -= 1
                    }
                case .dollar:
                    switch c {
                    case UInt8(ascii: "C"), UInt8(ascii: "O"):
                        line[1] = c
                        length = 2
                        state = .body
                    case UInt8(ascii: "G"), UInt8(ascii: "P"), UInt8(ascii: "I"), UInt8(ascii: "W"),
                         UInt8(ascii: "H"), UInt8(ascii: "T"), UInt8(ascii: "E"), UInt8(ascii: "S"),
                         UInt8(ascii: "Y"), UInt8(ascii: "B"), UInt8(ascii: "Q"), UInt8(ascii: "A"):
                        leader = (c, 0)
                        line[1] = c
                        length = 2
                        state = .leaderSecond
                    default:
                        abandon()
                        state = .ground
                        i -= 1
                    }
                case .leaderSecond:
                    let next = Self.leaderSecondAccepts(first: leader.0, c)
                    if next == 0 {
                        abandon()
                        state = .ground
                        i -= 1
                    } else {
                        leader.1 = c
                        line[2] = c
                        length = 3
                        state = next == 1 ? .body : .leaderThird
                    }
                case .leaderThird:
                    // `$Ack` (SiRF acknowledgement) or `$AI` + letter (AIS).
                    let ok = leader.1 == UInt8(ascii: "c") ? c == UInt8(ascii: "k") : Self.isLetter(c)
                    if ok {
                        line[3] = c
                        length = 4
                        state = .body
                    } else {
                        abandon()
                        state = .ground
                        i -= 1
                    }
                }
                if found { break }
                if resumePending { resumeStash(line) }
            }
        }
        index = i
        return found
    }

    /// End of input: a sentence still being read is incomplete and dropped.
    mutating func finish() {
        switch state {
        case .dollar, .leaderSecond, .leaderThird, .body, .carriageReturn:
            abandon()
        case .ground, .comment:
            dropStash()
        }
        state = .ground
        length = 0
        resumePending = false
    }

    // MARK: - Pieces

    /// 0: not a leader gpsd accepts; 1: leader complete; 2: one more byte to check.
    private static func leaderSecondAccepts(first: UInt8, _ c: UInt8) -> Int {
        switch first {
        case UInt8(ascii: "G"):
            switch c {
            case UInt8(ascii: "P"), UInt8(ascii: "N"), UInt8(ascii: "L"), UInt8(ascii: "A"), UInt8(ascii: "B"): 1
            default: 0
            }
        case UInt8(ascii: "P"): isLetter(c) ? 1 : 0
        case UInt8(ascii: "I"): c == UInt8(ascii: "I") || c == UInt8(ascii: "N") ? 1 : 0
        case UInt8(ascii: "W"), UInt8(ascii: "T"): c == UInt8(ascii: "I") ? 1 : 0
        case UInt8(ascii: "H"), UInt8(ascii: "E"): c == UInt8(ascii: "C") ? 1 : 0
        case UInt8(ascii: "S"): c == UInt8(ascii: "D") || c == UInt8(ascii: "T") ? 1 : 0
        case UInt8(ascii: "Y"): c == UInt8(ascii: "X") ? 1 : 0
        case UInt8(ascii: "B"): c == UInt8(ascii: "D") ? 1 : 0
        case UInt8(ascii: "Q"): c == UInt8(ascii: "Z") ? 1 : 0
        case UInt8(ascii: "A"): c == UInt8(ascii: "c") || c == UInt8(ascii: "I") ? 2 : 0
        default: 0
        }
    }

    @inline(__always)
    static func isPrintable(_ c: UInt8) -> Bool { c >= 0x20 && c < 0x7F }

    /// A byte of a sentence's text: printable, and not the `$` that starts another.
    @inline(__always)
    private static func isText(_ c: UInt8) -> Bool { c &- 0x20 < 0x5F && c != UInt8(ascii: "$") }

    @inline(__always)
    private static func isLetter(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z")) || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z"))
    }

    /// A sentence ended at LF: true if it is accepted (checksum right or absent,
    /// not over-long). A rejected sentence also loses any stashed fragment.
    private mutating func complete(_ line: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        framed += 1
        if length > Self.maximumLength {
            // gpsd's lexer accepts it (resuming any stashed fragment) and its
            // decoder then rejects it; only the bytes we keep are too few to
            // check its checksum, which does not change the outcome.
            overLong += 1
            resumePending = true
            return false
        }
        guard Self.checksumAccepts(UnsafeBufferPointer(rebasing: line[0..<textLength])) else {
            badChecksums += 1
            dropStash()
            return false
        }
        resumePending = true
        return true
    }

    /// gpsd's rule: skip trailing blanks, then uppercase hex digits; if that
    /// lands on `*`, the two bytes after it must be the XOR of everything
    /// between `$` and `*`, in uppercase hex. `$PASHR` carries no checksum.
    static func checksumAccepts(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = text.count
        if n >= 7, text[1] == UInt8(ascii: "P"), text[2] == UInt8(ascii: "A"), text[3] == UInt8(ascii: "S"),
           text[4] == UInt8(ascii: "H"), text[5] == UInt8(ascii: "R"), text[6] == UInt8(ascii: ",") {
            return true
        }
        var end = n - 1
        while end > 0, text[end] == 0x20 { end -= 1 }
        while end > 0, isUpperHex(text[end]) { end -= 1 }
        guard end > 0, text[end] == UInt8(ascii: "*") else { return true }
        var sum: UInt8 = 0
        for k in 1..<end { sum ^= text[k] }
        guard end + 2 < n else { return false }
        let high = hexDigit(sum >> 4), low = hexDigit(sum & 0x0F)
        return text[end + 1] == high && text[end + 2] == low
    }

    @inline(__always)
    private static func isUpperHex(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "F"))
    }

    @inline(__always)
    private static func hexDigit(_ v: UInt8) -> UInt8 {
        v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "A") + v - 10
    }

    private mutating func stashFragment(_ line: UnsafeMutableBufferPointer<UInt8>) {
        if stashLength > 0 { broken += 1 }
        let kept = min(length, Self.capacity)
        stash.withUnsafeMutableBufferPointer { stash in
            for k in 0..<kept { stash[k] = line[k] }
        }
        stashLength = length
    }

    /// Puts the fragment set aside back as the sentence being read, as gpsd
    /// does once the sentence that interrupted it has been accepted.
    private mutating func resumeStash(_ line: UnsafeMutableBufferPointer<UInt8>) {
        resumePending = false
        guard stashLength > 0 else { return }
        let kept = min(stashLength, Self.capacity)
        stash.withUnsafeBufferPointer { stash in
            for k in 0..<kept { line[k] = stash[k] }
        }
        length = stashLength
        stashLength = 0
        state = .body
    }

    private mutating func abandon() {
        broken += 1
        dropStash()
    }

    private mutating func dropStash() {
        if stashLength > 0 {
            broken += 1
            stashLength = 0
        }
    }
}
