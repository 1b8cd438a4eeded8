import Testing
import TestSupport
@testable import LocationProtocol

/// #9: what a `watch` reply tells an unprivileged watcher about its stream —
/// which events it will not get, and which it will — names every event kind,
/// including the ones added later (`broker`, `log`).
@Suite struct WithheldNoteTests {
    /// One event of every kind a stream can carry.
    static let everyKind: [ControlEvent] = Samples.events + [
        ControlEvent(
            broker: BrokerStatus(
                client: "fleet", broker: "mqtt://127.0.0.1:1883", topic: "owntracks/board/one", state: .connected, detail: "connected"),
            time: Samples.t0),
        ControlEvent(log: LogWriteChangeTests.change, time: Samples.t0),
    ]

    @Test func theNamesAreEveryKindsName() {
        #expect(Set(Self.everyKind.map(\.name)) == Set(ControlEvent.names))
        #expect(ControlEvent.names.count == Set(ControlEvent.names).count)
    }

    @Test func anUnprivilegedWatcherIsToldWhatItGetsAndWhatNot() throws {
        let filter = Disclosure(tier: .unprivileged, services: true)
        let note = try #require(filter.withheldNote(group: "locationd"))
        #expect(note.events == ["location"])
        #expect(note.code == "not-authorized")
        #expect(note.message.hasPrefix("location events go only to root and members of the socket group locationd; "))
        let carried = try #require(note.message.split(separator: ";").last)
        for event in Self.everyKind {
            let named = carried.contains(event.name)
            #expect(named == filter.allows(event), "\(event.name): in the note \(named), allowed \(filter.allows(event))")
            #expect(note.events.contains(event.name) == !filter.allows(event))
        }
        #expect(carried.hasSuffix("source, receiver, use, broker, log and state events"), "\(carried)")
        #expect(Disclosure(tier: .unprivileged, services: false).withheldNote(group: nil)?.message.hasPrefix(
            "location events go only to root; ") == true)
    }

    @Test func anAppIsToldWhatItGetsNotThatItIsRefused() throws {
        let app = Disclosure(tier: .unprivileged, services: true, apps: ["survey"])
        #expect(app.withheldNote(group: "locationd", watching: "survey") == nil, "nothing is withheld from its own client's watch")
        let note = try #require(app.withheldNote(group: "locationd"))
        #expect(!note.message.contains("which you are"), "\(note.message)")
        #expect(
            note.message.hasPrefix(
                "other clients' location events go only to root and members of the socket group locationd; survey's come to you, its app; "),
            "\(note.message)")
        // Someone else watching survey is still refused its positions.
        #expect(Disclosure(tier: .unprivileged, services: true).withheldNote(group: nil, watching: "survey") != nil)
    }

    @Test func aPrivilegedWatcherGetsNoNote() {
        #expect(Disclosure(tier: .privileged, services: true).withheldNote(group: "locationd") == nil)
        #expect(Disclosure(tier: .privileged, services: false).withheldNote(group: nil) == nil)
    }

    @Test func listsReadAsASentence() {
        #expect(Disclosure.list([]) == "")
        #expect(Disclosure.list(["a"]) == "a")
        #expect(Disclosure.list(["a", "b"]) == "a and b")
        #expect(Disclosure.list(["a", "b", "c"]) == "a, b and c")
    }
}
