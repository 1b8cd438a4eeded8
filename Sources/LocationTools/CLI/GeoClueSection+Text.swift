import LocationProtocol
import LocationValues

extension GeoClueSection: StatusSectionText {
    /// `GeoClue: serving org.freedesktop.GeoClue2 on the system bus`, or that it is not.
    func headLines(_ report: StatusReport) -> [String] {
        let bus = self.bus == "system" ? "the system bus" : self.bus
        return [
            connected
                ? "GeoClue: serving org.freedesktop.GeoClue2 on \(bus)"
                : "GeoClue: not serving on \(bus) (the bus went away; restart locationd)"
        ]
    }

    /// `  GeoClue app org.gnome.Maps (uid 1000): started by :1.42 (pid 4242, app-….scope)`, or `not started`.
    func clientLines(_ client: String, in report: StatusReport) -> [String] {
        guard let app = clients[client] else { return [] }
        let who = app.uid.map { " (uid \($0))" } ?? ""
        // Every name here is the app's or the bus's choice: escaped, one line whatever it holds.
        let desktopId = PeerText.escaped(app.desktopId)
        guard !app.peers.isEmpty else { return ["  GeoClue app \(desktopId)\(who): not started"] }
        let peers = app.peers.map { peer in
            "\(PeerText.escaped(peer.busName)) (pid \(peer.pid), uid \(peer.uid)" + (peer.unit.map { ", \(PeerText.escaped($0))" } ?? "") + ")"
        }
        return ["  GeoClue app \(desktopId)\(who): started by " + peers.joined(separator: ", ")]
    }
}
