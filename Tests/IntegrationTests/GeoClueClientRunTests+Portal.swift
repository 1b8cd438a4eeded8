#if canImport(Glibc)
import Glibc
#endif
import LocationCore
import Testing
import TestSupport

/// xdg-desktop-portal's Location sequence (#48 item 5), played by geoclue-client.py in the bed of
/// `GeoClueClientRunTests`: one `GetClient` object for every session of the portal's connection,
/// `DesktopId` "xdg-desktop-portal", a level per session, `Start` per session, `Stop` when a
/// session closes (docs/geoclue.md, "Flatpak apps and the portal").
extension GeoClueClientRunTests {
    /// Two sessions, CITY then EXACT, on the one object: the operator is asked about the portal as
    /// one app; no session rides on a finer level than the CITY one asked; closing one session
    /// leaves the other's positions going, and the last `Stop` stops the object.
    @Test(.timeLimit(.minutes(5)))
    func twoPortalSessionsOnOneObjectNeitherEndsTheOtherNorRidesOnItsLevel() async throws {
        let bed = try await GeoClueBed("portal")
        defer { bed.stop() }
        let name = Self.ownClient("xdg-desktop-portal")
        let portal = try bed.client("xdg-desktop-portal", ["clients=portal", "level=4,8"], label: "portal")
        defer { portal.kill() }
        try #require(
            await waitUntil(timeout: 30) { GeoClueBed.said(portal.stdout).count { $0["started"] != nil } == 2 }, "\(portal.stdout)")
        let paths = Set(GeoClueBed.said(portal.stdout).compactMap { $0["started"]?.stringValue })
        #expect(paths.count == 1, "GetClient gives one connection one object: \(paths)")
        #expect(try await bed.plane.ctl(["prompts"]).stdout.contains(name))
        try await bed.allow(name)
        try #require(
            await waitUntil(timeout: 60) { !GeoClueBed.updates(portal.stdout).isEmpty }, "\(portal.stdout)\n\(bed.daemon.stderr)")
        portal.signal(SIGUSR1)
        try #require(
            await waitUntil(timeout: 30) { GeoClueBed.said(portal.stdout).contains { $0["closed"] != nil } }, "\(portal.stdout)")
        let closed = try #require(GeoClueBed.said(portal.stdout).first { $0["closed"] != nil })
        #expect(closed["active"] == .bool(true), "one session's Stop ends another's: \(portal.stdout)")
        portal.signal(SIGUSR2)
        try #require(
            await waitUntil(timeout: 30) { GeoClueBed.said(portal.stdout).contains { $0["stopped"] != nil } }, "\(portal.stdout)")
        let stopped = try #require(GeoClueBed.said(portal.stdout).first { $0["stopped"] != nil })
        #expect(stopped["active"] == .bool(false), "the last session's Stop stops the object: \(portal.stdout)")
        for line in GeoClueBed.said(portal.stdout) where line["accuracy"] != nil {
            let latitude = line["latitude"]?.numberValue ?? 0
            #expect(line["accuracy"] == .number(2000) && !GeoClueBed.wasSent(latitude: latitude), "\(line)")
        }
    }
}
