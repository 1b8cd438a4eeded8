#if canImport(Glibc)
import Glibc
#endif
import LocationConfig
import LocationCore
import LocationValues
import LocationSystem

/// `locationd check-config`: reads the configuration, prints the effective
/// configuration (every key, defaults included) on stdout, or every problem
/// on stderr with file, line, key and the accepted values.
public enum CheckConfig {
    /// Checks the file at `path`; `.ok` when it is valid, `.configuration` when not.
    public static func run(
        path: String, environment: [String: String] = ConfigLoader.processEnvironment(),
        output: (String) -> Void = { StandardStreams.write($0, to: 1) },
        errors: (String) -> Void = { StandardStreams.write($0, to: 2) }
    ) -> ExitCode {
        do throws(ConfigErrors) {
            let config = try ConfigLoader.load(path: path, environment: environment)
            // What only this machine can say (a face's sockets' groups exist), reported as the file's problems are.
            let hostProblems = FaceList.hostProblems(config)
            guard hostProblems.isEmpty else { throw ConfigErrors(hostProblems) }
            output(config.rendered)
            if let dropIns = try? ConfigLoader.dropIns(of: path), !dropIns.isEmpty {
                errors("locationd: read after \(path), in this order: \(dropIns.joined(separator: ", "))\n")
            }
            if config.clients.isEmpty {
                // Valid, but a daemon that gives no one a location is rarely what was meant.
                errors(
                    "locationd: warning: \(path) configures no client: the daemon would run and give no program a location; "
                        + "add a [client.NAME] section (locationd.conf(5))\n")
            }
            if let problem = stateDirectoryProblem(config) { errors("locationd: warning: \(problem)\n") }
            let logged = config.clients.filter { $0.log != nil }.count
            errors(
                "locationd: \(path) is valid: \(config.clients.count) client\(config.clients.count == 1 ? "" : "s")"
                    + " (\(logged) with a log), source\(config.sources.count == 1 ? "" : "s") \(NamedSource.names(config.sources))\n")
            return .ok
        } catch {
            var text = ""
            for problem in error.errors { text += problem.description + "\n" }
            let count = error.errors.count
            text += "locationd: \(path) has \(count) problem\(count == 1 ? "" : "s"); the daemon would not start with it\n"
            errors(text)
            return .configuration
        }
    }

    /// Why the daemon could not save its state in `state_dir`, found by the probe `run` makes at
    /// start (`StateStore.probe`), as the user running check-config; `nil` when it can, or when the
    /// directory does not exist yet (the probe would make it, and check-config changes nothing).
    static func stateDirectoryProblem(_ config: DaemonConfig) -> String? {
        var info = stat()
        guard stat(config.stateDirectory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        do throws(SystemError) {
            try StateStore(directory: config.stateDirectory).probe()
            return nil
        } catch {
            return "state_dir \(config.stateDirectory) cannot be written by uid \(getuid()) (\(error)): the daemon would run, "
                + "but every authorization it is given would be undone by a restart; make state_dir writable by the user locationd runs as"
        }
    }
}
