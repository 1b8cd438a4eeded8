import LocationCore
import LocationProtocol
import LocationValues

/// Representative engine values for protocol and renderer tests, shared by
/// the core's and the tools' tests.
public enum Samples {
    public static let t0 = UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 12, minute: 0, second: 3)

    public static let whileUsingPrompt = Prompt(client: "logger", kind: .whileUsing, text: "Logs coordinates for field tests")
    public static let fullAccuracyPrompt = Prompt(client: "survey", kind: .fullAccuracy, text: "Precise track", purpose: "survey")

    public static let lastFix = Fix(
        time: t0 - 2, mode: .threeD, latitude: 52.3765432, longitude: 4.8954321, altitude: 3.25,
        horizontalError: 4.8, verticalError: 7.5, speed: 1.25, course: 270.5, satellitesUsed: 9)

    public static let delivering = ClientStatus(
        authorization: ClientAuthorization(client: "logger", status: .whileUsing, stored: .whileUsing, once: true),
        inUse: true, updating: true, locatePending: false, prompt: nil, delivering: true,
        reason: "logger is authorized while in use and is in use.", suggestion: nil, lastDelivered: t0 - 2,
        deliveredCount: 12, lastDeliveredAge: 2)

    public static let denied = ClientStatus(
        authorization: ClientAuthorization(client: "tracker", status: .never, stored: .never),
        inUse: true, updating: true, locatePending: false, prompt: nil, delivering: false,
        reason: "tracker is set to never.", suggestion: .authorize(client: "tracker", status: .whileUsing), lastDelivered: nil,
        deliveredCount: 0, drops: trackerDrops)

    public static var trackerDrops: DropCounters {
        var drops = DropCounters()
        drops[.notAuthorized] = 52
        drops[.unusable] = 3
        return drops
    }

    public static let asking = ClientStatus(
        authorization: ClientAuthorization(
            client: "survey", status: .whileUsing, stored: .whileUsing, accuracy: .reduced),
        inUse: true, updating: false, locatePending: true, prompt: fullAccuracyPrompt, delivering: false,
        reason: "survey is not updating.", suggestion: .start(client: "survey"), lastDelivered: nil, deliveredCount: 0)

    public static let servicesOff = ClientStatus(
        authorization: ClientAuthorization(
            client: "logger", status: .never, stored: .always, provisional: true,
            accuracy: .temporaryFull(purpose: "survey"), reason: .servicesOff),
        inUse: false, updating: true, locatePending: false, prompt: whileUsingPrompt, delivering: false,
        reason: "Location Services are off.", suggestion: .services(on: true), lastDelivered: t0 - 3600, deliveredCount: 3)

    public static let status = {
        var status = EngineStatus(
            services: true, source: .fix, lastFix: lastFix, lastFixAge: 2, clients: [delivering, denied, asking])
        status.timeJumps = 2
        status.lastTimeJump = TimeJump(from: t0 - 60, to: t0 - 3180, at: 0)
        status.lastTimeJumpAge = 180
        return status
    }()

    public static let report = StatusReport(status: status, time: t0, sourceName: "gpsd 127.0.0.1:2947")

    /// One event of every kind.
    public static let events: [ControlEvent] = [
        ControlEvent(
            .authorization(ClientAuthorization(client: "logger", status: .whileUsing, stored: .ask, once: true)),
            time: t0),
        ControlEvent(.authorization(servicesOff.authorization), time: t0 + 1),
        ControlEvent(.prompt(whileUsingPrompt, open: true), time: t0),
        ControlEvent(.prompt(fullAccuracyPrompt, open: false), time: nil),
        ControlEvent(.error(client: "logger", code: .locationUnknown, message: "no fix for 5 s"), time: t0),
        ControlEvent(.error(client: "logger", code: .denied, message: ""), time: t0),
        ControlEvent(.source(.noFix), time: t0),
        ControlEvent(.timeJump(TimeJump(from: t0, to: t0 - 3120, at: 0)), time: t0),
        ControlEvent(
            location: LogRecord(
                time: t0 + 1, latitude: 52.3765432, longitude: 4.8954321, horizontalError: 4.8,
                accuracy: .full, client: "logger")),
        ControlEvent(
            .use(
                UseChange(
                    client: "logger", kind: .stop, inUse: true, updating: false, locatePending: false,
                    message: "logger stopped updating; its pending locate is cancelled")),
            time: t0),
        ControlEvent(
            state: StateSaveStatus(ok: false, path: "/s/state.json", error: "EROFS", since: t0, unsaved: ["x"]),
            time: t0),
        ControlEvent(
            .receiver(.init(from: "/dev/ttyUSB0", to: "/dev/ttyACM0", reason: .silent(seconds: 3))), time: t0),
        ControlEvent(.receiver(.init(from: "/dev/ttyACM0", to: "/dev/ttyUSB0", reason: .better(metres: 12.5))), time: t0),
        ControlEvent(
            location: LogRecord(
                time: t0 + 2, latitude: 52.3765432, longitude: 4.8954321, horizontalError: 4.8,
                device: "/dev/ttyUSB0", accuracy: .full, client: "logger")),
        ControlEvent(
            .receiver(.init(from: "/dev/ttyACM0", to: "/dev/ttyUSB0", reason: .outranksAtStart(seconds: 0.5, metres: 4))),
            time: t0),
    ]

    /// A full record in Tokyo.
    public static let tokyoTime = UTCTime.seconds(year: 2026, month: 3, day: 14, hour: 23, minute: 50, second: 1)

    public static var tokyo: LogRecord {
        LogRecord(
            time: tokyoTime, latitude: 35.681199, longitude: 139.7670669, altitude: 40, horizontalError: 17.1,
            verticalError: 27.6, speed: 0.26, course: 90, mode: .threeD, accuracy: .full, client: "logger")
    }
}
