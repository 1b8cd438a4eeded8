/// A client's MQTT publishing (`mqtt_*` keys of its `[client.NAME]`
/// section): where its log's records go as OwnTracks JSON. The log is the
/// queue, so a client with `mqtt_broker` must have a `log`.
public struct MQTTSettings: Sendable, Hashable, Codable {
    /// The broker's host name or IP address (`mqtt_broker`, before the port).
    public var host: String
    /// The broker's TCP port (`mqtt_broker` after the colon; 1883, or 8883 with TLS, when left out).
    public var port: Int
    /// The topic every location is published to, retained (`mqtt_topic`, OwnTracks' `owntracks/USER/DEVICE`).
    public var topic: String
    /// OwnTracks' tracker id, one or two characters (`mqtt_tid`).
    public var trackerID: String
    /// 0, 1 or 2 (`mqtt_qos`).
    public var qos: Int
    /// The user name sent to the broker (`mqtt_username`).
    public var username: String?
    /// A file whose first line is the password (`mqtt_password_file`); never the password itself.
    public var passwordFile: String?
    /// CA certificates that sign the broker's certificate (`mqtt_tls_ca`); set, the connection uses TLS.
    public var tlsCA: String?
    /// The client certificate, for brokers that ask for one (`mqtt_tls_cert`).
    public var tlsCert: String?
    /// The client certificate's private key (`mqtt_tls_key`).
    public var tlsKey: String?

    /// The `mqtt_*` keys of a client section, in the order `rendered` writes them (ConfigKeyTable.swift).
    public static let keys = ConfigReader.mqttRows.map(\.key.name)
    /// MQTT's port without TLS.
    public static let defaultPort = 1883
    /// MQTT's port with TLS.
    public static let defaultTLSPort = 8883
    /// `mqtt_qos` when not given: at least once, acknowledged by the broker.
    public static let defaultQoS = 1

    /// Settings from their parts.
    public init(
        host: String, port: Int, topic: String, trackerID: String, qos: Int = MQTTSettings.defaultQoS,
        username: String? = nil, passwordFile: String? = nil, tlsCA: String? = nil, tlsCert: String? = nil,
        tlsKey: String? = nil
    ) {
        self.host = host
        self.port = port
        self.topic = topic
        self.trackerID = trackerID
        self.qos = qos
        self.username = username
        self.passwordFile = passwordFile
        self.tlsCA = tlsCA
        self.tlsCert = tlsCert
        self.tlsKey = tlsKey
    }

    /// `owntracks/locationd/NAME`: the topic when `mqtt_topic` is not given.
    public static func defaultTopic(client: String) -> String { "owntracks/locationd/\(client)" }

    /// The last two characters of the client's name: the tracker id when `mqtt_tid` is not given.
    public static func defaultTrackerID(client: String) -> String { String(client.suffix(2)) }

    /// `host:port`, `[::1]:1883`: how `mqtt_broker` is written and people name the broker.
    public var broker: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// `mqtts` with TLS, else `mqtt`.
    public var scheme: String { tlsCA == nil ? "mqtt" : "mqtts" }

    /// Splits `mqtt_broker`: `host`, `host:port`, `[v6]` or `[v6]:port`; `nil` when malformed.
    public static func parseBroker(_ text: String, tls: Bool) -> (host: String, port: Int)? {
        let defaultPort = tls ? defaultTLSPort : Self.defaultPort
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":" else { return nil }
                portText = rest.dropFirst()
            }
        } else {
            let colons = text.filter { $0 == ":" }.count
            if colons == 1, let colon = text.firstIndex(of: ":") {
                host = text[..<colon]
                portText = text[text.index(after: colon)...]
            } else if colons == 0 {
                host = text[...]
            } else {
                return nil  // a bare IPv6 address needs brackets to carry a port
            }
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "\t" || $0 == "/" || $0 == "\0" }) else { return nil }
        guard let portText else { return (String(host), defaultPort) }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
            let port = Int(portText), (1...65535).contains(port)
        else { return nil }
        return (String(host), port)
    }

    /// A topic a client may publish to: not empty, no wildcards (`+`, `#`), no NUL, at most 65535 bytes.
    public static func isPublishTopic(_ topic: String) -> Bool {
        !topic.isEmpty && topic.utf8.count <= 65535 && !topic.contains(where: { $0 == "+" || $0 == "#" || $0 == "\0" })
    }

    /// A tracker id: one or two letters or digits.
    public static func isTrackerID(_ tid: String) -> Bool {
        (1...2).contains(tid.count) && tid.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
