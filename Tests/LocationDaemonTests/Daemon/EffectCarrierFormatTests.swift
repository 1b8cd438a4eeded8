import LocationCore
import LocationProtocol
import LocationDaemon
import Testing
import TestSupport

/// A fix delivered to several clients is formatted once per accuracy; every
/// line is still exactly the record's own encoding.
@Suite(.timeLimit(.minutes(10))) struct EffectCarrierFormatTests {
    private static let clients = """
        [client.a]
        log = a.jsonl
        authorization = always

        [client.b]
        log = b.jsonl
        authorization = always

        [client.c]
        log = c.jsonl
        authorization = always
        """

    @Test func sharedLinesAreByteForByteTheRecordsOwn() throws {
        let dir = try ScratchDirectory("format")
        let config = try daemonConfig(in: dir, clients: Self.clients)
        let carrier = EffectCarrier(logs: try ClientLogs(config: config))
        let names = config.clients.map(\.name)
        var expected: [String: [UInt8]] = [:]
        for i in 0..<3 {
            let full = walkFix(i, metres: Double(i) * 10)
            var coarse = full
            coarse.latitude += 0.01
            let deliveries = [
                Delivery(client: names[0], fix: full, accuracy: .full),
                Delivery(client: names[1], fix: full, accuracy: .full),
                Delivery(client: names[2], fix: coarse, accuracy: .reduced),
                Delivery(client: names[1], fix: coarse, accuracy: .reduced),
            ]
            carrier.carry(deliveries.map { .deliver($0) }, eventTime: 0)
            for delivery in deliveries {
                expected[delivery.client, default: []] += try #require(LogRecord(delivery: delivery)).line()
            }
        }
        carrier.logs.closeAll()
        for (name, file) in zip(names, ["a.jsonl", "b.jsonl", "c.jsonl"]) {
            #expect(try dir.read("log/" + file) == expected[name])
        }
        #expect(carrier.tally.delivered[names[1]] == 6)
    }
}
