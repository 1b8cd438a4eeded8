import LocationCore

/// `state.json` as bytes: the engine's `SavedState` through its own `Codable`
/// conformance and the project's JSON codec (one compact line and a newline,
/// keys in a fixed order, so the same state always gives the same bytes).
public enum StateCodec {
    /// Why bytes are not a saved state (or a state cannot be written), as a sentence.
    public struct DecodeError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, e.g. `not JSON (unexpected byte at byte 12)`.
        public var description: String
    }

    /// The state file's bytes for `state`. Throws only for a value JSON cannot
    /// hold (a non-finite number), which the engine never produces.
    public static func encode(_ state: SavedState) throws(DecodeError) -> [UInt8] {
        do {
            let value = try JSONValueEncoder().encode(state)
            return Array((value.serialized + "\n").utf8)
        } catch {
            throw DecodeError(description: "cannot encode the state: \(JSONValueDecoder.describe(error))")
        }
    }

    /// The saved state in `bytes`, or why there is none.
    public static func decode(_ bytes: [UInt8]) throws(DecodeError) -> SavedState {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw DecodeError(description: "not JSON (\(error))")
        }
        do {
            return try JSONValueDecoder().decode(SavedState.self, from: value)
        } catch {
            throw DecodeError(description: "not a locationd state: \(JSONValueDecoder.describe(error))")
        }
    }
}
