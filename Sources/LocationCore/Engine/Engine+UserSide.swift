/// The user side of SPEC §3.2: answering a pending prompt.
extension Engine {
    mutating func answerPrompt(
        _ i: Int, _ answer: Answer, precise: Bool?, now: Double, effects: inout [Effect]
    ) -> Outcome {
        let name = clients[i].settings.name
        if clients[i].restricted { return .failure(restrictedError(i)) }
        guard let prompt = clients[i].prompt else {
            return .failure(CommandError(.noPrompt, "no prompt is pending for \(name)"))
        }
        guard prompt.kind.answers.contains(answer) else {
            return .failure(
                CommandError(
                    .invalidAnswer,
                    "a \(prompt.kind.rawValue) prompt takes \(Self.answerList(prompt.kind)), not \(answer.rawValue)"))
        }
        if precise != nil, !((prompt.kind == .whileUsing || prompt.kind == .always) && answer != .deny) {
            return .failure(
                CommandError(
                    .invalidArgument,
                    "precise is the Precise switch of a while-using or always prompt, answered allow-once or allow-while-using; a \(prompt.kind.rawValue) prompt answered \(answer.rawValue) has none"
                ))
        }
        clients[i].prompt = nil
        effects.append(.event(.prompt(prompt, open: false)))
        let before = authorization(of: i)
        switch (prompt.kind, answer) {
        case (.whileUsing, .allowWhileUsing):
            setStored(i, .whileUsing)
        case (.always, .allowWhileUsing):
            // As iOS 13+: "Allow While Using App" on an always request gives provisional always.
            setStored(i, .always)
            clients[i].provisional = true
        case (.whileUsing, .allowOnce), (.always, .allowOnce):
            setStored(i, .whileUsing)
            clients[i].once = true
            clients[i].onceDeadline = clients[i].inUse ? nil : now + clients[i].settings.onceGrace
        case (.whileUsing, .deny), (.always, .deny):
            setStored(i, .never)
        case (.alwaysUpgrade, .keepWhileUsing):
            setStored(i, .whileUsing)
        case (.alwaysUpgrade, .changeToAlways):
            setStored(i, .always)
        case (.fullAccuracy, .allow):
            clients[i].temporaryPurpose = prompt.purpose ?? ""
            clients[i].fullDeadline = clients[i].inUse ? nil : now + clients[i].settings.onceGrace
            return .success(
                CommandOutcome(
                    changed: true,
                    message: "\(name): temporary full accuracy (\(prompt.purpose ?? "")) until \(Self.seconds(clients[i].settings.onceGrace)) out of use"))
        case (.fullAccuracy, .deny):
            return .success(CommandOutcome(changed: true, message: "\(name) keeps reduced accuracy; the prompt is closed"))
        case (.share, .allow):
            clients[i].shareConsent = true
            grantOnce(i)
        case (.share, .deny):
            return .success(
                CommandOutcome(
                    changed: true, message: "\(name) stays \(before.statusDescription); the share prompt is closed"))
        case (.whileUsing, _), (.always, _), (.alwaysUpgrade, _), (.fullAccuracy, _), (.share, _):
            preconditionFailure("answer \(answer.rawValue) passed the \(prompt.kind.rawValue) prompt's answer check")
        }
        if let precise {
            // The prompt's Precise switch (iOS 14) sets the accuracy with the grant.
            clients[i].fullAccuracy = precise
            clients[i].temporaryPurpose = nil
            clients[i].fullDeadline = nil
        }
        var message = "\(name): \(before.statusDescription) → \(authorization(of: i).statusDescription)"
        if before.accuracy != clients[i].accuracy { message += ", \(clients[i].accuracy) accuracy" }
        return .success(CommandOutcome(changed: true, message: message))
    }

    mutating func setStored(_ i: Int, _ status: AuthorizationStatus) {
        clients[i].stored = status
        clients[i].once = false
        clients[i].provisional = false
        clients[i].onceDeadline = nil
    }
}
