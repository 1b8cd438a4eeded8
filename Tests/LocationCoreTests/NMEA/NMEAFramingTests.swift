import Testing
import LocationCore

/// Sentence framing, checksums and every kind of garbage, handled as gpsd's
/// packet lexer handles them.
@Suite struct NMEAFramingTests {
    let first = NMEATest.epoch("093000.00")
    let second = NMEATest.epoch("093001.00", lat: "3540.87135", lon: "13946.02431")
    let third = NMEATest.epoch("093002.00", lat: "3540.87075", lon: "13946.02461")

    /// The lines of `text`, each with its LF. (Bytes, not Characters: for
    /// Swift "\r\n" is one Character.)
    private func lines(_ text: String) -> [String] {
        Array(text.utf8).split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) + "\n" }
    }

    @Test func acceptsGoodSentencesAndCountsThem() {
        let result = NMEATest.parse(first + second + third)
        #expect(result.fixes.count == 3)
        #expect(result.statistics.sentences == 9)
        #expect(result.statistics.badChecksums == 0)
        #expect(result.statistics.malformed == 0)
        #expect(result.statistics.epochs == 3)
        #expect(result.statistics.usableFixes == 3)
    }

    @Test func badChecksumDropsTheSentenceOnly() {
        var damaged = lines(third)
        damaged[0] = damaged[0].replacingLast2HexDigits(with: "00")
        let fourth = NMEATest.epoch("093003.00")
        let result = NMEATest.parse(first + second + damaged.joined() + fourth)
        #expect(result.statistics.badChecksums == 1)
        #expect(result.fixes.count == 4)
        // The epoch still has RMC's position, and its GSA's 3D: having seen
        // whole epochs, the parser knows that GSA starts a new one.
        let fix = result.fixes[2]
        #expect(fix.mode == .threeD)
        #expect(abs(fix.latitude - (35 + 40.87075 / 60)) < 1e-9)
        #expect(fix.altitude == nil)  // only GGA carries altitude
        #expect(result.fixes[1].altitude == 34.5)
    }

    @Test func sentencesWithoutChecksumAreAccepted() {
        let stripped = lines(second).map { line in
            String(decoding: Array(line.utf8).prefix(while: { $0 != UInt8(ascii: "*") }), as: UTF8.self) + "\r\n"
        }.joined()
        let plain = NMEATest.parse(first + second + third)
        let result = NMEATest.parse(first + stripped + third)
        #expect(NMEATest.same(result.fixes, plain.fixes))
        #expect(result.statistics.badChecksums == 0)
    }

    @Test func lowercaseChecksumIsNotCheckedAsInGpsd() {
        // gpsd only recognises uppercase hex digits after '*'; anything else
        // reads as "no checksum", even a wrong one.
        var damaged = lines(second)
        damaged[0] = damaged[0].replacingLast2HexDigits(with: "ff")
        let result = NMEATest.parse(first + damaged.joined() + third)
        #expect(result.statistics.badChecksums == 0)
        #expect(result.fixes[1].altitude == 34.5)
    }

    @Test func truncatedChecksumIsBad() {
        let body = "GPGGA,093001.00,3540.87135,N,13946.02431,E,1,09,0.87,34.5,M,18.4,M,,"
        let oneDigit = String(NMEATest.sentence(body).dropLast(3)) + "\r\n"
        let result = NMEATest.parse(first + oneDigit + third)
        #expect(result.statistics.badChecksums == 1)
    }

    @Test func trailingBlanksAfterTheChecksumAreAllowed() {
        let padded = lines(second).map { String(decoding: Array($0.utf8).dropLast(2), as: UTF8.self) + "  \r\n" }
            .joined()
        let result = NMEATest.parse(first + padded + third)
        #expect(result.statistics.badChecksums == 0)
        #expect(result.fixes.count == 3)
        #expect(result.fixes[1].altitude == 34.5)
    }

    @Test func lineEndingsLFAndCRCRLFWorkButCROnlyDoesNot() {
        let lf = second.replacingOccurrences("\r\n", "\n")
        #expect(NMEATest.parse(first + lf + third).fixes.count == 3)
        let crcrlf = second.replacingOccurrences("\r\n", "\r\r\n")
        #expect(NMEATest.parse(first + crcrlf + third).statistics.malformed == 0)
        // A CR followed by anything but LF abandons the sentence (gpsd drops it).
        let crOnly = second.replacingOccurrences("\r\n", "\r")
        let result = NMEATest.parse(first + crOnly + "\r\n" + third)
        #expect(result.statistics.fragments == 2)  // GGA and GSA; the RMC ends with CR LF
        #expect(result.fixes[1].altitude == nil)
    }

    @Test func nulAndOtherUnprintableBytesAbandonTheSentence() {
        for bad in ["\u{0}", "\t", "\u{7F}", "\u{E9}"] {
            var damaged = lines(second)
            let bytes = Array(damaged[0].utf8)
            damaged[0] = String(decoding: bytes.prefix(20), as: UTF8.self) + bad
                + String(decoding: bytes.dropFirst(20), as: UTF8.self)
            let result = NMEATest.parse(first + damaged.joined() + third)
            #expect(result.statistics.fragments == 1, "byte \(bad.unicodeScalars.first?.value ?? 0)")
            #expect(result.fixes.count == 3)
            #expect(result.fixes[1].altitude == nil)  // the GGA was lost
        }
    }

    @Test func overLongSentencesAreRejected() {
        // gpsd's limit: 102 bytes from '$' through LF.
        let limit = NMEATest.sentence("GPTXT,01,01,02," + String(repeating: "x", count: 82), ending: "\n")
        #expect(limit.utf8.count == 102)
        let accepted = NMEATest.parse(first + limit + second)
        #expect(accepted.statistics.ignored == 1)
        #expect(accepted.statistics.malformed == 0)
        let over = NMEATest.sentence("GPTXT,01,01,02," + String(repeating: "x", count: 83), ending: "\n")
        let rejected = NMEATest.parse(first + over + second)
        #expect(rejected.statistics.malformed == 1)
        #expect(rejected.statistics.ignored == 0)
        let huge = "$GPGGA," + String(repeating: "9", count: 5000) + "\r\n"
        let flood = NMEATest.parse(first + huge + second)
        #expect(flood.statistics.malformed == 1)
        #expect(flood.fixes.count == 2)
    }

    @Test func aSentenceSplitByAnotherIsReassembled() {
        // gpsd sets the interrupted part aside and resumes it after the
        // interrupting sentence; the checksum then covers the whole.
        var parts = lines(second)
        let rmc = Array(parts[2].utf8)
        parts[2] = String(decoding: rmc.prefix(25), as: UTF8.self)
            + NMEATest.sentence("GPGST,093001.00,3.5,1.98,1.32,157.6,1.65,1.49,2.64")
            + String(decoding: rmc.dropFirst(25), as: UTF8.self)
        let result = NMEATest.parse(first + parts.joined() + third)
        #expect(result.statistics.malformed == 0)
        #expect(result.statistics.badChecksums == 0)
        #expect(result.fixes[1].speed != nil)  // speed comes from the RMC only
    }

    @Test func mergedSentencesLoseTheFirst() {
        // No line end between GSA and RMC: the GSA is set aside as interrupted
        // and never completed.
        let merged = second.replacingFirst("*03\r\n$GPRMC", with: "*03$GPRMC")
        #expect(merged != second)
        let result = NMEATest.parse(first + merged + third)
        #expect(result.statistics.fragments == 1)
        #expect(result.fixes.count == 3)
        #expect(result.fixes[1].speed != nil)
    }

    @Test func commentLinesAreSkippedEvenWithDollarSigns() {
        let comment = "# Name: test $GPGGA,093001.00,0000.000,N,00000.000,E,1,09,0.87,34.5,M,18.4,M,,*00\n"
        let result = NMEATest.parse(comment + first + "#\n" + second + "# trailing\r\n" + third)
        #expect(result.fixes.count == 3)
        #expect(result.statistics.sentences == 9)
        #expect(result.statistics.badChecksums == 0)
    }

    @Test func unknownLeadersAreNotSentences() {
        // gpsd's lexer knows GP GN GL GA GB BD QZ (and marine and vendor
        // leaders); "$GI" (NavIC) and "$XX" are line noise to it.
        let result = NMEATest.parse(
            first + "$XXGGA,bogus*00\r\n" + NMEATest.epoch("093001.00", talker: "GI") + third)
        #expect(result.statistics.sentences == 6)
        #expect(result.statistics.fragments == 4)
        #expect(result.fixes.count == 2)
    }

    @Test func lineNoiseBetweenSentencesIsSkipped() {
        let result = NMEATest.parse("xq;: \u{7F}garbage,without,dollar\r\n" + first + "$$$$\r\n" + second + "\u{0}\u{0}" + third)
        #expect(result.fixes.count == 3)
        #expect(result.statistics.badChecksums == 0)
    }

    @Test func anIncompleteLastLineIsDropped() {
        let result = NMEATest.parse(first + second + String(decoding: Array(third.utf8).dropLast(2), as: UTF8.self))
        #expect(result.statistics.fragments == 1)
        #expect(result.fixes.count == 3)
        #expect(result.fixes[2].speed == nil)  // the unterminated RMC never arrived
    }

    @Test func proprietaryAndUnusedSentencesAreIgnored() {
        let extras = NMEATest.sentence("PGRME,15.0,M,45.0,M,25.0,M")
            + NMEATest.sentence("GPGSV,1,1,02,15,00,000,,17,00,000,")
            + NMEATest.sentence("GPTXT,01,01,02,ANTSTATUS=OK")
            + NMEATest.sentence("SDDPT,5.3,0.4,")
        let result = NMEATest.parse(first + extras + second + third)
        let plain = NMEATest.parse(first + second + third)
        // The GSV is read for the sky (`used`); the three others have no row in the phrase table.
        #expect(result.statistics.ignored == 3)
        #expect(result.statistics.used == plain.statistics.used + 1)
        #expect(result.fixes.count == 3)
        #expect(NMEATest.same(result.fixes, plain.fixes))
    }

    @Test func chunkingDoesNotMatter() {
        let text = first + second.replacingOccurrences("\r\n", "\n") + "# c\n\u{0}$GPG" + third
        let whole = NMEATest.parse(text)
        for chunk in [1, 2, 3, 7, 64] {
            let pieces = NMEATest.parse(text, chunk: chunk)
            #expect(NMEATest.same(pieces.fixes, whole.fixes), "chunk \(chunk)")
            #expect(pieces.statistics == whole.statistics, "chunk \(chunk)")
        }
    }
}

/// Byte-wise editing (Swift compares Characters, and "\r\n" is one).
extension String {
    func replacingLast2HexDigits(with digits: String) -> String {
        let bytes = Array(utf8)
        guard let star = bytes.lastIndex(of: UInt8(ascii: "*")), star + 3 <= bytes.count else { return self }
        return String(decoding: bytes[...star] + Array(digits.utf8) + bytes[(star + 3)...], as: UTF8.self)
    }

    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        let bytes = Array(utf8), needle = Array(target.utf8), with = Array(replacement.utf8)
        var out: [UInt8] = []
        var k = 0
        while k < bytes.count {
            if k + needle.count <= bytes.count, Array(bytes[k..<(k + needle.count)]) == needle {
                out += with
                k += needle.count
            } else {
                out.append(bytes[k])
                k += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    func replacingFirst(_ target: String, with replacement: String) -> String {
        let bytes = Array(utf8), needle = Array(target.utf8)
        guard needle.count <= bytes.count else { return self }
        for k in 0...(bytes.count - needle.count) where Array(bytes[k..<(k + needle.count)]) == needle {
            return String(decoding: bytes[..<k] + Array(replacement.utf8) + bytes[(k + needle.count)...], as: UTF8.self)
        }
        return self
    }
}
