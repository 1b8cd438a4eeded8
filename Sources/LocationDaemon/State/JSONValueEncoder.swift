import LocationCore

/// Turns any `Encodable` value into the project's `JSONValue`, without
/// Foundation: the state file goes through the types' own `Codable`
/// conformances (versions, hexadecimal random state) and the one JSON codec.
///
/// Keys keep the order the type encodes them in, so the same value always
/// gives the same bytes. Numbers are JSON doubles: an integer beyond ±2⁵³ or a
/// non-finite double cannot be written and throws `EncodingError.invalidValue`.
public struct JSONValueEncoder: Sendable {
    /// An encoder.
    public init() {}

    /// The JSON form of `value`.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let root = EncodingNode()
        try value.encode(to: NodeEncoder(node: root, codingPath: []))
        return root.value
    }
}

/// A value under construction: a scalar, or an object or array whose members are still being filled.
private final class EncodingNode {
    enum Storage {
        case empty
        case scalar(JSONValue)
        case object([(String, EncodingNode)])
        case array([EncodingNode])
    }

    var storage = Storage.empty

    var value: JSONValue {
        switch storage {
        case .empty: .object([])
        case .scalar(let value): value
        case .object(let members): .object(members.map { ($0.0, $0.1.value) })
        case .array(let items): .array(items.map(\.value))
        }
    }

    func makeObject() {
        if case .object = storage { return }
        storage = .object([])
    }

    func makeArray() {
        if case .array = storage { return }
        storage = .array([])
    }

    /// The member `key`, replacing an earlier one of the same name.
    func member(_ key: String) -> EncodingNode {
        makeObject()
        let node = EncodingNode()
        guard case .object(var members) = storage else { return node }
        storage = .empty
        if let i = members.firstIndex(where: { $0.0 == key }) {
            members[i].1 = node
        } else {
            members.append((key, node))
        }
        storage = .object(members)
        return node
    }

    func appendItem() -> EncodingNode {
        makeArray()
        let node = EncodingNode()
        guard case .array(var items) = storage else { return node }
        storage = .empty
        items.append(node)
        storage = .array(items)
        return node
    }

    var count: Int {
        if case .array(let items) = storage { return items.count }
        return 0
    }
}

/// JSON numbers are doubles: integers must fit one exactly.
private func number<T: BinaryInteger>(_ value: T, at path: [any CodingKey]) throws -> JSONValue {
    let limit: Int64 = 1 << 53
    guard let wide = Int64(exactly: value), wide >= -limit, wide <= limit else {
        throw EncodingError.invalidValue(
            value, .init(codingPath: path, debugDescription: "\(value) does not fit a JSON number exactly"))
    }
    return .number(Double(wide))
}

private func number(_ value: Double, at path: [any CodingKey]) throws -> JSONValue {
    guard value.isFinite else {
        throw EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: "JSON has no \(value)"))
    }
    return .number(value)
}

/// The scalar half that the unkeyed and single-value containers share: each
/// scalar becomes a `JSONValue` put in the container's next place, whose
/// coding path `scalarPath` names it in an error.
private protocol ScalarNodeContainer {
    /// Where the next scalar goes, for error messages.
    var scalarPath: [any CodingKey] { get }
    /// Stores the next scalar.
    mutating func put(_ value: JSONValue)
}

extension ScalarNodeContainer {
    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(try number(value, at: scalarPath)) }
    mutating func encode(_ value: Float) throws { put(try number(Double(value), at: scalarPath)) }
    mutating func encode(_ value: Int) throws { put(try number(value, at: scalarPath)) }
    mutating func encode(_ value: Int8) throws { put(try number(value, at: scalarPath)) }
    mutating func encode(_ value: Int16) throws { put(try number(value, at: scalarPath)) }
    mutating func encode(_ value: Int32) throws { put(try number(value, at: scalarPath)) }
    mutating func encode(_ value: Int64) throws { put(try number(value, at: scalarPath)) }
    mutating func encode(_ value: UInt) throws { put(try number(value, at: scalarPath)) }
    mutating func encode(_ value: UInt8) throws { put(try number(value, at: scalarPath)) }
    mutating func encode(_ value: UInt16) throws { put(try number(value, at: scalarPath)) }
    mutating func encode(_ value: UInt32) throws { put(try number(value, at: scalarPath)) }
    mutating func encode(_ value: UInt64) throws { put(try number(value, at: scalarPath)) }
}

private struct NodeEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return UnkeyedNodeContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleNodeContainer(node: node, codingPath: codingPath)
    }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue, _ key: Key) { node.member(key.stringValue).storage = .scalar(value) }
    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try number(value, at: path(key)), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try number(Double(value), at: path(key)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(try number(value, at: path(key)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(try number(value, at: path(key)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(try number(value, at: path(key)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(try number(value, at: path(key)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(try number(value, at: path(key)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(try number(value, at: path(key)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(try number(value, at: path(key)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(try number(value, at: path(key)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(try number(value, at: path(key)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(try number(value, at: path(key)), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try value.encode(to: NodeEncoder(node: node.member(key.stringValue), codingPath: path(key)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = node.member(key.stringValue)
        child.makeObject()
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, codingPath: path(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.member(key.stringValue)
        child.makeArray()
        return UnkeyedNodeContainer(node: child, codingPath: path(key))
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.member("super"), codingPath: codingPath + [JSONIndexKey(stringValue: "super")])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.member(key.stringValue), codingPath: path(key))
    }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer, ScalarNodeContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var count: Int { node.count }

    private var nextPath: [any CodingKey] { codingPath + [JSONIndexKey(intValue: count)] }
    var scalarPath: [any CodingKey] { nextPath }
    func put(_ value: JSONValue) { node.appendItem().storage = .scalar(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = nextPath
        try value.encode(to: NodeEncoder(node: node.appendItem(), codingPath: path))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        let child = node.appendItem()
        child.makeObject()
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        let child = node.appendItem()
        child.makeArray()
        return UnkeyedNodeContainer(node: child, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        return NodeEncoder(node: node.appendItem(), codingPath: path)
    }
}

private struct SingleNodeContainer: SingleValueEncodingContainer, ScalarNodeContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    var scalarPath: [any CodingKey] { codingPath }
    func put(_ value: JSONValue) { node.storage = .scalar(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
    }
}
