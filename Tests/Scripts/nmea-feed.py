#!/usr/bin/env python3
"""Writes one NMEA epoch (GGA, GSA, RMC) a second to the path given, the time
the wall clock's, the latitude 48°07.100' north plus a thousandth of a minute
per epoch (48.118333 + n/60000), the longitude 11°31.324' east, until killed.
The GeoClue tests' live receiver: each epoch is new to the engine."""
import sys
import time


def sentence(body):
    checksum = 0
    for byte in body.encode():
        checksum ^= byte
    return "$%s*%02X\r\n" % (body, checksum)


out = open(sys.argv[1], "w")
n = 0
while True:
    now = time.gmtime()
    clock = time.strftime("%H%M%S", now) + ".00"
    date = time.strftime("%d%m%y", now)
    lat = "4807.%03d" % (100 + n % 900)
    out.write(sentence("GPGGA,%s,%s,N,01131.324,E,1,08,0.9,545.4,M,46.9,M,," % (clock, lat)))
    out.write(sentence("GPGSA,A,3,05,07,12,30,,,,,,,,,1.5,0.9,1.2"))
    out.write(sentence("GPRMC,%s,A,%s,N,01131.324,E,0.5,54.7,%s,,,A" % (clock, lat, date)))
    out.flush()
    n += 1
    time.sleep(1)
