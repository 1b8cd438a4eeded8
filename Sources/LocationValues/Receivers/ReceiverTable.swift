/// Something kept per receiver, by the receiver's name ("" for an unnamed
/// one), in the order the receivers were first seen.
///
/// Every fix looks its receiver up here (gpsd's per-receiver epoch assembly,
/// the receiver choice, the time bases), and a board has one receiver or a
/// few (gpsd hotplugs them; a gpsd log in `replay` may name 32): comparing the
/// fix's name with each kept one costs less than hashing it (a replay spent
/// 4 % of its time in `Hasher` when the engine's were dictionaries;
/// docs/performance.md). A slot, once given, stays the receiver's for the
/// table's life.
public struct ReceiverTable<Value: Sendable>: Sendable {
    /// The receivers' names, slot by slot.
    public private(set) var names: [String] = []
    /// What is kept for each, slot by slot.
    package var values: [Value] = []

    /// An empty table.
    public init() {}

    /// The slot of `name`, or `nil` when it has none.
    @inline(__always)
    public func slot(of name: String) -> Int? {
        names.firstIndex(of: name)
    }

    /// The slot of `name`, given one holding `value` when it has none.
    @inline(__always)
    package mutating func slot(of name: String, adding value: @autoclosure () -> Value) -> Int {
        if let slot = slot(of: name) { return slot }
        names.append(name)
        values.append(value())
        return names.count - 1
    }

    /// What is kept for `name`, or `nil` for a name never seen.
    public subscript(name: String) -> Value? {
        slot(of: name).map { values[$0] }
    }
}

extension ReceiverTable: Equatable where Value: Equatable {}
extension ReceiverTable: Hashable where Value: Hashable {}
