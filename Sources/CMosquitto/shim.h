// Umbrella header for Debian's libmosquitto-dev. Only Sources/CMQTT includes it.
#include <mosquitto.h>
