// Umbrella header for Debian's libgps-dev. Only Sources/CGPS includes it.
#include <gps.h>
