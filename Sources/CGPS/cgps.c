#include "cgps.h"
#include <gps.h>
int cgps_api_major(void) { return GPSD_API_MAJOR_VERSION; }
