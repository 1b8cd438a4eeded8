#!/usr/bin/python3
"""Independent figures for the tests of `locationctl summary`, `plot` and
`export --line` (Tests/IntegrationTests/TrackViewTests.swift).

    trackcheck.py summary GAP LOG...   the summary's figures as JSON, from GeographicLib
    trackcheck.py svg FILE             parse an SVG as XML; its element counts as JSON
    trackcheck.py png FILE             decode a PNG (stdlib zlib); pixel counts as JSON
    trackcheck.py geojson FILE         read a GeoJSON line export with python3-geojson

GeographicLib is Debian's python3-geographiclib (scripts/packages.txt);
nothing here shares code with locationd.
"""

import json
import os
import statistics
import struct
import sys
import zlib



def summary(gap, logs):
    from geographiclib.geodesic import Geodesic
    records = []
    size = 0
    for log in logs:
        size += os.path.getsize(log)
        with open(log, encoding='utf-8') as f:
            for line in f:
                if line.strip():
                    records.append(json.loads(line))
    records.sort(key=lambda r: r['time'])   # ISO 8601 UTC with milliseconds sorts as text
    distance = 0.0
    gaps = []
    from datetime import datetime

    def seconds(text):
        return datetime.strptime(text, '%Y-%m-%dT%H:%M:%S.%fZ').timestamp()
    for a, b in zip(records, records[1:]):
        if a['accuracy'] == b['accuracy'] and a['client'] == b['client']:
            distance += Geodesic.WGS84.Inverse(a['lat'], a['lon'], b['lat'], b['lon'])['s12']
        if seconds(b['time']) - seconds(a['time']) > gap:
            gaps.append({'start': a['time'], 'end': b['time']})
    hacc = sorted(r['hAcc'] for r in records if 'hAcc' in r)
    result = {'fixes': len(records), 'distance_m': distance, 'gaps': gaps, 'bytes': size}
    if records:
        result['start'] = records[0]['time']
        result['end'] = records[-1]['time']
    if len(hacc) > 1:
        result['hacc_p50'] = statistics.median(hacc)
        result['hacc_p95'] = statistics.quantiles(hacc, n=100, method='inclusive')[94]
    print(json.dumps(result))


def svg(path):
    import xml.etree.ElementTree as ET
    root = ET.parse(path).getroot()
    ns = '{http://www.w3.org/2000/svg}'
    counts = {}
    for element in root.iter():
        name = element.tag.replace(ns, '')
        counts[name] = counts.get(name, 0) + 1
    refs = [v for e in root.iter() for k, v in e.attrib.items() if k.endswith('href')]
    print(json.dumps({'root': root.tag, 'counts': counts, 'external': refs,
                      'title': root.findtext(ns + 'title')}))


def png(path):
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    pos, idat = 8, b''
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, colour, _, _, interlace = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    assert depth == 8 and colour in (2, 6) and interlace == 0, 'unexpected PNG layout'
    channels = 4 if colour == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    rows = []
    i = 0
    for _ in range(height):
        kind = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(line)
        previous = line
    colours = {}
    for line in rows:
        for x in range(0, stride, channels):
            key = '#%02x%02x%02x' % (line[x], line[x + 1], line[x + 2])
            colours[key] = colours.get(key, 0) + 1
    print(json.dumps({'width': width, 'height': height, 'colours': colours}))


def geojson_line(path):
    import geojson
    with open(path, encoding='utf-8') as f:
        document = geojson.load(f)
    assert document.is_valid, document.errors()
    features = []
    for feature in document['features']:
        geometry = feature['geometry']
        features.append({'type': geometry['type'], 'valid': geometry.is_valid,
                         'coordinates': geometry['coordinates'], 'properties': feature['properties']})
    print(json.dumps({'type': document['type'], 'features': features}))


if __name__ == '__main__':
    command = sys.argv[1]
    if command == 'summary':
        summary(float(sys.argv[2]), sys.argv[3:])
    elif command == 'svg':
        svg(sys.argv[2])
    elif command == 'png':
        png(sys.argv[2])
    elif command == 'geojson':
        geojson_line(sys.argv[2])
    else:
        sys.exit('unknown command ' + command)
