#if canImport(Glibc)
import Glibc
#endif
import CMQTT
import LocationConfig
import LocationCore
import LocationProtocol

/// Why a connection could not be made or ended, as `status` says it.
struct MQTTFailure: Error, Sendable, Hashable {
    /// The kind of failure.
    var state: BrokerStatus.State
    /// In words.
    var detail: String
}

/// One MQTT session through the CMQTT shim: made, connected, looped and
/// destroyed by one thread (the publisher's). A new attempt gets a new
/// connection, so nothing libmosquitto queued for an old session is resent
/// behind the publisher's back; the publisher resends from its cursor.
final class MQTTConnection {
    private let handle: OpaquePointer
    private let settings: MQTTSettings
    private var acks = [Int32](repeating: 0, count: 64)

    /// A configured, unconnected client: credentials, TLS, the last will.
    /// Loads libmosquitto first if no connection did yet (`MQTTLibrary`).
    init(settings: MQTTSettings, password: String?, will: [UInt8]) throws(MQTTFailure) {
        try MQTTLibrary.load()
        guard let handle = cmqtt_new() else {
            throw MQTTFailure(state: .misconfigured, detail: "cannot make an MQTT client: \(String(cString: strerror(errno)))")
        }
        self.handle = handle
        self.settings = settings
        if let username = settings.username {
            let rc = cmqtt_set_credentials(handle, username, password)
            guard rc == cmqtt_err_success() else {
                cmqtt_destroy(handle)
                throw MQTTFailure(state: .misconfigured, detail: "user name refused: \(Self.words(rc))")
            }
        }
        if let ca = settings.tlsCA {
            let rc = cmqtt_set_tls(handle, ca, settings.tlsCert, settings.tlsKey)
            guard rc == cmqtt_err_success() else {
                cmqtt_destroy(handle)
                let files = [ca, settings.tlsCert, settings.tlsKey].compactMap { $0 }.joined(separator: ", ")
                throw MQTTFailure(state: .tls, detail: "cannot use the TLS files \(files): \(Self.words(rc)) (they must exist and be readable)")
            }
        }
        let rc = will.withUnsafeBytes { raw in
            cmqtt_set_will(handle, settings.topic, raw.baseAddress, Int32(raw.count), Int32(settings.qos))
        }
        guard rc == cmqtt_err_success() else {
            cmqtt_destroy(handle)
            throw MQTTFailure(state: .misconfigured, detail: "last will refused: \(Self.words(rc))")
        }
    }

    deinit { cmqtt_destroy(handle) }

    /// Starts connecting (non-blocking); the outcome comes through `loop`.
    func connect(keepalive: Int32) throws(MQTTFailure) {
        let rc = cmqtt_connect(handle, settings.host, Int32(settings.port), keepalive)
        let code = errno
        guard rc == cmqtt_err_success() else { throw Self.failure(rc, errno: code, connack: -1) }
    }

    /// The broker's CONNACK code, `nil` until it answered.
    var connack: Int32? {
        let code = cmqtt_connack(handle)
        return code < 0 ? nil : code
    }

    /// Queues one retained PUBLISH; returns its message id.
    func publish(_ payload: [UInt8], topic: String, qos: Int) throws(MQTTFailure) -> Int32 {
        var mid: Int32 = 0
        let rc = payload.withUnsafeBytes { raw in
            cmqtt_publish(handle, topic, raw.baseAddress, Int32(raw.count), Int32(qos), true, &mid)
        }
        let code = errno
        guard rc == cmqtt_err_success() else { throw Self.failure(rc, errno: code, connack: cmqtt_connack(handle)) }
        return mid
    }

    /// One turn of libmosquitto's loop (waits up to `milliseconds`). Throws
    /// when the session ended or the broker refused it.
    func loop(milliseconds: Int32) throws(MQTTFailure) {
        let rc = cmqtt_loop(handle, milliseconds)
        let code = errno
        let connack = cmqtt_connack(handle)
        if connack > 0 { throw Self.failure(cmqtt_err_conn_refused(), errno: 0, connack: connack) }
        guard rc == cmqtt_err_success() else { throw Self.failure(rc, errno: code, connack: connack) }
    }

    /// The message ids acknowledged since the last call, in the order reported.
    func takeAcks(_ body: (Int32) -> Void) {
        while true {
            let n = cmqtt_take_acks(handle, &acks, Int32(acks.count))
            guard n > 0 else { return }
            for i in 0..<Int(n) { body(acks[i]) }
            if n < Int32(acks.count) { return }
        }
    }

    /// Says goodbye (the broker then does not publish the will) and lets the loop send it.
    func disconnect() {
        _ = cmqtt_disconnect(handle)
        _ = cmqtt_loop(handle, 50)
    }

    private static func words(_ rc: Int32) -> String {
        String(cString: cmqtt_strerror(rc))
    }

    /// Sorts a libmosquitto outcome into what `status` says.
    static func failure(_ rc: Int32, errno code: Int32, connack: Int32) -> MQTTFailure {
        if connack > 0 {
            let reason = String(cString: cmqtt_connack_string(connack))
            let advice = connack == 4 || connack == 5 ? " (check mqtt_username and mqtt_password_file)" : ""
            return MQTTFailure(state: .refused, detail: "the broker refused the connection: \(reason)\(advice)")
        }
        if rc == cmqtt_err_errno() {
            return MQTTFailure(state: .unreachable, detail: String(cString: strerror(code)))
        }
        if rc == cmqtt_err_tls() || rc == cmqtt_err_tls_handshake() {
            return MQTTFailure(
                state: .tls, detail: "TLS failed: \(words(rc)) (check mqtt_tls_ca, the broker's certificate and its host name)")
        }
        if rc == cmqtt_err_auth() || rc == cmqtt_err_conn_refused() {
            return MQTTFailure(state: .refused, detail: "the broker refused the connection: \(words(rc))")
        }
        if rc == cmqtt_err_lookup() || rc == cmqtt_err_eai() {
            return MQTTFailure(state: .unreachable, detail: "cannot resolve the broker's host name: \(words(rc))")
        }
        return MQTTFailure(state: .unreachable, detail: words(rc))
    }
}
