/// The `mqtt_*` keys of a `[client.NAME]` section (locationd.conf(5), "MQTT").
extension ConfigReader {
    /// Checks a client's `mqtt_*` entries and builds its settings: `nil` when
    /// there are none or they have errors (each reported).
    mutating func readMQTT(_ entries: [INIParser.Entry], _ section: INIParser.Section, client: ClientSettings) -> MQTTSettings? {
        guard !entries.isEmpty else { return nil }
        func value(_ key: String) -> INIParser.Entry? { entries.first { $0.key == key } }
        let tls = value("mqtt_tls_ca").map { !$0.value.isEmpty } ?? false
        guard let brokerEntry = value("mqtt_broker"), !brokerEntry.value.isEmpty else {
            let first = entries[0]
            errors.append(.missingKey(
                file: file, line: first.line, section: section.name, key: "mqtt_broker",
                detail: "[\(section.name)] \(first.key) needs mqtt_broker = HOST:PORT (the broker the log is published to)"))
            return nil
        }
        let errorsBefore = errors.count
        var settings = MQTTSettings(
            host: "", port: 0, topic: MQTTSettings.defaultTopic(client: client.name),
            trackerID: MQTTSettings.defaultTrackerID(client: client.name))
        if let (host, port) = MQTTSettings.parseBroker(brokerEntry.value, tls: tls) {
            settings.host = host
            settings.port = port
        } else {
            mqttBad(brokerEntry, section, accepted: "HOST:PORT, HOST (port 1883, or 8883 with mqtt_tls_ca) or [IPv6]:PORT")
        }
        if client.log == nil {
            errors.append(.missingKey(
                file: file, line: brokerEntry.line, section: section.name, key: "log",
                detail: "[\(section.name)] mqtt_broker needs log = FILE: the log is the queue the publisher sends from, "
                    + "so nothing is lost while the broker is away"))
        }
        for entry in entries {
            switch entry.key {
            case "mqtt_topic":
                if MQTTSettings.isPublishTopic(entry.value) {
                    settings.topic = entry.value
                } else {
                    mqttBad(entry, section, accepted: "a topic without + or # such as owntracks/USER/DEVICE")
                }
            case "mqtt_tid":
                if MQTTSettings.isTrackerID(entry.value) {
                    settings.trackerID = entry.value
                } else {
                    mqttBad(entry, section, accepted: "one or two letters or digits (OwnTracks' tracker id)")
                }
            case "mqtt_qos":
                if let qos = Int(entry.value), (0...2).contains(qos), entry.value.count == 1 {
                    settings.qos = qos
                } else {
                    mqttBad(entry, section, accepted: "0, 1 or 2")
                }
            case "mqtt_username":
                if entry.value.isEmpty {
                    settings.username = nil
                } else if entry.value.utf8.count <= 65535 && !entry.value.contains("\0") {
                    settings.username = entry.value
                } else {
                    mqttBad(entry, section, accepted: "a user name, or nothing for none")
                }
            case "mqtt_password_file": settings.passwordFile = mqttPath(entry, section)
            case "mqtt_tls_ca": settings.tlsCA = mqttPath(entry, section)
            case "mqtt_tls_cert": settings.tlsCert = mqttPath(entry, section)
            case "mqtt_tls_key": settings.tlsKey = mqttPath(entry, section)
            default: break  // mqtt_broker, read above
            }
        }
        if (settings.tlsCert == nil) != (settings.tlsKey == nil), let entry = value("mqtt_tls_cert") ?? value("mqtt_tls_key") {
            errors.append(.missingKey(
                file: file, line: entry.line, section: section.name, key: settings.tlsCert == nil ? "mqtt_tls_cert" : "mqtt_tls_key",
                detail: "[\(section.name)] mqtt_tls_cert and mqtt_tls_key go together: give both, or neither"))
        }
        if settings.tlsCA == nil, settings.tlsCert != nil, let entry = value("mqtt_tls_cert") {
            errors.append(.missingKey(
                file: file, line: entry.line, section: section.name, key: "mqtt_tls_ca",
                detail: "[\(section.name)] mqtt_tls_cert needs mqtt_tls_ca = FILE (the CA that signs the broker's certificate)"))
        }
        return errors.count == errorsBefore ? settings : nil
    }

    /// An absolute path, or nothing for none.
    private mutating func mqttPath(_ entry: INIParser.Entry, _ section: INIParser.Section) -> String? {
        if entry.value.isEmpty { return nil }
        guard entry.value.hasPrefix("/"), !entry.value.hasSuffix("/"), !entry.value.contains("\0") else {
            mqttBad(entry, section, accepted: "an absolute path of a file, or nothing for none")
            return nil
        }
        return entry.value
    }

    private mutating func mqttBad(_ entry: INIParser.Entry, _ section: INIParser.Section, accepted: String) {
        errors.append(.badValue(
            file: file, line: entry.line, section: section.name, key: entry.key, value: entry.value, accepted: accepted))
    }
}
