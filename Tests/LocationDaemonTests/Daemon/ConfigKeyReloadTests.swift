import Testing
import TestSupport
@testable import LocationConfig
@testable import LocationCore
@testable import LocationDaemon

/// What the key table says a reload does (`ConfigKey.reload`) is what `ConfigReload` does, key by
/// key; and check-config's output, every key included, reads back to the settings it was given.
@Suite(.timeLimit(.minutes(10))) struct ConfigKeyReloadTests {
    static let file = "/etc/locationd/locationd.conf"

    @Test(arguments: ConfigKey.all)
    func aReloadDoesWhatTheTableSays(_ key: ConfigKey) throws {
        let running = try DaemonConfig.parse(EveryKeyConfig.text, file: Self.file)
        let reloaded = try DaemonConfig.parse(EveryKeyConfig.changing(key), file: Self.file)
        #expect(reloaded != running, "changing \(key) changed nothing")
        let reload = ConfigReload(running: running, reloaded: reloaded)
        switch key.reload {
        case .applies:
            #expect(reload.needRestart.isEmpty, "\(key) takes effect on reload, but the reload says \(reload.needRestart)")
            #expect(reload.effective == reloaded)
        case .restart:
            #expect(!reload.needRestart.isEmpty, "\(key) waits for a restart, but the reload does not say so")
        }
    }

    @Test func checkConfigsOutputReadsBackToTheSameSettings() throws {
        let scratch = try ScratchDirectory("check-config")
        let path = try scratch.write("locationd.conf", EveryKeyConfig.text)
        var output = ""
        var errors = ""
        let code = CheckConfig.run(path: path, environment: [:], output: { output += $0 }, errors: { errors += $0 })
        #expect(code == .ok, "\(errors)")
        let given = try DaemonConfig.parse(EveryKeyConfig.text, file: path)
        #expect(try DaemonConfig.parse(output, file: path) == given)
        #expect(output.contains("\n[geoclue]\nbus = unix:path=/run/every/bus\n"))
        #expect(output.contains("\ngeoclue_id = org.gnome.Maps\n"))
    }
}
