/// Every deliberate disagreement between the NMEA parser and gpsd 3.22's
/// `gpsdecode` over the captures in fixtures/gpsd/gpsd-corpus, file
/// by file and epoch by epoch, with the reason (the kinds in docs/nmea.md §9).
/// `GPSDCorpusTests` fails if one stops happening, so the list stays true.
/// The reasons shared with the captures one folder up are in
/// `NMEAOracleExpectations`.
enum GPSDCorpusExpectations {
    static let firstCycle = """
        gpsd reports nothing until it has learned the sentence that ends the cycle, which takes the \
        first change of time; so the file's epochs before gpsd's first report go unreported
        """
    static let stillLearning = """
        gpsd has reported one epoch but is still learning the cycle (epochs of different shapes, or \
        ten a second), and this one ends before the sentence gpsd then expects last
        """
    static let lastEpoch = """
        the file's last epoch: gpsd reports an epoch when the sentence it learned as the cycle's end \
        arrives or the next epoch begins, and the file ends first; the parser emits it at the end
        """
    static let cycleEndMissing = """
        this epoch lacks the GLL that gpsd learned as the end of the cycle, so gpsd never reports \
        it; its RMC, GGA and GSA state the time and position, and the parser emits it
        """
    static let lastBeforeSplice = """
        the last epoch before a comment where the recording was spliced (`# Sentences with fix begin \
        here`) and the receiver's cycle changes; gpsd never sees the end it learned
        """
    static let noAltitude = """
        the epoch has no sentence with an altitude (RMC or GLL only, or a GGA without one); gpsd \
        carries 3D over from an earlier epoch, the parser reports the 2D position the epoch supports \
        (docs/nmea.md §5)
        """
    static let threeSatellites = """
        GGA with three satellites and an altitude, no GSA: three satellites cannot give a 3D fix, so \
        the parser says 2D; gpsd keeps the 3D of an earlier epoch (docs/nmea.md §5)
        """
    static let ggaZeroSatellites = """
        GGA says quality 2 with 00 satellites while RMC says A and two GSAs say 3D with 11 PRNs; gpsd \
        3.22 takes the 00 as no fix, the parser goes by the receiver's GSA (docs/nmea.md §5)
        """
    static let twoEpochsTenMillisecondsApart = """
        the receiver sends two epochs 10 ms apart (10:21:43.990 and 10:21:44.000) while its DOPs \
        are 99.0; gpsd gives the second the first one's eph from an earlier HDOP, the parser its own
        """
    static let staleNoFixHDOP = """
        the first fix after a no-fix epoch starts with RMC: gpsd's eph is the no-fix epoch's HDOP \
        99.99 (1899.81 m); the parser does not carry a no-fix cycle's DOP into a fix (issue #8) and \
        takes the epoch's own HDOP
        """

    /// Disagreements for one capture (by name).
    static func forFile(_ name: String) -> NMEAOracle.Expectations {
        var e = NMEAOracle.Expectations()
        e.silentBeforeFirstReport = firstCycle
        switch name {
        case "ait250.log":
            e.gpsdSilent = ["19:49:40.000": lastEpoch]
        case "bundg_zeus_9.log":
            e.modes["09:49:45.000"] = noAltitude
        case "ch-4701.log":
            e.gpsdSilent = ["12:35:00.000": lastEpoch]
        case "ch-4711.log":
            for t in [
                "13:56:52.997", "13:56:53.997", "13:56:54.997", "13:56:55.997", "13:56:56.997", "13:56:57.997",
            ] { e.modes[t] = NMEAOracleExpectations.gsaSays2D }
        case "foretrex-201.log":
            for t in [
                "20:00:06.000", "20:00:08.000", "20:00:10.000", "20:00:12.000", "20:00:14.000",
            ] { e.modes[t] = NMEAOracleExpectations.gsaSays2D }
            e.gpsdSilent = ["20:00:16.000": lastEpoch]
        case "furuno_gl_ga.log":
            for t in [
                "12:02:14.000", "12:02:15.000", "12:02:16.000", "12:02:17.000", "12:02:18.000", "12:02:19.000",
                "12:02:20.000", "12:02:21.000", "12:02:22.000", "12:02:23.000", "12:02:24.000", "12:02:25.000",
                "12:02:26.000", "12:02:27.000", "12:02:28.000",
            ] { e.modes[t] = ggaZeroSatellites }
        case "gp-320fw-2019-03-28.log":
            e.gpsdSilent = ["16:45:19.990": cycleEndMissing]
        case "humminbird-M37.log":
            for t in [
                "19:41:05.000", "19:41:06.000", "19:41:07.000", "19:41:09.000", "19:41:10.000", "19:41:11.000",
                "19:41:13.000", "19:41:15.000", "19:41:17.000", "19:41:19.000", "19:41:21.000", "19:41:22.000",
                "19:41:23.000", "19:41:14.000", "19:41:18.000", "19:41:12.000", "19:41:16.000",
            ] { e.modes[t] = noAltitude }
            e.gpsdSilent = ["19:41:04.000": stillLearning]
        case "iTrek.log":
            for t in [
                "04:58:50.000", "04:58:52.000", "04:58:59.000", "04:59:16.000", "04:59:18.000", "04:59:23.000",
            ] { e.modes[t] = noAltitude }
        case "motorola-t805.log":
            for t in [
                "21:26:25.000", "21:26:29.000", "21:26:30.000", "21:26:31.000",
            ] { e.modes[t] = threeSatellites }
        case "mtk-3301.log":
            e.modes["08:14:39.000"] = NMEAOracleExpectations.gsaSays2D
            for t in ["08:14:37.000", "08:14:38.000"] { e.modes[t] = threeSatellites }
        case "mtk-3329.log":
            for t in [
                "10:21:28.000", "10:21:29.000", "10:21:30.000", "10:21:31.000",
            ] { e.modes[t] = NMEAOracleExpectations.gsaSays2D }
        case "neo-m8n.log":
            e.gpsdSilent = ["17:19:48.000": lastEpoch]
        case "quectel.log":
            for t in [
                "02:20:22.000", "02:20:23.000", "02:20:24.000", "02:20:25.000", "02:20:26.000", "02:20:27.000",
                "02:20:28.000", "02:20:29.000", "02:20:30.000", "02:20:31.000", "02:20:32.000", "02:20:33.000",
                "02:20:34.000", "02:20:35.000", "02:20:36.000", "02:20:37.000", "02:20:38.000", "02:20:47.000",
                "02:20:48.000", "02:20:49.000", "02:20:50.000", "02:20:51.000", "02:20:52.000", "02:20:53.000",
                "02:20:54.000", "02:20:55.000", "02:20:56.000", "02:20:57.000", "02:20:58.000", "02:20:59.000",
                "02:21:00.000", "02:21:01.000", "02:21:02.000",
            ] { e.modes[t] = NMEAOracleExpectations.gsaSays2D }
        case "rgm3800.log":
            e.modes["10:25:24.342"] = NMEAOracleExpectations.gsaSays2D
        case "sl869.log":
            for t in ["10:21:43.990", "10:21:44.000"] { e.modes[t] = NMEAOracleExpectations.gsaSays2D }
            e.eph["10:21:44.000"] = twoEpochsTenMillisecondsApart
        case "st-teseo-liv3f.log":
            e.gpsdSilent = ["20:35:20.000": lastEpoch]
        case "telit-pls83-w.log":
            for t in [
                "04:35:40.000", "04:35:41.000", "04:35:42.000", "04:35:43.000", "04:35:44.000", "04:35:45.000",
                "04:35:46.000", "04:35:47.000", "04:35:48.000",
            ] { e.modes[t] = NMEAOracleExpectations.gsaSays2D }
        case "tn204.log":
            for t in ["23:01:50.000", "23:01:52.000", "23:01:54.000"] { e.modes[t] = noAltitude }
        case "tomtom-mkII.log":
            for t in ["17:57:38.000", "17:57:39.000"] { e.modes[t] = NMEAOracleExpectations.gsaSays2D }
        case "ublox-lea-5h.log":
            e.modes["08:55:20.000"] = noAltitude
            e.gpsdSilent = ["08:37:36.000": lastBeforeSplice]
        case "unicore-um621.log":
            e.eph["00:07:10.000"] = staleNoFixHDOP
        case "venus634lp.log":
            e.gpsdSilent = ["08:50:38.000": lastEpoch]
        default:
            break
        }
        return e
    }
}
