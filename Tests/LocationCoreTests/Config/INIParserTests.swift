import Testing
@testable import LocationConfig
@testable import LocationCore

@Suite struct INIParserTests {
    private func parse(_ text: String) -> INIParser.Document {
        INIParser.parse(text, file: "test.conf")
    }

    @Test func readsSectionsKeysAndInlineComments() throws {
        let doc = parse("""
            # a comment
            ; another comment
            [daemon]
            socket_group = locationd        # members may change state
              fsync=interval
            [client.logger]   # the field-test log
            usage = Logs coordinates for field tests
            restricted =                    # nobody
            """)
        #expect(doc.errors.isEmpty)
        #expect(doc.sections.map(\.name) == ["daemon", "client.logger"])
        #expect(doc.sections[0].entries == [
            .init(key: "socket_group", value: "locationd", line: 4),
            .init(key: "fsync", value: "interval", line: 5),
        ])
        #expect(doc.sections[1].line == 6)
        #expect(doc.sections[1].entries.map(\.value) == ["Logs coordinates for field tests", ""])
    }

    @Test func hashWithoutWhitespaceBeforeItIsPartOfTheValue() {
        let doc = parse("[s]\nusage = Track#1 for C# people\t# a comment\nother = #only a comment\n")
        #expect(doc.errors.isEmpty)
        #expect(doc.sections[0].entries.map(\.value) == ["Track#1 for C# people", ""])
    }

    @Test func quotedValuesKeepHashesSpacesAndEscapes() {
        let doc = parse(#"""
            [s]
            a = "  Survey # 2 \"north\" \\ done  "   # comment
            b = ""
            c = "#"
            """#)
        #expect(doc.errors.isEmpty)
        #expect(doc.sections[0].entries.map(\.value) == [#"  Survey # 2 "north" \ done  "#, "", "#"])
    }

    @Test func acceptsCRLFAndAByteOrderMark() {
        let doc = parse("\u{FEFF}[daemon]\r\nfsync = always\r\n\r\n[source]\r\ntype = gpsd")
        #expect(doc.errors.isEmpty)
        #expect(doc.sections.map(\.name) == ["daemon", "source"])
        #expect(doc.sections[0].entries == [.init(key: "fsync", value: "always", line: 2)])
        #expect(doc.sections[1].entries == [.init(key: "type", value: "gpsd", line: 5)])
    }

    @Test(arguments: [
        ("[daemon\nx = 1", "is not a section header"),
        ("[]\n", "is not a section header"),
        ("[daemon] trailing\n", "is not a section header"),
        ("[s]\njust some words\n", "is not key = value"),
        ("[s]\n= value\n", "a line starting with = is not a valid key"),
        ("[s]\nbad key = 1\n", "key \"bad key\" is not a valid key"),
        ("[s]\na = \"open\n", "has no closing \""),
        ("[s]\na = \"x\" y\n", "text after the closing quote"),
        ("[s]\na = \"\\n\"\n", "unknown escape"),
    ])
    func reportsMalformedLinesWithTheirLineNumber(text: String, message: String) throws {
        let doc = parse(text)
        let error = try #require(doc.errors.first)
        #expect(doc.errors.count == 1)
        #expect(error.kind == .syntax)
        #expect(error.description.hasPrefix("test.conf:\(text.hasPrefix("[s]") ? 2 : 1): "))
        #expect(error.description.contains(message), "\(error)")
    }

    @Test func reportsRepeatedSectionsAndKeysWithTheFirstLine() {
        let doc = parse("""
            [daemon]
            fsync = always
            fsync = interval
            [daemon]
            services = on
            """)
        #expect(doc.errors.map(\.kind) == [.duplicateKey, .duplicateSection])
        #expect(doc.errors[0].description == "test.conf:3: [daemon] fsync is set twice (first on line 2): keep only one")
        #expect(doc.errors[1].description == "test.conf:4: [daemon] appears twice (first on line 1): merge them into one section")
        // The first value stands; the repeated section's entries are not taken.
        #expect(doc.sections.count == 1)
        #expect(doc.sections[0].entries.map(\.value) == ["always"])
    }

    @Test func keyBeforeAnySectionIsAnErrorThatSuggestsItsSection() {
        let doc = INIParser.parse("socket = /run/x.sock\n[daemon]\n", file: "f", homeSection: { $0 == "socket" ? "daemon" : nil })
        #expect(doc.errors.map(\.description) == ["f:1: socket comes before any [section] header: move it under [daemon]"])
    }

    @Test(arguments: [
        "plain", "", " leading", "trailing ", "a # b", "a\t# b", "#start", ";start", "\"quoted\"", "back\\slash",
        "Track#1", "tab\tinside",
    ])
    func quotedValuesParseBackToThemselves(value: String) throws {
        let quoted = INIParser.quote(value)
        let doc = parse("[s]\nk = \(quoted)   # trailing comment\n")
        #expect(doc.errors.isEmpty)
        #expect(doc.sections.first?.entries.first?.value == value)
    }
}
