import LocationCore
import LocationProtocol
import Testing

/// Every cell of the roles × commands table (docs/protocol.md, "Roles"):
/// the operator, the app of `survey`, and anyone else, against every request.
struct ControlRoleTests {
    static let operatorRole = ControlRole(isOperator: true)
    static let surveyApp = ControlRole(isOperator: false, apps: ["survey"])
    static let anyone = ControlRole(isOperator: false)

    /// Every request, for `survey` and for another client, with whether the app of survey may send it.
    static let table: [(ControlRequest.Operation, appMay: Bool)] = [
        (.hello, true), (.status(client: nil), true), (.status(client: "survey"), true), (.prompts, true),
        (.watch(client: "survey"), true), (.watch(client: nil), true),
        (.command(.session(client: "survey", inUse: true)), true), (.command(.session(client: "survey", inUse: false)), true),
        (.command(.request(client: "survey", kind: .whileUsing)), true),
        (.command(.requestFullAccuracy(client: "survey", purpose: "survey")), true),
        (.command(.start(client: "survey")), true), (.command(.stop(client: "survey")), true),
        (.command(.locate(client: "survey", timeout: nil)), true),
        (.command(.session(client: "logger", inUse: true)), false), (.command(.request(client: "logger", kind: .always)), false),
        (.command(.requestFullAccuracy(client: "logger", purpose: "x")), false), (.command(.start(client: "logger")), false),
        (.command(.stop(client: "logger")), false), (.command(.locate(client: "logger", timeout: 5)), false),
        (.command(.answer(client: "survey", answer: .allow)), false), (.command(.authorize(client: "survey", status: .always)), false),
        (.command(.accuracy(client: "survey", full: true)), false), (.command(.share(client: "survey")), false),
        (.command(.reset(client: "survey")), false), (.command(.services(on: false)), false),
    ]

    @Test(arguments: table)
    func eachRoleMaySendWhatTheTableSays(operation: ControlRequest.Operation, appMay: Bool) {
        #expect(Self.operatorRole.permits(operation))
        #expect(Self.surveyApp.permits(operation) == appMay)
        let read = operation.access == .read
        #expect(Self.anyone.permits(operation) == read)
        #expect(Self.operatorRole.refusal(ControlRequest(operation), group: "locationd") == nil)
    }

    @Test func theUserSideIsRefusedSayingOnlyTheOperatorMay() throws {
        let request = ControlRequest(id: 4, .command(.answer(client: "survey", answer: .allow)))
        let error = try #require(Self.surveyApp.refusal(request, group: "locationd"))
        #expect(error.code == .notAuthorized && error.id == 4)
        #expect(error.message.contains("user's side") && error.message.contains("root and members of the socket group locationd"))
    }

    @Test func anotherClientsAppSideIsRefusedSayingWhoseAppMay() throws {
        let request = ControlRequest(.command(.stop(client: "logger")))
        let error = try #require(Self.surveyApp.refusal(request, group: nil))
        #expect(error.message.contains("only logger's app (app_users, app_groups or app_units in [client.logger]) and root"))
    }

    @Test func theAppSideWordsAreTheCommandsTheTableGivesTheApp() {
        let appSide = ControlRequest.commandNames.filter { name in
            Self.table.contains { operation, appMay in
                guard case .command(let command) = operation else { return false }
                return command.name == name && appMay
            }
        }
        #expect(appSide.sorted() == ControlRole.appSideCommandNames.sorted())
    }

    @Test func anAppsOwnLocationEventsReachItAndNoOthers() {
        let filter = Disclosure(tier: .unprivileged, services: true, apps: ["survey"])
        func delivery(to client: String) -> ControlEvent {
            var record = LogRecordTests.tokyo
            record.client = client
            return ControlEvent(location: record)
        }
        let own = delivery(to: "survey")
        let other = delivery(to: "logger")
        #expect(filter.allows(own) && !filter.allows(other))
        #expect(!Disclosure(tier: .unprivileged, services: false, apps: ["survey"]).allows(own))
        #expect(!filter.showsPositions)
    }
}
