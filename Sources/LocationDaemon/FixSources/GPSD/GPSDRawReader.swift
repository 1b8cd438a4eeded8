import CGPS
import LocationCore
import LocationSystem

#if canImport(Glibc)
import Glibc
import LocationCodecs
import LocationConfig
import LocationProtocol
import LocationValues
#endif

/// The body of a gpsd source's raw thread (`gpsd-raw`, `GPSDRawLinks`): keeps one connection open
/// per receiver wanted, each watching it in gpsd's raw mode 2 (`GPSDRawStream.request`), reads
/// them all in one poll(2) with the wakeup, drops gpsd's own lines of each handshake
/// (`GPSDRawStream`) and hands the rest to the sink as `.raw`, named by the receiver's path and
/// timed when it was read. Before it waits, after handing something over, it calls the sink's
/// pause (`SourceSink.idle`) as any reader does, so the bytes are written with the logs' batching.
///
/// A connection that gpsd closes, refuses (`ERROR`) or that fails is opened again after a delay
/// (0.5 s, doubling up to 5 s; from 0.5 s again after one that streamed 5 s) while its receiver
/// is still wanted. Ends, its connections closed, when none is wanted or the source stops.
/// Everything here runs on that one thread.
final class GPSDRawReader {
    private struct Link {
        let fd: Int32
        var stream: GPSDRawStream
        let opened: Double
    }

    /// A receiver's failures: the last delay, and the last reason while it has not streamed since
    /// (said once per run of the same failure).
    private struct Failures {
        var delay: Double
        var reason: String?
    }

    /// Retry delays, seconds.
    static let firstRetry = 0.5
    static let retryCap = 5.0
    /// A connection that streamed this long (seconds) starts its delays over.
    static let stableAfter = 5.0
    /// How long a connect may take, milliseconds (gpsd answers the reader's at once).
    static let connectTimeout: Int32 = 5000

    private let links: GPSDRawLinks
    private let control: GPSDReaderControl
    private let wakeup: Wakeup
    private let endpoint: String
    private var open: [String: Link] = [:]
    /// When to try each receiver whose connection failed again (monotonic seconds).
    private var retries: [String: Double] = [:]
    private var failures: [String: Failures] = [:]
    /// Whether bytes went to the sink since its last pause, and when that pause asked to be called
    /// again (nil: not).
    private var handedOver = false
    private var pauseDue: Double?
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 16)

    init(links: GPSDRawLinks, control: GPSDReaderControl, wakeup: Wakeup) {
        self.links = links
        self.control = control
        self.wakeup = wakeup
        endpoint = GPSDSession.endpoint(host: links.host, port: links.port)
    }

    deinit {
        for link in open.values { Glibc.close(link.fd) }
        buffer.deallocate()
    }

    /// Runs until no receiver is wanted or the source stops.
    func run() {
        while true {
            // Reset before looking: a change made after it wakes the next poll.
            wakeup.reset()
            guard let wanted = links.wanted(), !wanted.isEmpty else {
                for device in open.keys.sorted() { close(device, "no longer wanted") }
                if links.mayEnd() { break }
                continue
            }
            for device in open.keys.sorted() where !wanted.contains(device) {
                close(device, "no longer wanted")
            }
            retries = retries.filter { wanted.contains($0.key) }
            failures = failures.filter { wanted.contains($0.key) }
            let now = SystemClock.monotonic()
            for device in wanted.sorted() where open[device] == nil && (retries[device] ?? now) <= now {
                retries[device] = nil
                connect(device)
            }
            wait()
        }
        // The last bytes are written now rather than at the next tick.
        if handedOver && !control.isStopping { _ = control.idle() }
    }

    private func connect(_ device: String) {
        links.attempting()
        var fd: Int32 = -1
        let status = cgps_raw_connect(links.host, String(links.port), wakeup.descriptor, Self.connectTimeout, &fd)
        if status == ECANCELED { return }  // a change or a stop: the loop looks again
        guard status == 0 else {
            failed(device, "cannot connect: \(String(cString: cgps_raw_strerror(status)))", streamed: 0)
            return
        }
        let request = GPSDRawStream.request(device: device)
        // A fresh socket takes a hundred bytes at once.
        let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else {
            let reason = sent < 0 ? SystemError("send", errno: errno).description : "a short send"
            Glibc.close(fd)
            failed(device, "cannot send the raw watch: \(reason)", streamed: 0)
            return
        }
        open[device] = Link(fd: fd, stream: GPSDRawStream(device: device), opened: SystemClock.monotonic())
    }

    /// Waits for bytes on any connection, a change (the wakeup), the next retry or the sink's
    /// pause coming due; reads what came.
    private func wait() {
        let now = SystemClock.monotonic()
        if handedOver || pauseDue.map({ now >= $0 }) == true {
            handedOver = false
            pauseDue = control.idle()
        }
        var deadline = retries.values.min()
        if let due = pauseDue { deadline = min(deadline ?? due, due) }
        let devices = open.keys.sorted()
        var fds = [pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)]
        for device in devices { fds.append(pollfd(fd: open[device]!.fd, events: Int16(POLLIN), revents: 0)) }
        let timeout = deadline.map { Int32(min(max(0, (($0 - now) * 1000).rounded(.up)), Double(Int32.max))) } ?? -1
        let ready = poll(&fds, nfds_t(fds.count), timeout)
        guard ready > 0 else { return }
        for (index, device) in devices.enumerated() where fds[index + 1].revents != 0 {
            read(device)
        }
    }

    /// Reads what connection `device` holds (a few reads at most, so no receiver starves the others).
    private func read(_ device: String) {
        for _ in 0..<8 {
            guard var link = open[device] else { return }
            let n = recv(link.fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
                let reason = SystemError("recv", errno: errno).description
                close(device, nil)
                failed(device, "the raw connection failed: \(reason)", streamed: SystemClock.monotonic() - link.opened)
                return
            }
            if n == 0 {
                close(device, nil)
                failed(device, "gpsd closed the raw connection", streamed: SystemClock.monotonic() - link.opened)
                return
            }
            let time = SystemClock.utc()
            let wasStreaming = link.stream.state == .streaming
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
            guard let from = link.stream.take(chunk) else {
                let reason: String
                switch link.stream.state {
                case .refused(let message): reason = "gpsd refused the raw watch: \(message)"
                case .broken(let why): reason = why
                case .handshake, .streaming: reason = "gpsd's answer could not be read"
                }
                close(device, nil)
                failed(device, reason, streamed: 0)
                return
            }
            open[device] = link
            if !wasStreaming && link.stream.state == .streaming { streams(device) }
            if from < n {
                handedOver = true
                control.yield(.raw(device: device, bytes: Array(chunk[from...]), time: time))
            }
            if n < buffer.count { return }
        }
    }

    /// gpsd confirmed the raw watch of `device`: said, with the failure it ends if any.
    private func streams(_ device: String) {
        links.streaming(device, true)
        if let reason = failures[device]?.reason {
            failures[device]?.reason = nil
            Diagnostics.gpsd.notice("raw capture: watching receiver \(PeerText.escaped(device)) of gpsd at \(endpoint) in raw mode 2 again (after: \(reason))")
        } else {
            Diagnostics.gpsd.info("raw capture: watching receiver \(PeerText.escaped(device)) of gpsd at \(endpoint) in raw mode 2, on a connection of its own")
        }
    }

    /// Closes the connection of `device`; `reason` said in the journal when it is given.
    private func close(_ device: String, _ reason: String?) {
        guard let link = open.removeValue(forKey: device) else { return }
        Glibc.close(link.fd)
        links.streaming(device, false)
        if let reason {
            Diagnostics.gpsd.info("raw capture: closed the raw connection of receiver \(PeerText.escaped(device)) (\(reason))")
        }
    }

    /// The connection of `device` could not be made or ended after `streamed` seconds: tried
    /// again after the next delay while it is wanted; said when the reason is new.
    private func failed(_ device: String, _ reason: String, streamed: Double) {
        let previous = failures[device]
        let delay = previous.map { streamed >= Self.stableAfter ? Self.firstRetry : min(Self.retryCap, $0.delay * 2) } ?? Self.firstRetry
        if previous?.reason != reason {
            Diagnostics.gpsd.warning(
                "raw capture of receiver \(PeerText.escaped(device)) from gpsd at \(endpoint): \(reason); its bytes are not kept until it opens again (retrying)")
        }
        failures[device] = Failures(delay: delay, reason: reason)
        retries[device] = SystemClock.monotonic() + delay
    }
}
