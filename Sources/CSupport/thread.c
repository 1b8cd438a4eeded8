#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>

#include "csupport_thread.h"

int csupport_name_thread(const char *name) {
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = '\0';
    return pthread_setname_np(pthread_self(), truncated);
}
