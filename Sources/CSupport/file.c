// CSupport, files: see csupport_file.h.
#define _GNU_SOURCE
#include "csupport_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>

int csupport_file_reserve(int fd, int64_t offset, int64_t length) {
    int result;
    do {
        result = fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)length);
    } while (result != 0 && errno == EINTR);
    return result;
}

int64_t csupport_file_size_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_FSIZE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return -1;
    return (int64_t)limit.rlim_cur;
}
