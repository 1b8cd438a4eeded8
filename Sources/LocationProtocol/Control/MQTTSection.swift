import LocationValues

/// The MQTT face's section of a `status` reply: each publishing client's
/// broker connection, in config order (`brokers`; absent when no client publishes).
/// No coordinate: every reader sees it whole.
public struct MQTTSection: StatusSection, Hashable {
    /// Each publishing client's connection.
    public var brokers: [BrokerStatus]

    /// The section of `brokers`.
    public init(brokers: [BrokerStatus] = []) {
        self.brokers = brokers
    }

    /// `"brokers":[…]` when any client publishes.
    public var jsonMembers: [(String, JSONValue)] {
        brokers.isEmpty ? [] : [("brokers", .array(brokers.map(\.json)))]
    }

    /// `client`'s broker only.
    public func only(client: String) -> MQTTSection {
        MQTTSection(brokers: brokers.filter { $0.client == client })
    }

    /// Whole: a broker's state holds no coordinate and no peer.
    public func seen(through disclosure: Disclosure) -> MQTTSection? { self }

    /// Reads `brokers` from a status object.
    public static let read: StatusSections.Reader = { value throws(ControlDecodeError) in
        guard let list = value["brokers"]?.arrayValue else { return nil }
        var brokers: [BrokerStatus] = []
        for item in list { brokers.append(try BrokerStatus(json: item)) }
        return MQTTSection(brokers: brokers)
    }
}
