#define _GNU_SOURCE
#include "csupport_socket.h"

#include <errno.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS 59
#endif

int csupport_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    if (length != sizeof credentials) {
        errno = EPROTO;
        return -1;
    }
    *pid = (int32_t)credentials.pid;
    *uid = (uint32_t)credentials.uid;
    *gid = (uint32_t)credentials.gid;
    return 0;
}

int csupport_peer_groups(int fd, uint32_t *groups, int *count) {
    if (*count < 0) {
        errno = EINVAL;
        return -1;
    }
    socklen_t length = (socklen_t)((size_t)*count * sizeof(gid_t));
    // gid_t is 32 bits on Linux, so the caller's uint32_t array is the kernel's layout.
    _Static_assert(sizeof(gid_t) == sizeof(uint32_t), "gid_t is 32 bits on Linux");
    if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &length) != 0) {
        if (errno == ERANGE) *count = (int)(length / sizeof(gid_t));
        return -1;
    }
    *count = (int)(length / sizeof(gid_t));
    return 0;
}

int csupport_accept_nonblocking(int fd) {
    return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int csupport_wake_fd(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}
