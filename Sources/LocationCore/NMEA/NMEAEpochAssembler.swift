/// Groups decoded sentences into receiver epochs and turns each epoch into
/// one `Fix`.
///
/// * An epoch is the run of sentences sharing a time of day (GGA, RMC, GLL,
///   GNS; within 10 ms, as gpsd). Untimed sentences (GSA, GST, VTG, ZDA)
///   belong to the epoch in progress.
/// * It ends at the latest when a timed sentence brings a new time, or when a
///   sentence occurs more often than the receiver's learned cycle allows (its
///   epoch-starting sentence was lost). A timed sentence repeating one of the
///   epoch with the same time is a receiver repeating a stale epoch: dropped.
/// * Once the cycle's last sentence is learned (`NMEACycle`), the epoch is
///   emitted as soon as it arrives. Sentences that turn up for an epoch
///   already emitted are dropped and counted as late (a date they carry is
///   still used).
/// * Every epoch with a time and a known date is emitted, in any mode.
struct NMEAEpochAssembler: Sendable {
    /// Two times of day within this many nanoseconds are the same epoch (gpsd: 10 ms).
    static let sameTime: Int64 = 10_000_000

    private(set) var epoch = NMEAEpoch()
    /// Sentences of the epoch in progress, and of the last one closed.
    private var counts = NMEAKeyCounts()
    private var closedCounts = NMEAKeyCounts()
    private var last: (key: UInt64, occurrence: Int) = (0, 0)
    private var cycle = NMEACycle()

    /// Time of day of the last epoch closed, for spotting late sentences.
    private var closedTime: Int64?
    /// How the last epoch ended, until the next epoch gets a time.
    private var lastClosure: Closure = .timeChange

    /// Why an epoch ended.
    private enum Closure {
        /// A timed sentence brought a new time.
        case timeChange
        /// A sentence occurred more often than one epoch holds.
        case newCycle
        /// The learned last sentence of the cycle arrived.
        case ender
        /// A timed sentence repeated one already in the epoch, with the same time.
        case stale
        /// The input went quiet or ended.
        case flush

        /// Ended before a new time was seen: sentences with the old time are late.
        var isEarly: Bool { self == .ender || self == .stale || self == .flush }
        /// Untimed sentences right after it may trail the closed epoch. (After
        /// silence they start the next one.)
        var mayHaveTail: Bool { self == .ender || self == .stale }
        /// The epoch ended on its own: it shows the receiver's cycle.
        var teachesCycle: Bool { self == .timeChange || self == .flush }
    }

    /// Carries the date to epochs without one.
    private var dateReference: NMEADateReference?
    /// DOPs persist across epochs, as gpsd's do.
    private(set) var hdop: Double?
    private(set) var vdop: Double?
    private(set) var pdop: Double?

    private(set) var epochs = 0
    private(set) var usableFixes = 0
    private(set) var undatedEpochs = 0
    private(set) var lateSentences = 0
    private(set) var malformed = 0

    init() {}

    /// One accepted sentence of a type the parser reads.
    mutating func handle(_ type: NMEASentenceType, _ fields: NMEAFields, _ emit: (Fix) -> Void) {
        guard fields.count >= type.minimumCount else {
            malformed += 1
            return
        }
        let key = NMEAKeyCounts.key(fields[0])
        let limit = cycle.limit(for: key, timed: type.isTimed)
        var time: Int64?
        if type.isTimed {
            let field = fields[type.timeField]
            time = field.timeOfDay()
            if time == nil && !field.isEmpty { malformed += 1 }
        }

        if let time {
            if let current = epoch.timeOfDay {
                if !Self.same(current, time) {
                    close(emit, .timeChange)
                } else if counts.count(of: key) >= limit {
                    // The receiver sent this epoch again: stale.
                    close(emit, .stale)
                    late(type, fields)
                    return
                }
            } else if lastClosure.isEarly, let closedTime, Self.same(closedTime, time) {
                late(type, fields)
                return
            } else if counts.count(of: key) >= limit {
                close(emit, .newCycle)
            }
            epoch.timeOfDay = time
            lastClosure = .timeChange
        } else if epoch.sentences == 0 && lastClosure.mayHaveTail {
            // Right after an epoch was emitted early: a sentence that epoch
            // could still have held trails it, and is too late to use.
            if closedCounts.count(of: key) < limit {
                late(type, fields)
                return
            }
        } else if counts.count(of: key) >= limit {
            close(emit, .newCycle)
        }

        merge(type, fields)
        epoch.sentences += 1
        last = (key, counts.add(key))
        // Emit at the learned end of the cycle, unless the epoch could not be
        // emitted yet anyway (no date so far): then a late RMC may still date it.
        if let ender = cycle.ender, ender.key == key, ender.occurrence == last.occurrence, epoch.timeOfDay != nil,
           epoch.dateReference != nil || dateReference != nil {
            close(emit, .ender)
        }
    }

    /// Ends the epoch in progress (input went quiet, or ended).
    mutating func flush(_ emit: (Fix) -> Void) {
        guard epoch.sentences > 0 else { return }
        close(emit, .flush)
    }

    /// Forgets the learned cycle (a device was reopened: maybe another receiver).
    mutating func forgetCycle() {
        cycle.forget()
        lastClosure = .timeChange
    }

    // MARK: - Epoch bookkeeping

    private static func same(_ a: Int64, _ b: Int64) -> Bool {
        let d = a - b
        return d < sameTime && d > -sameTime
    }

    /// A sentence for an epoch already emitted: dropped, with whatever was
    /// gathered since that epoch ended. A date in it is still good.
    private mutating func late(_ type: NMEASentenceType, _ fields: NMEAFields) {
        lateSentences += 1 + epoch.sentences
        if lastClosure == .ender { cycle.enderFailed() }
        let carried = dateReference
        resetEpoch()
        switch type {
        case .rmc: mergeRMC(fields)
        case .zda: mergeZDA(fields)
        default: break
        }
        dateReference = epoch.dateReference ?? carried
        resetEpoch()
        // Stay in "just closed" so that the rest of the tail is dropped too.
        lastClosure = .stale
    }

    private mutating func resetEpoch() {
        epoch = NMEAEpoch()
        counts.removeAll()
        last = (0, 0)
    }

    /// Emits the epoch in progress (when it has a time and a date) and starts
    /// a new one.
    private mutating func close(_ emit: (Fix) -> Void, _ closure: Closure) {
        defer {
            swap(&counts, &closedCounts)
            resetEpoch()
        }
        guard epoch.sentences > 0 else { return }
        if closure.teachesCycle, epoch.timeOfDay != nil {
            cycle.learn(counts, last: last)
        }
        lastClosure = closure
        guard let timeOfDay = epoch.timeOfDay else {
            undatedEpochs += 1
            return
        }
        closedTime = timeOfDay
        guard let reference = epoch.dateReference ?? dateReference else {
            undatedEpochs += 1
            return
        }
        let day = reference.day(for: timeOfDay)
        dateReference = NMEADateReference(day: day, timeOfDay: timeOfDay)
        let time = Double(day * 86_400) + Double(timeOfDay) / 1e9
        let fix = makeFix(time: time)
        epochs += 1
        if fix.isUsable { usableFixes += 1 }
        emit(fix)
    }

    private func makeFix(time: Double) -> Fix {
        let mode = epoch.mode
        guard mode == .twoD || mode == .threeD else {
            return Fix(time: time, mode: .noFix, latitude: .nan, longitude: .nan)
        }
        let differential = epoch.differential
        return Fix(
            time: time,
            mode: mode,
            latitude: epoch.latitude,
            longitude: epoch.longitude,
            // A 2D fix has no measured altitude (receivers send a held or
            // assumed one), as gpsd reports none for mode 2.
            altitude: mode == .threeD ? epoch.altitude : nil,
            horizontalError: NMEAErrorModel.horizontalError(hdop: hdop, differential: differential),
            verticalError: mode == .threeD ? NMEAErrorModel.verticalError(vdop: vdop, differential: differential) : nil,
            speed: epoch.speed,
            course: epoch.course,
            satellitesUsed: epoch.satellitesUsed
        )
    }

    // MARK: - Sentences

    private mutating func merge(_ type: NMEASentenceType, _ f: NMEAFields) {
        switch type {
        case .gga: mergeGGA(f)
        case .rmc: mergeRMC(f)
        case .gll: mergeGLL(f)
        case .gns: mergeGNS(f)
        case .gsa: mergeGSA(f)
        case .gst: break  // Recognised for the cycle; gpsd derives no estimate from it.
        case .vtg: mergeVTG(f)
        case .zda: mergeZDA(f)
        }
    }

    /// `GGA,time,lat,N,lon,E,quality,sats,hdop,alt,M,sep,M,age,station`
    private mutating func mergeGGA(_ f: NMEAFields) {
        let quality = f[6].integer()
        if let hdop = positiveDecimal(f[8]) { self.hdop = hdop }
        if let quality { epoch.differential = quality == 2 }
        guard let quality, quality >= 1, quality <= 6 else {
            epoch.invalidity.insert(.ggaNoFix)
            return
        }
        if epoch.setPosition(f, at: 2) {
            epoch.ggaSeen = true
            epoch.ggaSatellites = f[7].integer()
            epoch.ggaAltitude = f[9].isEmpty ? nil : f[9].decimal()
        }
    }

    /// `RMC,time,status,lat,N,lon,E,knots,course,ddmmyy,magvar,E,faa[,navstatus]`
    private mutating func mergeRMC(_ f: NMEAFields) {
        let status = f[2].first
        let faa: UInt8? = f.count >= 12 ? f[12].first : nil
        guard status == UInt8(ascii: "A") || status == UInt8(ascii: "D"), faa != UInt8(ascii: "N") else {
            epoch.invalidity.insert(.rmcVoid)
            return
        }
        if let faa {
            epoch.differential = faa == UInt8(ascii: "D") || faa == UInt8(ascii: "P")
        } else {
            epoch.differential = status == UInt8(ascii: "D")
        }
        // The date is trusted only from a valid RMC: receivers without a fix
        // send made-up dates (gpsd ignores them too).
        if let day = f[9].dayMonthYear(), let time = f[1].timeOfDay() {
            epoch.dateReference = NMEADateReference(day: day, timeOfDay: time)
        }
        _ = epoch.setPosition(f, at: 3)
        if let knots = f[7].isEmpty ? nil : f[7].decimal() { epoch.speed = knots * Self.metresPerSecondPerKnot }
        if let course = f[8].isEmpty ? nil : f[8].decimal() { epoch.course = course }
    }

    /// `GLL,lat,N,lon,E,time,status[,faa]`
    private mutating func mergeGLL(_ f: NMEAFields) {
        let faa: UInt8? = f.count >= 8 ? f[7].first : nil
        guard f[6].first == UInt8(ascii: "A"), faa != UInt8(ascii: "N") else {
            epoch.invalidity.insert(.gllVoid)
            return
        }
        epoch.differential = faa == UInt8(ascii: "D") || faa == UInt8(ascii: "P")
        _ = epoch.setPosition(f, at: 1)
    }

    /// `GNS,time,lat,N,lon,E,modes,sats,hdop,alt,sep,age,station[,navstatus]`
    private mutating func mergeGNS(_ f: NMEAFields) {
        let modes = f[6]
        var anyFix = false
        for k in 0..<modes.count where modes[k] != UInt8(ascii: "N") { anyFix = true }
        // Field 13, the NMEA 4.1 navigational status, is left alone: receivers
        // that do not provide one send `V` there with a perfectly good fix.
        guard anyFix else {
            epoch.invalidity.insert(.gnsNoFix)
            return
        }
        if let hdop = positiveDecimal(f[8]) { self.hdop = hdop }
        epoch.differential = modes.first == UInt8(ascii: "D") || modes.first == UInt8(ascii: "P")
        if epoch.setPosition(f, at: 2) {
            epoch.gnsSeen = true
            epoch.gnsSatellites = f[7].integer()
            epoch.gnsAltitude = f[9].isEmpty ? nil : f[9].decimal()
        }
    }

    /// `GSA,auto,mode,prn×12,pdop,hdop,vdop[,system]`
    private mutating func mergeGSA(_ f: NMEAFields) {
        switch f[2].first {
        case UInt8(ascii: "1"): epoch.invalidity.insert(.gsaNoFix)
        case UInt8(ascii: "2"): epoch.gsaMode = max(epoch.gsaMode, 2)
        case UInt8(ascii: "3"): epoch.gsaMode = 3
        default: break  // `E` (dead reckoning on some chips) or garbage: no statement.
        }
        // Like gpsd, DOPs only from the standard layout (a 24-PRN variant
        // exists whose DOPs gpsd does not read).
        if f.count <= 19 {
            if let hdop = positiveDecimal(f[16]) { self.hdop = hdop }
            if let vdop = positiveDecimal(f[17]) { self.vdop = vdop }
            // For the sky view only (status): no estimate is made from it.
            if let pdop = positiveDecimal(f[15]) { self.pdop = pdop }
        }
        for k in 3..<15 where (f[k].integer() ?? 0) > 0 { epoch.gsaSatellites += 1 }
    }

    /// `VTG,course,T,course,M,knots,N,kmh,K[,faa]`
    private mutating func mergeVTG(_ f: NMEAFields) {
        guard !f[1].isEmpty, !f[5].isEmpty else { return }
        if f.count > 9 {
            let faa = f[9].first
            if faa == UInt8(ascii: "N") || faa == UInt8(ascii: "E") { return }
        }
        if let course = f[1].decimal() { epoch.course = course }
        if let knots = f[5].decimal() { epoch.speed = knots * Self.metresPerSecondPerKnot }
    }

    /// `ZDA,time,dd,mm,yyyy,zone-hours,zone-minutes`
    private mutating func mergeZDA(_ f: NMEAFields) {
        guard let time = f[1].timeOfDay(), let day = f[2].integer(), let month = f[3].integer(),
              f[4].count == 4, let year = f[4].integer(), year >= 1900, year <= 2200,
              let days = NMEAField.days(year: year, month: month, day: day) else { return }
        epoch.dateReference = NMEADateReference(day: days, timeOfDay: time)
    }

    private func positiveDecimal(_ field: NMEAField) -> Double? {
        guard !field.isEmpty, let value = field.decimal(), value > 0 else { return nil }
        return value
    }

    /// 1 knot = 1852 m per hour.
    static let metresPerSecondPerKnot = 1852.0 / 3600.0
}
