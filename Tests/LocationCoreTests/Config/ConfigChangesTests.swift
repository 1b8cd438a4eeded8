import Testing
@testable import LocationConfig
@testable import LocationCore

/// SIGHUP's notice: every changed key, added and removed client.
@Suite struct ConfigChangesTests {
    static func config(_ text: String) throws -> DaemonConfig {
        try DaemonConfig.parse(text, file: "/etc/locationd/locationd.conf", environment: [:])
    }

    static let before = """
        [daemon]
        fsync = always
        [client.logger]
        log = logger.jsonl
        distance_filter = 5
        usage = Logs coordinates
        [client.old]
        log = old.jsonl
        """

    @Test func changedKeysAddedAndRemovedClientsAreNamed() throws {
        let after = """
            [daemon]
            fsync = interval
            [client.logger]
            log = logger.jsonl
            distance_filter = 10
            usage = Logs coordinates for field tests
            purpose.survey = A survey
            [client.survey]
            log = survey.jsonl
            """
        let changes = ConfigChanges.between(try Self.config(Self.before), try Self.config(after))
        #expect(changes == [
            "[daemon] fsync: always → interval",
            "[client.logger] distance_filter: 5 → 10",
            "[client.logger] usage: \"Logs coordinates\" → \"Logs coordinates for field tests\"",
            "[client.logger] purpose.survey added: \"A survey\"",
            "[client.survey] added",
            "[client.old] removed",
        ])
    }

    @Test func theSameSettingsWrittenDifferentlyAreNoChange() throws {
        let same = Self.before.replacingOccurrences("distance_filter = 5", "distance_filter = 5.0")
        #expect(ConfigChanges.between(try Self.config(Self.before), try Self.config(same)).isEmpty)
        #expect(ConfigChanges.between(try Self.config(Self.before), try Self.config(Self.before)).isEmpty)
    }
}

