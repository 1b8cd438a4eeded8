import LocationValues

#if canImport(Glibc)
import Glibc
#endif

/// Turns a stream of NMEA-0183 bytes into one `Fix` per receiver epoch.
///
/// Feed it bytes as they come (any chunking); it frames sentences as gpsd's
/// lexer does, checks checksums, decodes the sentences of the phrase table
/// (`NMEAPhrase`: GGA, RMC, GSA, GSV, GLL, GNS, VTG, GST, ZDA from any talker,
/// SiRF's PSRFEPE), groups them into epochs and emits each epoch once,
/// in every mode (no-fix epochs too), always with a time; GSV's satellites
/// in view and GSA's lists of satellites used are read beside the epochs for `sky`. Positions and error
/// estimates are computed as gpsd 3.22 computes them; `docs/nmea.md` has the
/// rules. It works on raw bytes and allocates nothing per sentence.
public struct NMEAParser: Sendable {
    private var lexer = NMEALexer()
    private var assembler = NMEAEpochAssembler()
    /// Field boundaries of the sentence being decoded, reused.
    private var bounds: [UInt8] = Array(repeating: 0, count: 2 * NMEAFields.capacity)
    private var ignored = 0
    /// The last decoded sentence, to spot a receiver sending one line twice.
    private var previous: [UInt8] = Array(repeating: 0, count: NMEALexer.maximumLength)
    private var previousLength = 0
    private var duplicates = 0
    /// Satellites used in the last epoch emitted.
    private var lastUsed: Int?
    /// Whether a sentence was decoded, or an epoch ended, since `takeChangedSky` last looked: only
    /// then may the sky differ from the one it last returned (`takenSky`).
    private var skyMayHaveChanged = false
    private var takenSky = SkyView()

    /// A parser with nothing read yet, whose fixes name `device` (the receiver: an NMEA source's
    /// path; `nil` names none). Named as they are made, so no one copies each fix to name it.
    public init(device: String? = nil) {
        assembler.device = device
    }

    /// Reads `bytes` and calls `emit` for every epoch completed by them.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (Fix) -> Void) {
        var index = 0
        while lexer.next(bytes, &index) {
            decodeSentence(emit)
        }
    }

    /// Ends the epoch in progress without ending the input: for a live
    /// source whose receiver has gone quiet, so the last epoch is not held
    /// back until the next one starts. A sentence being read is kept.
    public mutating func flush(_ emit: (Fix) -> Void) {
        skyMayHaveChanged = true
        assembler.flush { fix in
            lastUsed = fix.satellitesUsed
            emit(fix)
        }
    }

    /// End of input: drops an incomplete last sentence, emits the last epoch
    /// and forgets the receiver's learned cycle (the next input may come from
    /// another receiver). Feeding may go on afterwards.
    public mutating func finish(_ emit: (Fix) -> Void) {
        lexer.finish()
        skyMayHaveChanged = true
        assembler.flush { fix in
            lastUsed = fix.satellitesUsed
            emit(fix)
        }
        assembler.forgetCycle()
        assembler.inView.reset()
        assembler.usedSatellites.reset()
    }

    /// Whether sentences of an epoch not yet emitted have been read: `flush` would emit it. A
    /// live reader waits for the receiver's silence only then.
    public var hasEpochInProgress: Bool { assembler.epoch.sentences > 0 }

    /// What the receiver last said about its sky: satellites used (the last
    /// epoch's), in view (GSV), its DOPs (GSA; HDOP also GGA/GNS), and each
    /// satellite (GSV, used when a GSA lists it), as they stand after the
    /// sentences read so far.
    public var sky: SkyView {
        SkyView(
            satellitesUsed: lastUsed, satellitesVisible: assembler.inView.total, hdop: assembler.hdop, pdop: assembler.pdop,
            vdop: assembler.vdop, satellites: assembler.inView.satellites(used: assembler.usedSatellites))
    }

    /// `sky`, named `device` as the fixes are, when it is not empty and differs from the one this
    /// last returned; nil otherwise, and at once when nothing was read since (no view built). For a
    /// reader that hands the sky on only when it changed: it asks after each read, in place,
    /// without copying the parser.
    public mutating func takeChangedSky() -> SkyView? {
        guard skyMayHaveChanged else { return nil }
        skyMayHaveChanged = false
        var view = sky
        view.device = assembler.device
        guard view != takenSky, !view.isEmpty else { return nil }
        takenSky = view
        return view
    }

    /// What has been read so far.
    public var statistics: NMEAStatistics {
        var s = NMEAStatistics()
        s.sentences = lexer.framed
        s.badChecksums = lexer.badChecksums
        s.malformed = lexer.overLong + assembler.malformed
        s.ignored = ignored
        s.used = assembler.used
        s.unreadableTimes = assembler.unreadableTimes
        s.fragments = lexer.broken
        s.epochs = assembler.epochs
        s.usableFixes = assembler.usableFixes
        s.undatedEpochs = assembler.undatedEpochs
        s.lateSentences = assembler.lateSentences + duplicates
        return s
    }

    /// Remembers `text` as the previous sentence; true if it was that already.
    private static func repeats(
        _ text: UnsafeBufferPointer<UInt8>, _ previous: inout [UInt8], _ previousLength: inout Int
    ) -> Bool {
        guard let source = text.baseAddress else { return false }
        let count = text.count
        var same = false
        previous.withUnsafeMutableBufferPointer { previous in
            guard let target = previous.baseAddress else { return }
            if count == previousLength, memcmp(target, source, count) == 0 {
                same = true
            } else {
                target.update(from: source, count: count)
            }
        }
        previousLength = count
        return same
    }

    private mutating func decodeSentence(_ emit: (Fix) -> Void) {
        skyMayHaveChanged = true
        let length = lexer.textLength
        lexer.line.withUnsafeBufferPointer { line in
            let text = UnsafeBufferPointer(rebasing: line[0..<length])
            bounds.withUnsafeMutableBufferPointer { bounds in
                let fields = NMEAFields(text: text, bounds: bounds)
                guard let phrase = NMEAPhrase.named(fields[0]) else {
                    assembler.passOver()
                    ignored += 1
                    return
                }
                if phrase.inEpoch, Self.repeats(text, &previous, &previousLength) {
                    // The same sentence twice in a row is a receiver glitch, not news.
                    duplicates += 1
                    return
                }
                assembler.handle(phrase, fields) { fix in
                    lastUsed = fix.satellitesUsed
                    emit(fix)
                }
            }
        }
    }
}
