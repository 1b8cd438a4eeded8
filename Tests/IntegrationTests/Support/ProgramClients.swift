import LocationCore
import LocationValues
import TestSupport

/// A python `gps.gps()` session (python3-gps) against a program socket:
/// `tcp PORT` or `unix PATH` (libgps-based clients reach only TCP, so the
/// Unix socket is handed to the module's own socket), printing the class of
/// every report and, for a TPV, its fields as JSON, until COUNT TPVs came or
/// SECONDS passed.
let pythonGPSSession = #"""
    import gps, json, socket, sys, time
    kind, where, count, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    if kind == "tcp":
        session = gps.gps(host="127.0.0.1", port=int(where))
    else:
        session = gps.gps(host=None, port=None)
        session.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        session.sock.connect(where)
    session.stream(gps.WATCH_ENABLE | gps.WATCH_JSON)
    def known(x):
        return None if x != x else x  # NaN, the module's unknown, is not JSON
    deadline = time.monotonic() + seconds
    tpvs = 0
    while tpvs < count and time.monotonic() < deadline:
        if not session.waiting(timeout=0.2):
            continue
        if session.read() == -1:
            break
        report = session.data
        cls = report.get("class") if hasattr(report, "get") else None
        if cls == "TPV":
            tpvs += 1
            fix = session.fix
            print(json.dumps({"class": "TPV", "lat": known(fix.latitude), "lon": known(fix.longitude),
                              "time": fix.time, "mode": fix.mode, "altMSL": known(fix.altMSL),
                              "speed": known(fix.speed), "track": known(fix.track), "eph": report.get("eph")}), flush=True)
        elif cls is not None:
            print(json.dumps({"class": cls, "message": report.get("message")}), flush=True)
    """#

/// Reads a Unix socket for SECONDS and writes what came to FILE (an NMEA reader such as GeoClue's nmea-socket source).
let pythonSocketReader = #"""
    import socket, sys, time
    path, out, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.settimeout(0.2)
    def known(x):
        return None if x != x else x  # NaN, the module's unknown, is not JSON
    deadline = time.monotonic() + seconds
    with open(out, "wb") as f:
        while time.monotonic() < deadline:
            try:
                data = s.recv(65536)
            except socket.timeout:
                continue
            if not data:
                break
            f.write(data)
            f.flush()
    """#

/// The JSON objects of a stream of lines (gpspipe -w, the python session); other lines skipped.
func jsonObjects(_ text: String) -> [JSONValue] {
    text.split(whereSeparator: \.isNewline).compactMap { try? JSONValue.parse(String($0)) }
}
