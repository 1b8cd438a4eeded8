import Testing
@testable import LocationConfig
@testable import LocationCore

/// `[client.NAME] app_users`, `app_groups`, `app_units` and `[daemon] socket_mode`.
extension DaemonConfigTests {
    @Test func readsTheAppKeysAndTheControlSocketsMode() throws {
        let config = try parse("""
            [daemon]
            socket_mode = 0660
            [client.survey]
            app_users = survey, 1001
            app_groups = field
            app_units = survey.service run-u7.scope
            [client.plain]
            """)
        #expect(config.socketMode == 0o660)
        let survey = try #require(config.client(named: "survey"))
        #expect(survey.app == AppSettings(users: ["survey", "1001"], groups: ["field"], units: ["survey.service", "run-u7.scope"]))
        #expect(config.client(named: "plain")?.app.isEmpty == true)
        #expect(try parse(config.rendered) == config)
        #expect(try parse("").socketMode == 0o666)
    }

    @Test func badAppValuesNameTheAcceptedOnes() {
        let found = errors("""
            [daemon]
            socket_mode = 0400
            [client.a]
            app_units = survey
            app_users = al!ce
            """)
        #expect(found.map(\.line) == [2, 4, 5])
        #expect(found[0].description.contains("octal file mode"))
        #expect(found[1].description.contains("ending in .service or .scope"))
        #expect(found[2].description.contains("user names or numbers"))
    }
}
