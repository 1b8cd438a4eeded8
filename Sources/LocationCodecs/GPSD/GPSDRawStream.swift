import LocationValues

/// One raw connection to gpsd, read apart into gpsd's own lines and the receiver's bytes
/// (`raw_log` with `[source] type = gpsd`; docs/sources.md, "Raw capture from gpsd").
///
/// The connection watches one receiver in gpsd's raw mode 2 (`request(device:)`). What gpsd
/// writes on it, as its `gpsd.c` does from 3.22 to 3.27:
///
/// 1. `VERSION`, as it accepts the connection;
/// 2. its answer to the watch, in one write, before any receiver packet: `DEVICES` then `WATCH`
///    (the policy it took), or an `ERROR` alone (no such device, or it cannot be opened);
/// 3. then only the receiver's packets, verbatim: with JSON, NMEA and PPS reports off
///    (`notify_watchers` writes only to JSON or PPS watchers) raw mode 2 gets `raw_report`'s
///    copy of each packet gpsd's lexer accepted, and a receiver that itself speaks JSON has its
///    objects passed through, each with the `\r\n` gpsd adds.
///
/// So the rule is one of position, never of content: everything up to and including the line
/// of gpsd's `WATCH` answer is gpsd's and is dropped; everything after it is the receiver's and
/// is kept, whatever it looks like — a UBX message whose payload reads `{"class":"WATCH"…`,
/// or a read that happens to start there, is the receiver's. The `WATCH` line must confirm
/// what the rule rests on (`raw` 2, `json`, `nmea` and `pps` not on, the device asked for), or
/// the connection is given up (`broken`). A line before it that is not gpsd's JSON breaks it
/// too: the receiver's bytes never come before the answer.
///
/// Pure: bytes in, a decision out; the gpsd source's raw thread does the IO.
public struct GPSDRawStream: Sendable {
    /// Where the stream stands.
    public enum State: Sendable, Hashable {
        /// gpsd's greeting and its answer to the watch are still coming.
        case handshake
        /// gpsd confirmed the watch: every byte from here is the receiver's.
        case streaming
        /// gpsd answered the watch with an `ERROR`: its message.
        case refused(String)
        /// Not what gpsd sends (a line that is not its JSON, one too long, or a `WATCH` answer
        /// that does not confirm raw mode 2 for the device): why, for the journal.
        case broken(String)
    }

    /// The longest handshake line taken (gpsd's `DEVICES` lists at most a few receivers in a
    /// few hundred bytes each; its own reply buffer is 10 KiB).
    public static let lineLimit = 65_536

    /// The receiver watched: its path as gpsd names it.
    public let device: String
    /// Where the stream stands.
    public private(set) var state: State = .handshake
    /// Bytes of gpsd's own dropped so far (its greeting and its answer to the watch).
    public private(set) var droppedBytes = 0
    /// The start of a handshake line whose end has not come yet.
    private var pending: [UInt8] = []

    /// A stream for the raw connection that watches `device`.
    public init(device: String) {
        self.device = device
    }

    /// The watch a raw connection sends, once, right after connecting:
    /// `?WATCH={"enable":true,"json":false,"nmea":false,"raw":2,"pps":false,"device":"PATH"}` and
    /// a newline. `json`, `nmea` and `pps` are said off rather than left to gpsd's defaults for
    /// a new connection (off too): nothing but the receiver's packets may follow the answer.
    public static func request(device: String) -> [UInt8] {
        var text = #"?WATCH={"enable":true,"json":false,"nmea":false,"raw":2,"pps":false,"device":"#
        JSONValue.writeString(device, to: &text)
        text += "}\n"
        return Array(text.utf8)
    }

    /// Takes the next bytes read from the connection. Returns where the receiver's bytes start in
    /// `bytes` (`bytes.count` when none are; `nil` when the stream is refused or broken, which
    /// `state` says): while streaming, 0; in the handshake, after the `WATCH` line once it ends.
    public mutating func take(_ bytes: UnsafeRawBufferPointer) -> Int? {
        switch state {
        case .streaming: return 0
        case .refused, .broken: return nil
        case .handshake: break
        }
        var start = 0
        while start < bytes.count {
            guard let newline = bytes[start...].firstIndex(of: 0x0A) else {
                pending.append(contentsOf: bytes[start...])
                droppedBytes += bytes.count - start
                if pending.count > Self.lineLimit {
                    state = .broken("gpsd sent a line of more than \(Self.lineLimit) bytes before it answered the raw watch")
                    return nil
                }
                return bytes.count
            }
            pending.append(contentsOf: bytes[start..<newline])
            droppedBytes += newline + 1 - start
            start = newline + 1
            let line = pending
            pending.removeAll(keepingCapacity: false)
            guard line.count <= Self.lineLimit else {
                state = .broken("gpsd sent a line of more than \(Self.lineLimit) bytes before it answered the raw watch")
                return nil
            }
            handshake(line)
            switch state {
            case .handshake: continue
            case .streaming: return start
            case .refused, .broken: return nil
            }
        }
        return bytes.count
    }

    private static let classOpening = Array(#"{"class":""#.utf8)

    /// One whole line of the handshake (without its `\n`).
    private mutating func handshake(_ line: [UInt8]) {
        var line = line[...]
        if line.last == 0x0D { line = line.dropLast() }
        guard line.starts(with: Self.classOpening) else {
            state = .broken("gpsd sent \(Self.shown(line)) before it answered the raw watch of \(device), not its JSON")
            return
        }
        let name = line.dropFirst(Self.classOpening.count).prefix { $0 != 0x22 }
        switch String(decoding: name, as: UTF8.self) {
        case "WATCH":
            state = confirmation(line)
        case "ERROR":
            let message = (try? JSONValue.parse(line))?["message"]?.stringValue
            state = .refused(PeerText.escaped(message ?? String(decoding: line, as: UTF8.self), limit: 200))
        default:
            // VERSION, DEVICES (and whatever else a later gpsd says first): gpsd's, dropped.
            break
        }
    }

    /// The stream after gpsd's `WATCH` answer: streaming when it confirms raw mode 2 for the device
    /// with JSON, NMEA and PPS reports off.
    private func confirmation(_ line: ArraySlice<UInt8>) -> State {
        guard let watch = try? JSONValue.parse(line) else {
            return .broken("gpsd's answer to the raw watch of \(device) is not JSON: \(Self.shown(line))")
        }
        let confirmed =
            watch["raw"]?.intValue == 2 && watch["json"]?.boolValue != true && watch["nmea"]?.boolValue != true
            && watch["pps"]?.boolValue != true && watch["enable"]?.boolValue != false
            && (watch["device"]?.stringValue).map { $0 == device } != false
        guard confirmed else {
            return .broken("gpsd did not take the raw watch of \(device) as asked (raw 2, JSON, NMEA and PPS off): \(Self.shown(line))")
        }
        return .streaming
    }

    /// The first 120 bytes of a line, escaped (`PeerText`): what gpsd sent, for the journal.
    private static func shown(_ line: ArraySlice<UInt8>) -> String {
        let text = PeerText.escaped(bytes: line.prefix(120))
        return line.count > 120 ? "'\(text)…'" : "'\(text)'"
    }
}
