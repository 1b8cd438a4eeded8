/// Runs services together in one task group, as swift-service-lifecycle's
/// `ServiceGroup` does: every service's `run()` is a child task; SIGTERM or
/// SIGINT (or `triggerShutdown()`, or a service that ends or fails on its
/// own) starts a graceful shutdown that asks the services to finish in
/// reverse start order, each one's `run()` having returned before the next
/// is asked; SIGHUP calls `onHangup` and carries on.
public final class ServiceGroup: Sendable {
    /// Why a group stopped: a signal, a request, or a service that ended or failed.
    public enum StopReason: Sendable, CustomStringConvertible {
        /// SIGTERM or SIGINT.
        case signal(Signal)
        /// `triggerShutdown()`.
        case requested
        /// A service's `run()` returned before shutdown.
        case serviceEnded(String)
        /// A service's `run()` threw.
        case serviceFailed(String, String)

        /// For the diagnostics: `SIGTERM`, `the source service failed: …`.
        public var description: String {
            switch self {
            case .signal(let signal): "\(signal)"
            case .requested: "a shutdown request"
            case .serviceEnded(let name): "the \(name) service ended"
            case .serviceFailed(let name, let error): "the \(name) service failed: \(error)"
            }
        }
    }

    /// A service's `run()` threw: the group stopped because of it.
    public struct ServiceFailure: Error, Sendable, CustomStringConvertible {
        /// The service.
        public var service: String
        /// What it threw, as text.
        public var error: String
        /// `the control service failed: …`.
        public var description: String { "the \(service) service failed: \(error)" }
    }

    private enum Outcome: Sendable {
        case finished(Int, String?)
        case stop(StopReason)
        case signalsEnded
    }

    /// The services, in start order.
    public let services: [any Service]
    private let signals: AsyncStream<Signal>?
    private let onHangup: @Sendable () async -> Void
    private let onStopping: @Sendable (StopReason) async -> Void
    private let requests: AsyncStream<Void>
    private let requestContinuation: AsyncStream<Void>.Continuation

    /// A group of `services` (started in this order, stopped in reverse),
    /// driven by `signals` (`nil`: only `triggerShutdown()` stops it).
    /// `onStopping` runs once when shutdown begins, before any service is asked.
    public init(
        services: [any Service], signals: AsyncStream<Signal>?,
        onHangup: @escaping @Sendable () async -> Void = {},
        onStopping: @escaping @Sendable (StopReason) async -> Void = { _ in }
    ) {
        self.services = services
        self.signals = signals
        self.onHangup = onHangup
        self.onStopping = onStopping
        (requests, requestContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks the group to shut down, as SIGTERM would.
    public func triggerShutdown() {
        requestContinuation.yield()
    }

    /// Runs every service until shutdown, then returns why it stopped. Throws
    /// `ServiceFailure` when the shutdown was caused by a service that threw.
    @discardableResult
    public func run() async throws(ServiceFailure) -> StopReason {
        let services = services
        let signals = signals
        let onHangup = onHangup
        let requests = requests
        let (reason, failure) = await withTaskGroup(of: Outcome.self) { group -> (StopReason, ServiceFailure?) in
            for (index, service) in services.enumerated() {
                group.addTask {
                    do {
                        try await service.run()
                        return .finished(index, nil)
                    } catch {
                        return .finished(index, "\(error)")
                    }
                }
            }
            if let signals {
                group.addTask {
                    for await signal in signals {
                        switch signal {
                        case .hangup: await onHangup()
                        case .terminate, .interrupt: return .stop(.signal(signal))
                        }
                    }
                    return .signalsEnded
                }
            }
            group.addTask {
                for await _ in requests { return .stop(.requested) }
                return .signalsEnded
            }

            var finished = Set<Int>()
            var reason: StopReason?
            var failure: ServiceFailure?
            // Until something asks for shutdown (or a service ends by itself).
            while reason == nil, let outcome = await group.next() {
                switch outcome {
                case .stop(let why):
                    reason = why
                case .finished(let index, let error):
                    finished.insert(index)
                    if let error {
                        failure = ServiceFailure(service: services[index].name, error: error)
                        reason = .serviceFailed(services[index].name, error)
                    } else {
                        reason = .serviceEnded(services[index].name)
                    }
                case .signalsEnded:
                    continue
                }
            }
            let why = reason ?? .requested
            await self.onStopping(why)
            // Reverse start order: each service is done before the one started before it is asked.
            for index in services.indices.reversed() where !finished.contains(index) {
                await services[index].shutdown()
                while !finished.contains(index), let outcome = await group.next() {
                    if case .finished(let done, let error) = outcome {
                        finished.insert(done)
                        if let error, failure == nil {
                            failure = ServiceFailure(service: services[done].name, error: error)
                            Diagnostics.daemon.error("\(failure?.description ?? error) (while stopping)")
                        }
                    }
                }
            }
            // The signal and request listeners are all that is left.
            group.cancelAll()
            return (why, failure)
        }
        if let failure { throw failure }
        return reason
    }
}
