// CGPS: the shim over libgps. (Filled in by the fix-sources work.)
#ifndef CGPS_H
#define CGPS_H
int cgps_api_major(void);
#endif
