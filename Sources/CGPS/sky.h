/*
 * The copy of a SKY's satellites out of libgps (sky.c). Private to CGPS.
 */
#ifndef CGPS_SKY_H
#define CGPS_SKY_H

#include <gps.h>

#include "cgps.h"

/* Sets report->sky_time_* from `skyview_time` (when set) and copies the
 * satellites of `skyview[]` that have a PRN into report->satellites, at most
 * CGPS_SATELLITES_MAX, setting report->satellite_count; copies none when
 * the SKY listed no satellites (satellites_visible 0). The caller has
 * cleared the report up to `satellites`. */
void cgps_sky_copy(const struct gps_data_t *gps, cgps_report *report);

#endif /* CGPS_SKY_H */
