/*
 * The shim's own reader for gpsd's TPV lines (tpv.c). Private to CGPS.
 *
 * It takes only the shape gpsd writes: the line starts {"class":"TPV",,
 * then "name":value members with no white space, values that are numbers
 * (at most 18 digits, exponent within ±22), plain strings (no escapes, at
 * most 63 bytes) or gpsd's time string, and ends with } (and gpsd's \r).
 * Members locationd does not read are skipped, whatever their name, but
 * for a second "class" (the shim's guard calls that line unreadable). Any
 * other line returns false untouched, and libgps's unpacker reads it as
 * before: a line this reader takes gives what libgps gives, bit for bit;
 * a line it does not take is libgps's to judge.
 */
#ifndef CGPS_TPV_H
#define CGPS_TPV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgps.h"

/* Fills *fix (as the shim fills it from libgps's fix), *mode with the TPV's
 * "mode" as the line gives it (0 when it has none; *fix keeps only 1...3, as
 * from libgps) and `device` with the TPV's "device" (empty when it has none),
 * and returns true, or returns false and leaves all three alone. `line` is
 * NUL-terminated. Needs no libgps: `locationd replay` reads a gpsd log's
 * TPVs here whether libgps is installed or not. */
bool cgps_tpv_decode(const char *line, cgps_fix *fix, int32_t *mode, char *device, size_t device_size);

#endif /* CGPS_TPV_H */
