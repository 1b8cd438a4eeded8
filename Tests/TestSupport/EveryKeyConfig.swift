import LocationConfig
import LocationCore

/// A configuration that sets every key of locationd.conf to a value other than its default, each
/// section kind at least once: `[daemon]`, `[source]`, `[source.NAME]`, two clients (one serving
/// programs with a split log, one publishing over MQTT), `[geoclue]` and `[policy]`. The key-table
/// tests read it, render it and read it back; a key the table gains must be added here. The
/// publishing client's log is absolute: a publisher's log path waits for a restart, so a relative
/// one would make `log_dir` wait too, though the logs themselves take it at once.
public enum EveryKeyConfig {
    /// The text. The program sockets' `socket_group` is a number, which check-config takes as it is
    /// (a name would have to exist on the machine running the tests).
    public static let text =
        """
        [daemon]
        socket = /run/every/control.sock
        socket_group = operators
        socket_mode = 0660
        report_days = 30
        state_dir = /srv/every/state
        log_dir = /srv/every/logs
        services = off
        fsync = interval

        [source]
        type = nmea
        device = /dev/ttyUSB0
        baud = 38400
        failover = 5.5

        [source.net]
        type = gpsd
        host = gps.example.org
        port = 2950

        [client.full]
        log = full-%Y%m%d-%H.jsonl
        distance_filter = 2.5
        desired_accuracy = ten-meters
        authorization = while-using
        precise = off
        updating = on
        in_use = on
        usage = "Logs # for a survey"
        usage_always = Even when nobody watches
        receiver = /dev/ttyUSB0
        purpose.survey = A survey
        purpose.map = A map
        once_grace = 30
        reduced_grid = 5000
        reduced_interval = 600
        locate_timeout = 10
        geoclue_id = org.gnome.Maps
        split = hour
        raw_log = raw/%r-%Y%m%d-%H.raw
        heartbeat = 300
        gpsd_socket = /run/every/full.gpsd.sock
        gpsd_port = 2960
        nmea_socket = /run/every/full.nmea
        socket_mode = 0660
        socket_group = 4242
        allow_users = alice bob
        allow_groups = plugdev
        app_users = survey
        app_groups = survey
        app_units = survey.service

        [client.pub]
        log = /srv/every/pub.jsonl
        mqtt_broker = broker.example.org:8883
        mqtt_topic = owntracks/board/one
        mqtt_tid = b1
        mqtt_qos = 2
        mqtt_username = board
        mqtt_password_file = /etc/locationd/mqtt.secret
        mqtt_tls_ca = /etc/ssl/every-ca.crt
        mqtt_tls_cert = /etc/locationd/board.crt
        mqtt_tls_key = /etc/locationd/board.key

        [geoclue]
        bus = unix:path=/run/every/bus
        max_apps = 8
        new_apps = deny
        precise = off
        usage = The app %s wants to know where you are.

        [policy]
        restricted = pub

        """

    /// Values that change a key where taking its line out would leave the file invalid (an NMEA
    /// source needs a device, a log with time fields a split, MQTT's broker and TLS files one another).
    static let replacements = [
        "device": "/dev/ttyUSB1", "split": "day", "mqtt_broker": "broker.example.org:8884",
        "mqtt_tls_ca": "/etc/ssl/other-ca.crt", "mqtt_tls_cert": "/etc/locationd/other.crt", "mqtt_tls_key": "/etc/locationd/other.key",
    ]

    /// `text` with `key` changed once: its first line in a section of the key's kind taken out (so it
    /// takes its default), or given another value where taking it out would leave the file invalid.
    public static func changing(_ key: ConfigKey) -> String {
        var section = ""
        var done = false
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("[") {
                section = String(line.dropFirst().dropLast())
            } else if !done, let equals = line.firstRange(of: " = "), key.matches(String(line[..<equals.lowerBound])),
                kind(of: section) == key.section
            {
                done = true
                if let value = replacements[key.name] { lines.append(String(line[..<equals.upperBound]) + value) }
                continue
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The kind of a section by its name: `client.full` is `[client.NAME]`; `[source.NAME]` takes
    /// `[source]`'s keys, so its keys are `.source`'s.
    public static func kind(of section: String) -> ConfigKey.Section? {
        if section.hasPrefix("client.") { return .client }
        if section.hasPrefix("source.") { return .source }
        return ConfigKey.Section(rawValue: section)
    }
}
