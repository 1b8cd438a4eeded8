import LocationCore
import LocationValues

/// `state.json` as bytes: the engine's `SavedState` through its JSON form
/// (SavedState+JSON.swift) and the project's JSON codec — one compact line
/// and a newline, keys in a fixed order, so the same state always gives the
/// same bytes.
public enum StateCodec {
    /// Why bytes are not a saved state, as a sentence.
    public struct DecodeError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, e.g. `not JSON (unexpected byte at byte 12)`.
        public var description: String
    }

    /// The state file's bytes for `state`.
    public static func encode(_ state: SavedState) -> [UInt8] {
        Array((state.json.serialized + "\n").utf8)
    }

    /// The saved state in `bytes`, or why there is none.
    public static func decode(_ bytes: [UInt8]) throws(DecodeError) -> SavedState {
        var skipped: [SavedStateError] = []
        let state = try decode(bytes, skipped: &skipped)
        if let first = skipped.first { throw DecodeError(description: "not a locationd state: \(first)") }
        return state
    }

    /// The saved state in `bytes` read client by client: a client that cannot be read is added to
    /// `skipped` (naming where) and left out, the others kept; only a file whose top cannot be
    /// read is no state at all.
    public static func decode(_ bytes: [UInt8], skipped: inout [SavedStateError]) throws(DecodeError) -> SavedState {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw DecodeError(description: "not JSON (\(error))")
        }
        do throws(SavedStateError) {
            return try SavedState(json: value, skipped: &skipped)
        } catch {
            throw DecodeError(description: "not a locationd state: \(error)")
        }
    }
}
