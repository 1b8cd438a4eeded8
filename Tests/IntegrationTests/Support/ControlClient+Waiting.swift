import LocationClient
import LocationDaemon
import TestSupport

/// The daemon did not answer within a test's (generous) bound.
struct NoAnswer: Error, CustomStringConvertible {
    var what: String
    var description: String { "the daemon did not answer (\(what))" }
}

extension ControlClient {
    /// Sends all of `bytes`, a piece at a time as the socket takes them,
    /// sleeping between pieces rather than blocking a thread.
    func sendAll(_ bytes: [UInt8], timeout: Double = 60) async throws {
        var offset = 0
        let sent = try await waitUntil(timeout: timeout, every: 0.005) {
            offset += try sendSome(bytes[offset...])
            return offset == bytes.count
        }
        guard sent else { throw NoAnswer(what: "it stopped reading after \(offset) of \(bytes.count) bytes") }
    }

    /// The next line, polled without blocking a thread; `nil` once the daemon
    /// closed the connection.
    func nextLine(timeout: Double = 60) async throws -> [UInt8]? {
        let polled = try await eventualValue(timeout: timeout) { () throws -> Poll? in
            let poll = try pollLine()
            return poll == .nothing ? nil : poll
        }
        switch polled {
        case .line(let line)?: return line
        case .end?: return nil
        case .nothing?, nil: throw NoAnswer(what: "no line within \(timeout) s")
        }
    }
}
