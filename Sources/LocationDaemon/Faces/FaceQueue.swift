import LocationCore
import LocationProtocol

/// Something queued for one client (a delivery, a log record).
protocol ClientItem {
    /// The client it is for.
    var client: String { get }
}

extension Delivery: ClientItem {}
extension LogRecord: ClientItem {}

/// What a face with a thread of its own (the program server, the GeoClue face)
/// takes from the engine's owner: the clients it serves now, their items in
/// delivery order up to `limit`, the clients whose grant changed since, and the
/// waker of the taking thread. Kept inside the face's own `Mutex`, so handing
/// over is an append under a lock and the engine never waits for the thread.
struct FaceQueue<Item: ClientItem> {
    /// What `append` did.
    enum Appended {
        /// Not served now: dropped without counting.
        case ignored
        /// Queued; signal the waker (if any) outside the lock.
        case queued(Wakeup?)
        /// The queue holds `limit` items: dropped, for the face to count.
        case full
    }

    /// The clients served now.
    private(set) var watched: Set<String> = []
    private var pending: [Item] = []
    private var regranted: Set<String> = []
    /// The taking thread's waker (`nil`: none, before it started or after it stopped).
    var waker: Wakeup?
    /// Items queued at most.
    let limit: Int

    /// An empty queue of at most `limit` items.
    init(limit: Int) {
        self.limit = limit
    }

    /// Whether `client` is served now.
    func serves(_ client: String) -> Bool { watched.contains(client) }

    /// Queues `item` if its client is served and there is room.
    mutating func append(_ item: Item) -> Appended {
        guard watched.contains(item.client) else { return .ignored }
        guard pending.count < limit else { return .full }
        pending.append(item)
        return .queued(waker)
    }

    /// `client`'s grant changed; returns the waker to signal.
    mutating func regrant(_ client: String) -> Wakeup? {
        regranted.insert(client)
        return waker
    }

    /// Serves `client` from now on, or no more (its queued items go).
    mutating func setWatched(_ client: String, _ served: Bool) {
        if served {
            watched.insert(client)
        } else {
            watched.remove(client)
            pending.removeAll { $0.client == client }
        }
    }

    /// The items queued and the clients regranted since the last call.
    mutating func take() -> (items: [Item], regranted: Set<String>) {
        defer {
            pending.removeAll(keepingCapacity: true)
            regranted.removeAll()
        }
        return (pending, regranted)
    }
}
