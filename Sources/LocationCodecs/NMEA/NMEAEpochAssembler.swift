import LocationValues

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
///
/// It also holds what is read beside the epochs for the sky view (GSV's satellites in view, GSA's
/// lists of satellites used, the DOPs): the state every row of `NMEAPhrase.table` decodes into.
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

    /// The sentence (key, occurrence) that ended the last epoch as `.newCycle`.
    private var newCycleSplit: (key: UInt64, count: Int)?
    /// Whether the last epoch closed was emitted (it had a time and a date).
    private var closedEmitted = false
    /// Carries the date to epochs without one.
    private var dateReference: NMEADateReference?
    /// DOPs persist across epochs, as gpsd's do.
    private(set) var hdop: Double?
    private(set) var vdop: Double?
    private(set) var pdop: Double?

    /// Satellites in view, from GSV.
    var inView = NMEAInView()
    /// Satellites used, from GSA's lists.
    var usedSatellites = NMEAUsedSatellites()
    /// Sentences decoded or passed over so far (not doubled lines): GSAs with consecutive numbers
    /// make one list.
    private var sentence = 0

    /// The receiver every fix names (`NMEAParser.init(device:)`).
    var device: String?

    private(set) var epochs = 0
    private(set) var usableFixes = 0
    private(set) var undatedEpochs = 0
    private(set) var lateSentences = 0
    /// Sentences of a known type with too few fields (dropped).
    private(set) var malformed = 0
    /// Sentences merged into an epoch and not dropped later as late, and sentences read beside the
    /// epochs (GSV).
    private(set) var used = 0
    /// Of those, timed sentences whose time was unreadable (their other fields count).
    private(set) var unreadableTimes = 0

    init() {}

    /// A sentence of a type the parser does not read went by.
    mutating func passOver() {
        sentence += 1
    }

    /// One accepted sentence of a row of the phrase table.
    mutating func handle(_ phrase: NMEAPhrase, _ fields: NMEAFields, _ emit: (Fix) -> Void) {
        sentence += 1
        guard fields.count >= phrase.minimumCount else {
            malformed += 1
            return
        }
        guard phrase.inEpoch else {
            decode(phrase.decoder, fields)
            used += 1
            return
        }
        let key = NMEAKeyCounts.key(fields[0])
        let limit = cycle.limit(for: key, timed: phrase.isTimed)
        var time: Int64?
        var unreadableTime = false
        if phrase.isTimed {
            let field = fields[phrase.timeField]
            time = field.timeOfDay()
            unreadableTime = time == nil && !field.isEmpty
        }

        if let time {
            if let current = epoch.timeOfDay {
                if !Self.same(current, time) {
                    close(emit, .timeChange)
                } else if counts.count(of: key) >= limit {
                    // The receiver sent this epoch again: stale.
                    close(emit, .stale)
                    late(phrase, fields)
                    return
                }
            } else if lastClosure.isEarly, let closedTime, Self.same(closedTime, time) {
                late(phrase, fields)
                return
            } else if lastClosure == .newCycle, let split = newCycleSplit, let closedTime, Self.same(closedTime, time) {
                // The epoch was ended by one sentence more than the cycle had shown (a second GSA
                // once the receiver has a fix), but its time goes on: it was the same epoch. Let
                // epochs hold that many from now on; if it was emitted, the rest is late (if not —
                // no date yet — this part goes on as the epoch, and may bring the date).
                cycle.splitWasWrong(split.key, count: split.count)
                if closedEmitted {
                    late(phrase, fields)
                    return
                }
            } else if counts.count(of: key) >= limit {
                newCycleSplit = (key, counts.count(of: key) + 1)
                close(emit, .newCycle)
            }
            epoch.timeOfDay = time
            lastClosure = .timeChange
        } else if epoch.sentences == 0 && lastClosure.mayHaveTail {
            // Right after an epoch was emitted early: a sentence that epoch
            // could still have held trails it, and is too late to use.
            if closedCounts.count(of: key) < limit {
                late(phrase, fields)
                return
            }
        } else if counts.count(of: key) >= limit {
            newCycleSplit = (key, counts.count(of: key) + 1)
            close(emit, .newCycle)
        }

        decode(phrase.decoder, fields)
        epoch.sentences += 1
        used += 1
        if unreadableTime { unreadableTimes += 1 }
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
    private mutating func late(_ phrase: NMEAPhrase, _ fields: NMEAFields) {
        lateSentences += 1 + epoch.sentences
        // Those gathered since the epoch ended were counted as used: now they are late.
        used -= epoch.sentences
        if lastClosure == .ender { cycle.enderFailed() }
        let carried = dateReference
        resetEpoch()
        if phrase.datesLate { decode(phrase.decoder, fields) }
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
        closedEmitted = false
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
        if fix.mode == .noFix {
            // DOPs of a cycle without a fix (99.99 while acquiring) are not the next fix's estimate.
            hdop = nil
            vdop = nil
            pdop = nil
        }
        epochs += 1
        if fix.isUsable { usableFixes += 1 }
        closedEmitted = true
        emit(fix)
    }

    private func makeFix(time: Double) -> Fix {
        let mode = epoch.mode
        guard mode == .twoD || mode == .threeD else {
            return Fix(time: time, mode: .noFix, latitude: .nan, longitude: .nan, device: device)
        }
        let differential = epoch.differential
        // gpsd's estimate: the DOPs at the epoch's first position; the epoch's own when none was known
        // then (after a no-fix cycle, say), so a fix with an HDOP is never "accuracy unknown".
        let hdop = epoch.dopsAtFirstPosition?.hdop ?? self.hdop
        let vdop = epoch.dopsAtFirstPosition?.vdop ?? self.vdop
        // The receiver's own estimate for this epoch, when it sent one (SiRF's PSRFEPE), wins over the model.
        let horizontal = epoch.estimatedHorizontalError
            ?? NMEAErrorModel.horizontalError(hdop: hdop, differential: differential)
        let vertical = epoch.estimatedVerticalError
            ?? NMEAErrorModel.verticalError(vdop: vdop, differential: differential)
        return Fix(
            time: time,
            mode: mode,
            latitude: epoch.latitude,
            longitude: epoch.longitude,
            // A 2D fix has no measured altitude (receivers send a held or
            // assumed one), as gpsd reports none for mode 2.
            altitude: mode == .threeD ? epoch.altitude : nil,
            horizontalError: horizontal,
            verticalError: mode == .threeD ? vertical : nil,
            speed: epoch.speed,
            course: epoch.course,
            satellitesUsed: epoch.satellitesUsed,
            device: device
        )
    }

    // MARK: - Decoders (the phrase table's)

    /// The decoder a row of the phrase table names.
    private mutating func decode(_ decoder: NMEAPhrase.Decoder, _ f: NMEAFields) {
        switch decoder {
        case .gga: decodeGGA(f)
        case .rmc: decodeRMC(f)
        case .gsa: decodeGSA(f)
        case .gsv: decodeGSV(f)
        case .gll: decodeGLL(f)
        case .gns: decodeGNS(f)
        case .vtg: decodeVTG(f)
        case .gst: break  // Recognised for the cycle; gpsd derives no estimate from it.
        case .zda: decodeZDA(f)
        case .psrfepe: decodePSRFEPE(f)
        }
    }

    /// `GSV,total,number,inView,{prn,elevation,azimuth,snr}×1…4[,signal[,system]]`: the sky only.
    private mutating func decodeGSV(_ f: NMEAFields) {
        inView.take(f)
    }

    /// `PSRFEPE,time,status,hdop,ehpe,evpe,ehve,ehe` (SiRF): with status `A`, the estimated
    /// horizontal and vertical position errors in metres become the epoch's error estimates, as in
    /// gpsd. A value that is not a positive number is out of its domain and left out (the DOP
    /// model stands). Its HDOP only repeats GSA's and its speed and heading errors have no place
    /// in a fix: not read.
    private mutating func decodePSRFEPE(_ f: NMEAFields) {
        guard f[2].first == UInt8(ascii: "A") else { return }
        if let ehpe = positiveDecimal(f[4]) { epoch.estimatedHorizontalError = ehpe }
        if let evpe = positiveDecimal(f[5]) { epoch.estimatedVerticalError = evpe }
    }

    /// `GGA,time,lat,N,lon,E,quality,sats,hdop,alt,M,sep,M,age,station`
    private mutating func decodeGGA(_ f: NMEAFields) {
        let quality = f[6].integer()
        takeHDOP(f[8])
        if let quality { epoch.differential = quality == 2 }
        guard let quality, quality >= 1, quality <= 6 else {
            epoch.invalidity.insert(.ggaNoFix)
            return
        }
        if setPosition(f, at: 2) {
            epoch.ggaSeen = true
            epoch.ggaSatellites = f[7].integer()
            epoch.ggaAltitude = f[9].isEmpty ? nil : f[9].decimal()
        }
    }

    /// `RMC,time,status,lat,N,lon,E,knots,course,ddmmyy,magvar,E,faa[,navstatus]`
    private mutating func decodeRMC(_ f: NMEAFields) {
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
        // A ZDA in the epoch has the four-digit year: it wins over RMC's two digits.
        if !epoch.dateFromZDA, let day = f[9].dayMonthYear(), let time = f[1].timeOfDay() {
            epoch.dateReference = NMEADateReference(day: day, timeOfDay: time)
        }
        setPosition(f, at: 3)
        takeMotion(knots: f[7], course: f[8])
    }

    /// `GLL,lat,N,lon,E,time,status[,faa]`
    private mutating func decodeGLL(_ f: NMEAFields) {
        let faa: UInt8? = f.count >= 8 ? f[7].first : nil
        guard f[6].first == UInt8(ascii: "A"), faa != UInt8(ascii: "N") else {
            epoch.invalidity.insert(.gllVoid)
            return
        }
        epoch.differential = faa == UInt8(ascii: "D") || faa == UInt8(ascii: "P")
        setPosition(f, at: 1)
    }

    /// `GNS,time,lat,N,lon,E,modes,sats,hdop,alt,sep,age,station[,navstatus]`
    private mutating func decodeGNS(_ f: NMEAFields) {
        let modes = f[6]
        var anyFix = false
        for k in 0..<modes.count where modes[k] != UInt8(ascii: "N") { anyFix = true }
        // Field 13, the NMEA 4.1 navigational status, is left alone: receivers
        // that do not provide one send `V` there with a perfectly good fix.
        guard anyFix else {
            epoch.invalidity.insert(.gnsNoFix)
            return
        }
        takeHDOP(f[8])
        epoch.differential = modes.first == UInt8(ascii: "D") || modes.first == UInt8(ascii: "P")
        if setPosition(f, at: 2) {
            epoch.gnsSeen = true
            epoch.gnsSatellites = f[7].integer()
            epoch.gnsAltitude = f[9].isEmpty ? nil : f[9].decimal()
        }
    }

    /// `GSA,auto,mode,prn×12,pdop,hdop,vdop[,system]`
    private mutating func decodeGSA(_ f: NMEAFields) {
        usedSatellites.take(f, sentence: sentence)
        switch f[2].first {
        case UInt8(ascii: "1"): epoch.invalidity.insert(.gsaNoFix)
        case UInt8(ascii: "2"): epoch.gsaMode = max(epoch.gsaMode, 2)
        case UInt8(ascii: "3"): epoch.gsaMode = 3
        default: break  // `E` (dead reckoning on some chips) or garbage: no statement.
        }
        // Like gpsd, DOPs only from the standard layout (a 24-PRN variant
        // exists whose DOPs gpsd does not read).
        if f.count <= 19 {
            takeHDOP(f[16])
            if let vdop = positiveDecimal(f[17]) { self.vdop = vdop }
            // For the sky view only (status): no estimate is made from it.
            if let pdop = positiveDecimal(f[15]) { self.pdop = pdop }
        }
        for k in 3..<15 where (f[k].integer() ?? 0) > 0 { epoch.gsaSatellites += 1 }
    }

    /// `VTG,course,T,course,M,knots,N,kmh,K[,faa]`
    private mutating func decodeVTG(_ f: NMEAFields) {
        guard !f[1].isEmpty, !f[5].isEmpty else { return }
        if f.count > 9 {
            let faa = f[9].first
            if faa == UInt8(ascii: "N") || faa == UInt8(ascii: "E") { return }
        }
        takeMotion(knots: f[5], course: f[1])
    }

    /// `ZDA,time,dd,mm,yyyy,zone-hours,zone-minutes`
    private mutating func decodeZDA(_ f: NMEAFields) {
        guard let time = f[1].timeOfDay(), let day = f[2].integer(), let month = f[3].integer(),
              f[4].count == 4, let year = f[4].integer(), year >= 1900, year <= 2200,
              let days = NMEAField.days(year: year, month: month, day: day) else { return }
        epoch.dateReference = NMEADateReference(day: days, timeOfDay: time)
        epoch.dateFromZDA = true
    }

    private func positiveDecimal(_ field: NMEAField) -> Double? {
        guard !field.isEmpty, let value = field.decimal(), value > 0, value.isFinite else { return nil }
        return value
    }

    /// An HDOP field: a positive number is the estimate; an empty one or 0.00 says nothing (receivers
    /// write 0.00 for "not computed" beside a valid position: a fix with its estimate unknown, #29);
    /// anything else (negative, unreadable) is out of its domain and the epoch is no fix — an HDOP
    /// that cannot be read must not become "accuracy unknown", which every accuracy gate passes.
    private mutating func takeHDOP(_ field: NMEAField) {
        guard !field.isEmpty else { return }
        if let value = positiveDecimal(field) {
            hdop = value
        } else if field.decimal() == 0 {
            hdop = nil
        } else {
            epoch.invalidity.insert(.outOfDomain)
        }
    }

    /// A position at field `k`; a hemisphere letter other than N/S/E/W makes the epoch no fix.
    @discardableResult
    private mutating func setPosition(_ f: NMEAFields, at k: Int) -> Bool {
        if epoch.setPosition(f, at: k) {
            if epoch.dopsAtFirstPosition == nil { epoch.dopsAtFirstPosition = (hdop, vdop) }
            return true
        }
        let ns = f[k + 1], ew = f[k + 3]
        let letters = (ns.isEmpty || ns.first == UInt8(ascii: "N") || ns.first == UInt8(ascii: "S"))
            && (ew.isEmpty || ew.first == UInt8(ascii: "E") || ew.first == UInt8(ascii: "W"))
        if !letters { epoch.invalidity.insert(.outOfDomain) }
        return false
    }

    /// Speed (knots) and course (degrees true): a negative speed or a course outside [0, 360) is out of
    /// its domain and left out, never logged.
    private mutating func takeMotion(knots: NMEAField, course: NMEAField) {
        if !knots.isEmpty, let value = knots.decimal(), value.isFinite, value >= 0 {
            epoch.speed = value * Self.metresPerSecondPerKnot
        }
        if !course.isEmpty, let value = course.decimal(), value.isFinite, value >= 0, value < 360 {
            epoch.course = value
        }
    }

    /// 1 knot = 1852 m per hour.
    static let metresPerSecondPerKnot = 1852.0 / 3600.0
}
