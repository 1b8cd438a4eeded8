@testable import LocationCore

/// Representative engine values for protocol and renderer tests.
enum Samples {
    static let t0 = UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 12, minute: 0, second: 3)

    static let whileUsingPrompt = Prompt(client: "logger", kind: .whileUsing, text: "Logs coordinates for field tests")
    static let fullAccuracyPrompt = Prompt(client: "survey", kind: .fullAccuracy, text: "Precise track", purpose: "survey")

    static let lastFix = Fix(
        time: t0 - 2, mode: .threeD, latitude: 52.3765432, longitude: 4.8954321, altitude: 3.25,
        horizontalError: 4.8, verticalError: 7.5, speed: 1.25, course: 270.5, satellitesUsed: 9)

    static let delivering = ClientStatus(
        authorization: ClientAuthorization(client: "logger", status: .whileUsing, stored: .whileUsing, once: true),
        inUse: true, updating: true, locatePending: false, prompt: nil, delivering: true,
        reason: "logger is authorized while in use and is in use.", suggestion: nil, lastDelivered: t0 - 2,
        deliveredCount: 12, lastDeliveredAge: 2)

    static let denied = ClientStatus(
        authorization: ClientAuthorization(client: "tracker", status: .never, stored: .never),
        inUse: true, updating: true, locatePending: false, prompt: nil, delivering: false,
        reason: "tracker is set to never.", suggestion: "authorize tracker while-using", lastDelivered: nil,
        deliveredCount: 0, drops: trackerDrops)

    static var trackerDrops: DropCounters {
        var drops = DropCounters()
        drops[.notAuthorized] = 52
        drops[.unusable] = 3
        return drops
    }

    static let asking = ClientStatus(
        authorization: ClientAuthorization(
            client: "survey", status: .whileUsing, stored: .whileUsing, accuracy: .reduced),
        inUse: true, updating: false, locatePending: true, prompt: fullAccuracyPrompt, delivering: false,
        reason: "survey is not updating.", suggestion: "start survey", lastDelivered: nil, deliveredCount: 0)

    static let servicesOff = ClientStatus(
        authorization: ClientAuthorization(
            client: "logger", status: .never, stored: .always, provisional: true,
            accuracy: .temporaryFull(purpose: "survey"), reason: .servicesOff),
        inUse: false, updating: true, locatePending: false, prompt: whileUsingPrompt, delivering: false,
        reason: "Location Services are off.", suggestion: "services on", lastDelivered: t0 - 3600, deliveredCount: 3)

    static let status = {
        var status = EngineStatus(
            services: true, source: .fix, lastFix: lastFix, lastFixAge: 2, clients: [delivering, denied, asking])
        status.timeJumps = 2
        status.lastTimeJump = TimeJump(from: t0 - 60, to: t0 - 3180, at: 0)
        status.lastTimeJumpAge = 180
        return status
    }()

    static let report = StatusReport(status: status, time: t0, sourceName: "gpsd 127.0.0.1:2947")
}
