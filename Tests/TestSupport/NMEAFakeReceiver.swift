#if canImport(Glibc)
import Glibc
#endif
import CSupport
import LocationCore
import LocationValues

/// A pseudo-terminal pair standing in for a receiver on a serial line.
public final class NMEAFakeReceiver {
    public let controller: Int32
    private var terminal: Int32
    /// The device path a source opens (/dev/pts/N).
    public let devicePath: String

    public init() throws {
        var controller: Int32 = -1, terminal: Int32 = -1
        var name = [CChar](repeating: 0, count: 128)
        guard csupport_openpty(&controller, &terminal, &name, name.count) == 0 else {
            throw SupportError.system("openpty")
        }
        self.controller = controller
        self.terminal = terminal
        self.devicePath = String(decoding: name.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Lets go of the test's own handle on the device side (the source has its own).
    public func releaseTerminal() {
        if terminal >= 0 { close(terminal) }
        terminal = -1
    }

    /// Sends bytes as the receiver would.
    public func send(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(controller, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Whether the device side has hung up (every descriptor of it closed):
    /// the controller reports POLLHUP. Does not wait.
    public var hungUp: Bool {
        var entry = pollfd(fd: controller, events: Int16(POLLOUT), revents: 0)
        return poll(&entry, 1, 0) == 1 && Int32(entry.revents) & Int32(POLLHUP) != 0
    }

    /// The receiver goes away (USB unplugged): the device side hangs up.
    public func unplug() {
        releaseTerminal()
        close(controller)
    }

    deinit { releaseTerminal() }
}

extension ScratchDirectory {
    /// Points the symlink `name` at `target` (atomically, as udev does).
    public func link(_ name: String, to target: String) throws(SupportError) {
        let temporary = path + "/." + name + ".new"
        unlink(temporary)
        guard symlink(target, temporary) == 0, rename(temporary, path + "/" + name) == 0 else {
            throw .system("symlink \(file(name)) → \(target)")
        }
    }
}

public enum NMEASourceText {
    /// One epoch (GGA, GSA, RMC) at 12:00:`second` on 2026-03-14; `fix: false`
    /// repeats a stale position with the receiver saying "no fix".
    public static func epoch(_ second: Int, fix: Bool = true) -> String {
        let time = "1200" + (second < 10 ? "0\(second)" : "\(second)") + ".00"
        let lat = "4807.\(String(1000 + second).suffix(3))"
        return sentence("GPGGA,\(time),\(lat),N,01131.324,E,\(fix ? 1 : 0),08,0.9,545.4,M,46.9,M,,")
            + sentence("GPGSA,A,\(fix ? 3 : 1),05,07,12,30,,,,,,,,,1.5,0.9,1.2")
            + sentence("GPRMC,\(time),\(fix ? "A" : "V"),\(lat),N,01131.324,E,0.5,54.7,140326,,,\(fix ? "A" : "N")")
    }

    public static func sentence(_ body: String) -> String {
        var sum: UInt8 = 0
        for byte in body.utf8 { sum ^= byte }
        let hex = Array("0123456789ABCDEF".utf8)
        return "$" + body + "*" + String(decoding: [hex[Int(sum >> 4)], hex[Int(sum & 15)]], as: UTF8.self) + "\r\n"
    }

    /// `sentence` (as `sentence(_:)` writes it) with a checksum that does not match it.
    public static func corrupted(_ sentence: String) -> String {
        let star = sentence.lastIndex(of: "*") ?? sentence.endIndex
        let sum = sentence[sentence.index(after: star)...].prefix(2)
        return sentence[...star] + (sum == "00" ? "01" : "00") + "\r\n"
    }

    /// Seconds of the minute of a fix's time.
    public static func second(_ fix: Fix) -> Int {
        Int((fix.time ?? 0).truncatingRemainder(dividingBy: 60).rounded())
    }
}
