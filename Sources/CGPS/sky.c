/*
 * A SKY's time and satellites, from libgps's gps_data_t into the shim's
 * report (sky.h). See include/cgps.h, "skyview", for what libgps leaves where.
 */
#include "sky.h"

#include <math.h>

/* A SKY's time and satellites: every slot of skyview[] with a PRN, in order,
 * at most CGPS_SATELLITES_MAX. */
void cgps_sky_copy(const struct gps_data_t *gps, cgps_report *report)
{
    if (gps->skyview_time.tv_sec > 0 && gps->skyview_time.tv_nsec >= 0 && gps->skyview_time.tv_nsec < 1000000000L) {
        report->sky_time_sec = (int64_t)gps->skyview_time.tv_sec;
        report->sky_time_nsec = (int32_t)gps->skyview_time.tv_nsec;
    }
    /* satellites_visible counts the entries with a PRN, not the array's length: an entry
     * without one in the middle would hide the last. libgps fills the whole array for
     * each SKY (entries past the list get its defaults, PRN 0), so every slot is read. */
    if (gps->satellites_visible <= 0)
        return;
    int count = 0;
    for (int i = 0; i < MAXCHANNELS && count < CGPS_SATELLITES_MAX; i++) {
        const struct satellite_t *from = &gps->skyview[i];
        if (from->PRN <= 0)
            continue;
        cgps_satellite *to = &report->satellites[count++];
        to->prn = from->PRN;
        to->elevation = isfinite(from->elevation) ? from->elevation : NAN;
        to->azimuth = isfinite(from->azimuth) ? from->azimuth : NAN;
        to->ss = isfinite(from->ss) && from->ss >= 0 ? from->ss : NAN;
        to->used = from->used;
        to->gnssid = from->gnssid;
        to->svid = from->svid;
    }
    report->satellite_count = count;
}
