#!/usr/bin/env python3
"""Writes one NMEA epoch (GGA, GSA, RMC) a second to the path given, the time
the wall clock's at the start plus one second an epoch (no second skipped), the latitude 48°07.100' north plus a thousandth of a minute
per epoch (48.118333 + n/60000), the longitude 11°31.324' east, until killed.
The GeoClue tests' live receiver: each epoch is new to the engine.

With `walk` after the path, the position walks instead: each epoch moves by
the next of WALK's steps (north, east) in ten-thousandths of a minute, from
the same start, and each epoch's latitude and longitude, as written, are
printed on a line of their own before the epoch is written (the steps'
distances are the test's to work out)."""
import sys
import time


def sentence(body):
    checksum = 0
    for byte in body.encode():
        checksum ^= byte
    return "$%s*%02X\r\n" % (body, checksum)


# Steps of 0.2 to 11 m, north and east, so a distance threshold is crossed at uneven counts.
WALK = [(20, 0), (5, 30), (40, 10), (10, 0), (3, 60), (25, 25), (60, 5), (8, 12)]

out = open(sys.argv[1], "w")
walking = sys.argv[2:] == ["walk"]
north = east = 0
n = 0
start = time.time()
while True:
    # Stamped by count from the start, paced to it: a wake-up that comes late (a loaded machine)
    # writes the next epoch at once instead of skipping a second. Stamping each epoch with the
    # clock and sleeping a second after it let the stamps drift past a second boundary now and then,
    # and a client's log showed a fix missing that the daemon was never sent.
    now = time.gmtime(start + n)
    clock = time.strftime("%H%M%S", now) + ".00"
    date = time.strftime("%d%m%y", now)
    if walking:
        step = WALK[n % len(WALK)]
        north, east = north + step[0], east + step[1]
        lat = "48%07.4f" % (7.1 + north / 10000)
        lon = "011%07.4f" % (31.324 + east / 10000)
        # Printed before it is written: whatever the daemon read is in the output already.
        print(lat, lon, flush=True)
    else:
        lat = "4807.%03d" % (100 + n % 900)
        lon = "01131.324"
    out.write(sentence("GPGGA,%s,%s,N,%s,E,1,08,0.9,545.4,M,46.9,M,," % (clock, lat, lon)))
    out.write(sentence("GPGSA,A,3,05,07,12,30,,,,,,,,,1.5,0.9,1.2"))
    out.write(sentence("GPRMC,%s,A,%s,N,%s,E,0.5,54.7,%s,,,A" % (clock, lat, lon, date)))
    out.flush()
    n += 1
    time.sleep(max(0.0, start + n - time.time()))
