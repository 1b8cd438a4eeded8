import LocationCore

/// Reads any `Decodable` value from the project's `JSONValue`, without
/// Foundation (the counterpart of `JSONValueEncoder`). Failures are the
/// standard `DecodingError`s with the coding path; `describe(_:)` turns one
/// into a sentence that names where in the document it went wrong.
public struct JSONValueDecoder: Sendable {
    /// A decoder.
    public init() {}

    /// Decodes a `T` from `value`.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try T(from: ValueDecoder(value: value, codingPath: []))
    }

    /// `at clients[0].reduced.random: random state must be four hexadecimal words`.
    public static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func place(_ path: [any CodingKey]) -> String {
            var text = ""
            for key in path {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return text.isEmpty ? "the top level" : text
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "at \(place(context.codingPath)): expected \(Self.name(of: type)); \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "at \(place(context.codingPath)): expected \(Self.name(of: type)), found null"
        case .keyNotFound(let key, let context):
            return "at \(place(context.codingPath)): \"\(key.stringValue)\" is missing"
        case .dataCorrupted(let context):
            return "at \(place(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Double.Type, is Float.Type: "a number"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt64.Type, is UInt32.Type: "an integer"
        default: "\(type)"
        }
    }
}

/// The scalar conversions every container shares.
private enum Scalar {
    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a Boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    static func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
        if value == .null {
            return .valueNotFound(type, .init(codingPath: path, debugDescription: "found null"))
        }
        return .typeMismatch(type, .init(codingPath: path, debugDescription: "found \(kind(value))"))
    }

    static func bool(_ value: JSONValue, _ path: [any CodingKey]) throws -> Bool {
        guard case .bool(let b) = value else { throw mismatch(Bool.self, value, path) }
        return b
    }

    static func string(_ value: JSONValue, _ path: [any CodingKey]) throws -> String {
        guard case .string(let s) = value else { throw mismatch(String.self, value, path) }
        return s
    }

    static func double(_ value: JSONValue, _ path: [any CodingKey]) throws -> Double {
        guard case .number(let n) = value else { throw mismatch(Double.self, value, path) }
        return n
    }

    static func integer<T: FixedWidthInteger>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) throws -> T {
        guard case .number(let n) = value else { throw mismatch(type, value, path) }
        guard let exact = T(exactly: n) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: path, debugDescription: "\(n) is not a whole number that fits \(type)"))
        }
        return exact
    }
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw Scalar.mismatch([String: JSONValue].self, value, codingPath)
        }
        return KeyedDecodingContainer(KeyedValueContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw Scalar.mismatch([JSONValue].self, value, codingPath) }
        return UnkeyedValueContainer(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(value: value, codingPath: codingPath)
    }
}

private struct KeyedValueContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let codingPath: [any CodingKey]
    private let members: [String: JSONValue]
    let allKeys: [Key]

    init(members list: [(String, JSONValue)], codingPath: [any CodingKey]) {
        var members: [String: JSONValue] = [:]
        var keys: [Key] = []
        // The first of a repeated key wins, as JSONValue's subscript reads it.
        for (key, value) in list where members[key] == nil {
            members[key] = value
            if let k = Key(stringValue: key) { keys.append(k) }
        }
        self.members = members
        self.allKeys = keys
        self.codingPath = codingPath
    }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func value(_ key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
        }
        return value
    }

    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key) == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try Scalar.bool(value(key), path(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try Scalar.string(value(key), path(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try Scalar.double(value(key), path(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try Scalar.double(value(key), path(key))) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try Scalar.integer(type, value(key), path(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try Scalar.integer(type, value(key), path(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try Scalar.integer(type, value(key), path(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try Scalar.integer(type, value(key), path(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try Scalar.integer(type, value(key), path(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try Scalar.integer(type, value(key), path(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try Scalar.integer(type, value(key), path(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try Scalar.integer(type, value(key), path(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try Scalar.integer(type, value(key), path(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try Scalar.integer(type, value(key), path(key)) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try T(from: ValueDecoder(value: value(key), codingPath: path(key)))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value: value(key), codingPath: path(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: value(key), codingPath: path(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: members["super"] ?? .null, codingPath: codingPath + [JSONIndexKey(stringValue: "super")])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: members[key.stringValue] ?? .null, codingPath: path(key))
    }
}

private struct UnkeyedValueContainer: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(items: [JSONValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private var path: [any CodingKey] { codingPath + [JSONIndexKey(intValue: currentIndex)] }

    private mutating func next(_ type: Any.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: path, debugDescription: "the array has only \(items.count) items"))
        }
        defer { currentIndex += 1 }
        return items[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { let p = path; return try Scalar.bool(next(type), p) }
    mutating func decode(_ type: String.Type) throws -> String { let p = path; return try Scalar.string(next(type), p) }
    mutating func decode(_ type: Double.Type) throws -> Double { let p = path; return try Scalar.double(next(type), p) }
    mutating func decode(_ type: Float.Type) throws -> Float { let p = path; return Float(try Scalar.double(next(type), p)) }
    mutating func decode(_ type: Int.Type) throws -> Int { let p = path; return try Scalar.integer(type, next(type), p) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { let p = path; return try Scalar.integer(type, next(type), p) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { let p = path; return try Scalar.integer(type, next(type), p) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { let p = path; return try Scalar.integer(type, next(type), p) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { let p = path; return try Scalar.integer(type, next(type), p) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { let p = path; return try Scalar.integer(type, next(type), p) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { let p = path; return try Scalar.integer(type, next(type), p) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { let p = path; return try Scalar.integer(type, next(type), p) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { let p = path; return try Scalar.integer(type, next(type), p) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { let p = path; return try Scalar.integer(type, next(type), p) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let p = path
        return try T(from: ValueDecoder(value: next(type), codingPath: p))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let p = path
        return try ValueDecoder(value: next(type), codingPath: p).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let p = path
        return try ValueDecoder(value: next([JSONValue].self), codingPath: p).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let p = path
        return ValueDecoder(value: try next(JSONValue.self), codingPath: p)
    }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try Scalar.bool(value, codingPath) }
    func decode(_ type: String.Type) throws -> String { try Scalar.string(value, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try Scalar.double(value, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { Float(try Scalar.double(value, codingPath)) }
    func decode(_ type: Int.Type) throws -> Int { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try Scalar.integer(type, value, codingPath) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: ValueDecoder(value: value, codingPath: codingPath))
    }
}
