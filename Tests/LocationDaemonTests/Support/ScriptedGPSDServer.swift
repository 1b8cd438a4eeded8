import Synchronization

@testable import LocationDaemon
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A TCP server on 127.0.0.1 that plays gpsd badly on purpose: it speaks
/// from a script, so tests can give the source what a real gpsd rarely
/// does (silence, garbage, over-long lines, unanswered probes).
final class ScriptedGPSDServer: Sendable {
    /// How to treat one connection.
    struct Script: Sendable {
        /// Sent as soon as the client connects.
        var greeting: [String] = [#"{"class":"VERSION","release":"scripted","rev":"0","proto_major":3,"proto_minor":14}"#]
        /// Sent in answer to the first `?WATCH`.
        var watchReply: [String] = [
            #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/scripted","activated":"2026-03-14T12:00:00.000Z"}]}"#,
            #"{"class":"WATCH","enable":true,"json":true}"#,
        ]
        /// Sent right after the watch reply.
        var reports: [String] = []
        /// Raw bytes sent after the reports (no newline added).
        var raw: [UInt8] = []
        /// Answer later `?WATCH` probes with `watchReply` again.
        var answersProbes = true
        /// Close the connection after sending everything.
        var closeAfterReports = false
    }

    /// The port it listens on.
    let port: Int
    private let listener: Int32
    private let script: Script
    private let accepted = Atomic<Int>(0)

    /// Listens on a free port and serves every connection with `script`.
    init(script: Script) throws(GPSFakeError) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw GPSFakeError(description: "socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0, listen(fd, 8) == 0 else {
            close(fd)
            throw GPSFakeError(description: "cannot listen on 127.0.0.1")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        self.script = script
        // A thread of its own: a Dispatch worker might not start while the
        // pool is busy with other tests, and this one blocks in accept(2).
        do {
            try DaemonThread.start(name: "scripted-gpsd") { [self] in serve() }
        } catch {
            // deinit closes the socket.
            throw GPSFakeError(description: "cannot start the server thread: \(error)")
        }
    }

    deinit {
        close(listener)
    }

    /// Connections accepted so far.
    var connections: Int { accepted.load(ordering: .acquiring) }

    /// Stops accepting (the serving thread ends).
    func shutDown() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func serve() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            accepted.add(1, ordering: .releasing)
            handle(client)
            close(client)
        }
    }

    private func handle(_ client: Int32) {
        guard send(client, script.greeting) else { return }
        var watches = 0
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var entry = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            // Wake now and then to notice a shut-down listener.
            let ready = poll(&entry, 1, 200)
            if ready == 0 {
                var probe = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
                if poll(&probe, 1, 0) > 0 && probe.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return }
                continue
            }
            let n = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return }
            pending += buffer[..<n]
            while let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                guard line.hasPrefix("?WATCH") else { continue }
                watches += 1
                if watches == 1 {
                    guard send(client, script.watchReply + script.reports) else { return }
                    if !script.raw.isEmpty && !sendAll(client, script.raw) { return }
                    if script.closeAfterReports { return }
                } else if script.answersProbes {
                    guard send(client, script.watchReply) else { return }
                }
            }
        }
    }

    private func send(_ client: Int32, _ lines: [String]) -> Bool {
        sendAll(client, Array(lines.map { $0 + "\r\n" }.joined().utf8))
    }

    private func sendAll(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(client, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
}
