import LocationProtocol
import LocationValues

/// The effects of engine inputs, in order, kept so that a fix delivered to
/// many clients costs a few bytes per client: a delivery is an `Item` naming
/// the client by its place in `names` and the fix by its place in `fixes`
/// (a fix delivered at full accuracy to every client is stored once), with no
/// `String` or `Fix` copied per client. Every other effect is kept as it is.
/// `effects` gives the same list as `[Effect]`.
///
/// The engine's owners (`EffectCarrier` in the daemon and in a replay) reuse
/// one list per input: `removeAll(keepingCapacity:)`, then
/// `Engine.handle(_:now:into:)`.
public struct EffectList: Sendable {
    /// One effect: a delivery, or any other effect (at `others[index]`).
    public enum Item: Sendable, Hashable {
        /// A fix for a client.
        case deliver(DeliveryItem)
        /// `others[index]`.
        case other(Int)
    }

    /// A delivery as stored: `names[client]` gets `fixes[fix]` at `accuracy`.
    public struct DeliveryItem: Sendable, Hashable {
        /// The client's place in `names`.
        public var client: Int
        /// The fix's place in `fixes`.
        public var fix: Int
        /// Full or reduced.
        public var accuracy: DeliveredAccuracy
        /// Delivered again (`Delivery.again`).
        public var again = false
    }

    /// The effects in order.
    public private(set) var items: [Item] = []
    /// The effects that are not deliveries.
    public private(set) var others: [Effect] = []
    /// The fixes delivered.
    public private(set) var fixes: [Fix] = []
    /// The clients deliveries name (the engine's clients in config order).
    public private(set) var names: [String] = []
    /// How many items are deliveries.
    public private(set) var deliveries = 0

    /// An empty list.
    public init() {}

    /// `effects` in a list.
    public init(_ effects: [Effect]) {
        for effect in effects { append(effect) }
    }

    /// The effects as values, in order.
    public var effects: [Effect] {
        items.map { item in
            switch item {
            case .deliver(let delivery): .deliver(self.delivery(delivery))
            case .other(let index): others[index]
            }
        }
    }

    /// How many effects.
    public var count: Int { items.count }
    /// Whether there is none.
    public var isEmpty: Bool { items.isEmpty }

    /// The delivery an item stands for.
    public func delivery(_ item: DeliveryItem) -> Delivery {
        Delivery(client: names[item.client], fix: fixes[item.fix], accuracy: item.accuracy, again: item.again)
    }

    /// Appends any effect (a delivery is stored as an item; its client is added to `names` if new).
    public mutating func append(_ effect: Effect) {
        guard case .deliver(let delivery) = effect else {
            items.append(.other(others.count))
            others.append(effect)
            return
        }
        let client: Int
        if let known = names.firstIndex(of: delivery.client) {
            client = known
        } else {
            client = names.count
            names.append(delivery.client)
        }
        let fix = fixes.last == delivery.fix ? fixes.count - 1 : add(delivery.fix)
        deliver(client: client, fix: fix, accuracy: delivery.accuracy, again: delivery.again)
    }

    /// Stores a fix for `deliver(client:fix:accuracy:)`; returns its place in `fixes`.
    public mutating func add(_ fix: Fix) -> Int {
        fixes.append(fix)
        return fixes.count - 1
    }

    /// Appends the delivery of `fixes[fix]` to `names[client]` (`again`: `Delivery.again`).
    public mutating func deliver(client: Int, fix: Int, accuracy: DeliveredAccuracy, again: Bool = false) {
        items.append(.deliver(DeliveryItem(client: client, fix: fix, accuracy: accuracy, again: again)))
        deliveries += 1
    }

    /// Makes `clients` the names deliveries refer to from now on (the engine
    /// calls it at each input with its clients in config order). Deliveries
    /// already in the list keep their clients.
    public mutating func use(names clients: [String]) {
        // Equal arrays sharing storage compare in constant time: the usual case.
        guard clients != names else { return }
        if deliveries > 0 {
            // A reload between inputs that were not cleared: the deliveries become plain effects.
            for i in items.indices {
                guard case .deliver(let item) = items[i] else { continue }
                items[i] = .other(others.count)
                others.append(.deliver(delivery(item)))
            }
            deliveries = 0
        }
        names = clients
    }

    /// Empties the list (the names stay).
    public mutating func removeAll(keepingCapacity: Bool = false) {
        items.removeAll(keepingCapacity: keepingCapacity)
        others.removeAll(keepingCapacity: keepingCapacity)
        fixes.removeAll(keepingCapacity: keepingCapacity)
        deliveries = 0
    }

    /// Room for `count` effects without allocating.
    public mutating func reserveCapacity(_ count: Int) {
        items.reserveCapacity(count)
        others.reserveCapacity(min(count, 16))
        fixes.reserveCapacity(count)
    }
}
