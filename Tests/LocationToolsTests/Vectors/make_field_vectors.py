#!/usr/bin/python3
"""Writes field.jsonl and field-expected.json: a field test of known statistics.

Generated with GeographicLib for Python (Debian's python3-geographiclib, 2.0;
any 2.x gives the same answers to far below 1 cm); regenerate with
`/usr/bin/python3 Tests/LocationToolsTests/Vectors/make_field_vectors.py`
(the output goes beside it). The seed is fixed.

field.jsonl is a locationd coordinate log of one client fed by three
receivers around a surveyed mark: /dev/ttyUSB0 (biased 1.5 m towards 40 deg,
about 2 m of scatter), /dev/ttyACM0 (no bias, about 3 m, some fixes without
hAcc, a few reduced-accuracy records, which the statistics leave out), and
records naming no device (about 3 km from the mark, to check the offsets
over a few kilometres). Positions are made with Geodesic.Direct and written
as the log writes them (lat/lon 7 decimals, alt and hAcc 3); every expected
figure is computed from the written values:

  error            Geodesic.Inverse(reference, fix).s12
  east, north      s12*sin(azi1), s12*cos(azi1) (azimuthal equidistant)
  CEP50/95/99      statistics.quantiles(errors, n=100, method="inclusive")
  2DRMS            2*sqrt(mean(error^2))
  bias, bearing    length and atan2(east, north) of the mean (east, north)
  hacc_covers      share of fixes with hAcc where error <= hAcc
  vert_p50/p95     quantiles of |alt - ALT|
  mean reference   mean latitude, mean longitude, mean altitude of the fixes

field-expected.json holds {"mark": {...}, "mean": {...}}, each a map from the
device ("" for none) to its figures, as repr() floats.
"""
import json
import math
import os
import random
import statistics

from geographiclib.geodesic import Geodesic

G = Geodesic.WGS84
rng = random.Random(20261204)
MARK = (35.6811990, 139.7670669, 40.2)
T0 = 1_780_000_000  # 2026-05-28


def q(values, p):
    if len(values) == 1:
        return values[0]
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return cuts[p - 1]


def utc(t):
    import time
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".000Z"


def fixes(device, count, bias, bias_azi, spread, hacc_scale, no_hacc_every, reduced):
    out = []
    # The biased centre, then fixes scattered around it.
    centre = G.Direct(MARK[0], MARK[1], bias_azi, bias) if bias else {"lat2": MARK[0], "lon2": MARK[1]}
    for i in range(count):
        d = abs(rng.gauss(0, spread))
        p = G.Direct(centre["lat2"], centre["lon2"], rng.uniform(0, 360), d)
        rec = {"time": utc(T0 + i), "lat": round(p["lat2"], 7), "lon": round(p["lon2"], 7),
               "alt": round(MARK[2] + rng.gauss(0.8, 3.0), 3)}
        if not (no_hacc_every and i % no_hacc_every == 0):
            rec["hAcc"] = round(abs(rng.gauss(0, spread)) * hacc_scale + 0.5, 3)
        rec["mode"] = 3
        if device:
            rec["device"] = device
        rec["accuracy"] = "reduced" if i in reduced else "full"
        rec["client"] = "field"
        out.append(rec)
    return out


def figures(records, ref, with_bias):
    full = [r for r in records if r["accuracy"] == "full"]
    errors, east, north, covered, with_hacc, vert = [], [], [], 0, 0, []
    for r in full:
        inv = G.Inverse(ref[0], ref[1], r["lat"], r["lon"])
        s, azi = inv["s12"], math.radians(inv["azi1"])
        errors.append(s)
        east.append(s * math.sin(azi))
        north.append(s * math.cos(azi))
        if "hAcc" in r:
            with_hacc += 1
            covered += s <= r["hAcc"]
        if ref[2] is not None and "alt" in r:
            vert.append(abs(r["alt"] - ref[2]))
    out = {"fixes": len(full), "reduced_excluded": len(records) - len(full),
           "cep50_m": q(errors, 50), "cep95_m": q(errors, 95), "cep99_m": q(errors, 99),
           "drms2_m": 2 * math.sqrt(sum(e * e for e in errors) / len(errors))}
    if with_bias:
        me, mn = sum(east) / len(east), sum(north) / len(north)
        out["bias_m"] = math.hypot(me, mn)
        out["bias_bearing_deg"] = math.degrees(math.atan2(me, mn)) % 360
    if with_hacc:
        out["hacc_covers"] = covered / with_hacc
    if vert:
        out["vert_p50_m"] = q(vert, 50)
        out["vert_p95_m"] = q(vert, 95)
    return out


groups = {
    "/dev/ttyUSB0": fixes("/dev/ttyUSB0", 240, 1.5, 40.0, 2.0, 1.1, 0, set()),
    "/dev/ttyACM0": fixes("/dev/ttyACM0", 180, 0, 0, 3.0, 0.7, 7, {5, 50, 51, 120}),
    "": fixes(None, 60, 3000.0, 250.0, 4.0, 1.0, 0, set()),
}
expected = {"mark": {}, "mean": {}}
for device, records in groups.items():
    expected["mark"][device] = figures(records, MARK, True)
    full = [r for r in records if r["accuracy"] == "full"]
    mean = (sum(r["lat"] for r in full) / len(full), sum(r["lon"] for r in full) / len(full),
            sum(r["alt"] for r in full) / len(full))
    expected["mean"][device] = figures(records, mean, False)

here = os.path.dirname(os.path.abspath(__file__))
lines = [r for records in groups.values() for r in records]
lines.sort(key=lambda r: r["time"])
with open(os.path.join(here, "field.jsonl"), "w") as f:
    for r in lines:
        f.write(json.dumps(r, separators=(",", ":")) + "\n")
with open(os.path.join(here, "field-expected.json"), "w") as f:
    json.dump({"reference": {"lat": MARK[0], "lon": MARK[1], "alt": MARK[2]}, **expected}, f, indent=1, sort_keys=True)
    f.write("\n")
