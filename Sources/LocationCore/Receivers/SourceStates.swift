import LocationConfig
import LocationProtocol

/// What the daemon keeps per source beside the engine (docs/sources.md, "Several sources"): each
/// source's state as it last reported it and its outage, the combination the engine was given,
/// and which source brought each receiver, under which name. Pure: the owner hands it `now`.
public struct SourceStates: Sendable {
    /// The sources, in config order.
    public let sources: [NamedSource]
    /// Whether there are two or more (only then are receivers' names checked per fix).
    public let several: Bool
    /// Each source's state as it last reported it.
    public private(set) var states: [SourceState]
    /// Each source's outage as it last reported it, and when (the owner's monotonic clock).
    public var outages: [(outage: SourceOutage, at: Double)?]
    /// The combined state the engine was last given.
    public private(set) var combined: SourceState = .connecting
    /// A receiver's name as the engine knows it, by source and name as the source gave it.
    private var names: [SourceDevice: String] = [:]
    /// The source that brought each receiver, by the name the engine knows it by.
    private var owners: [String: Int] = [:]
    /// A sentence on the receiver `receiverName` renamed last, until `takeRenamed()`.
    private var renamed: String?

    private struct SourceDevice: Hashable {
        var index: Int
        var device: String?
    }

    /// Every source connecting, no receiver seen.
    public init(_ sources: [NamedSource]) {
        self.sources = sources
        several = sources.count > 1
        states = Array(repeating: .connecting, count: sources.count)
        outages = Array(repeating: nil, count: sources.count)
    }

    /// Source `index` reports `state`: the combined state to give the engine, or `nil` when the
    /// engine need not hear of it (the combination is unchanged and set by another source).
    public mutating func report(_ state: SourceState, from index: Int) -> SourceState? {
        states[index] = state
        let now = SourceState.combined(states)
        guard now != combined || now == state else { return nil }
        combined = now
        return now
    }

    /// The name the engine knows receiver `device` of source `index` by: as the source names it,
    /// unless another source brought a receiver of that name first; then `NAME:device` (`NAME`
    /// alone for an unnamed one). The first source to bring a name keeps it for the whole run.
    public mutating func receiverName(_ device: String?, from index: Int) -> String? {
        let key = SourceDevice(index: index, device: device)
        if let known = names[key] { return known }
        let plain = device ?? ""
        var name = device
        if let owner = owners[plain], owner != index {
            name = device.map { "\(sources[index].name):\($0)" } ?? sources[index].name
            renamed = "receiver \(device ?? "(unnamed)") of [\(sources[index].section)] is called \(name ?? "") here: "
                + "[\(sources[owner].section)] brought a receiver of that name first"
        }
        names[key] = name
        owners[name ?? ""] = index
        return name
    }

    /// The sentence on a receiver just renamed (for the journal), once.
    public mutating func takeRenamed() -> String? {
        defer { renamed = nil }
        return renamed
    }

    /// How the source that brought receiver `device` is named (`gpsd 127.0.0.1:2947`); with one
    /// source, that one.
    public func source(of device: String) -> String? {
        guard several else { return sources.first?.description }
        return owners[device].map { sources[$0].description }
    }

    /// The receivers source `index` brought, as the engine names them.
    public func receivers(of index: Int) -> [String] {
        owners.filter { $0.value == index }.map(\.key).sorted()
    }

    /// The receivers whose source is at the end of its file (a file followed past its end).
    public var receiversAtEndOfFile: Set<String> {
        Set(states.indices.filter { states[$0] == .endOfFile }.flatMap { receivers(of: $0) })
    }

    /// Source `index`'s outage, grown to `now`.
    public func outage(of index: Int, now: Double) -> SourceOutage? {
        guard index < outages.count, let current = outages[index] else { return nil }
        var grown = current.outage
        grown.seconds += max(0, now - current.at)
        return grown
    }

    /// Every source for `status`, with its counts from `counts(index)`.
    public func statuses(now: Double, counts: (Int) -> SourceCounts?) -> [SourceStatus] {
        sources.indices.map { i in
            SourceStatus(
                name: sources[i].name, description: sources[i].description, state: states[i],
                outage: outage(of: i, now: now), counts: counts(i))
        }
    }
}
