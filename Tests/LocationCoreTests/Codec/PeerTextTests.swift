import Testing
@testable import LocationConfig
@testable import LocationCore
@testable import LocationValues

/// `PeerText`: what a peer chose, shown as one printable line (#47).
@Suite struct PeerTextTests {
    @Test(arguments: [
        ("org.gnome.Maps", "org.gnome.Maps"),
        ("Café Karte", "Café Karte"),
        ("a\nb", #"a\nb"#),
        ("tab\there\r", #"tab\there\r"#),
        ("\u{1B}[2J\u{1B}[H", #"\x1b[2J\x1b[H"#),
        ("del\u{7F}", #"del\x7f"#),
        ("c1 \u{9B}31m", #"c1 \xc2\x9b31m"#),
        ("bidi \u{202E}txt", #"bidi \xe2\x80\xaetxt"#),
        ("line\u{2028}sep", #"line\xe2\x80\xa8sep"#),
        (#"back\slash"#, #"back\\slash"#),
        ("nul\u{0}", #"nul\x00"#),
    ])
    func escapesWhatCouldDriveATerminalOrPassForAnotherLine(text: String, shown: String) {
        #expect(PeerText.escaped(text) == shown)
        #expect(!PeerText.escaped(text).unicodeScalars.contains { PeerText.isHidden($0) })
    }

    @Test func bytesThatAreNotUTF8AreShownByteByByte() {
        #expect(PeerText.escaped(bytes: [0x61, 0xFF, 0x62, 0xC3]) == #"a\xffb\xc3"#)
        #expect(PeerText.escaped(bytes: Array("é\n".utf8)) == #"é\n"#)
        // Overlong forms and surrogates are no UTF-8.
        #expect(PeerText.escaped(bytes: [0xC0, 0xAF]) == #"\xc0\xaf"#)
        #expect(PeerText.escaped(bytes: [0xED, 0xA0, 0x80]) == #"\xed\xa0\x80"#)
    }

    @Test func aLimitCutsLongTextAndSaysHowLong() {
        let long = String(repeating: "a", count: 1000)
        #expect(PeerText.escaped(long, limit: 10) == "aaaaaaaaaa… (1000 bytes)")
        #expect(PeerText.escaped("short", limit: 10) == "short")
    }

    @Test func printableKeepsLineBreaksAndTabsAndEscapesTheRest() {
        #expect(PeerText.printable("one\ntwo\tthree\n") == "one\ntwo\tthree\n")
        #expect(PeerText.printable("x\u{1B}[2Jy\n") == "x\\x1b[2Jy\n")
    }
}

/// The one rule for desktop ids: the configuration's `geoclue_id`, a bus client's `DesktopId`,
/// the saved apps list (#47).
@Suite struct DesktopIdTests {
    @Test(arguments: ["org.gnome.Maps", "where-am-i", "firefox_esr", "Café", String(repeating: "a", count: 255)])
    func desktopIdsAreTaken(id: String) {
        #expect(DesktopId.isValid(id))
    }

    @Test(arguments: [
        "", String(repeating: "a", count: 256), "a/b", "two words", "esc\u{1B}[2J", "new\nline", "del\u{7F}", "c1\u{85}",
        "bidi\u{202E}", "nbsp\u{A0}x",
    ])
    func anythingElseIsRefused(id: String) {
        #expect(!DesktopId.isValid(id))
    }

    @Test func theLengthIsCheckedBeforeTheText() {
        #expect(DesktopId.fits(length: 255) && !DesktopId.fits(length: 256) && !DesktopId.fits(length: 0))
        #expect(DesktopId.rule.contains("255 bytes"))
    }

    @Test func theConfigurationRefusesWhatTheBusRefuses() {
        // DEL was taken before the one rule.
        do {
            _ = try DaemonConfig.parse("[client.maps]\nusage = x\ngeoclue_id = del\u{7F}x\n", file: "t.conf")
            Issue.record("a desktop id holding DEL was taken")
        } catch {
            #expect(error.description.contains("geoclue_id") && error.description.contains("255 bytes"), "\(error)")
        }
    }
}
