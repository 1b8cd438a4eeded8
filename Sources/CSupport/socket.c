#define _GNU_SOURCE
#include "csupport_socket.h"

#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
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

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

int csupport_peer_pidfd(int fd) {
    int pidfd = -1;
    socklen_t length = sizeof pidfd;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &length) != 0) return -1;
    if (length != sizeof pidfd || pidfd < 0) {
        errno = EPROTO;
        return -1;
    }
    return pidfd;
}

int csupport_pidfd_open(int32_t pid) {
    return (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
}

int csupport_pidfd_alive(int pidfd) {
    // A pidfd polls readable once its process has exited, zombie or reaped: a signal 0 would
    // still reach a zombie.
    struct pollfd entry = {.fd = pidfd, .events = POLLIN};
    int ready = poll(&entry, 1, 0);
    if (ready < 0) return -1;
    if (ready > 0 && (entry.revents & POLLNVAL)) {
        errno = EBADF;
        return -1;
    }
    return ready == 0 ? 1 : 0;
}

// The kernel's struct pidfd_info (linux/pidfd.h, first version: 64 bytes);
// Debian's headers may predate it.
struct csupport_pidfd_info {
    uint64_t mask;
    uint64_t cgroupid;
    uint32_t pid, tgid, ppid, ruid, rgid, euid, egid, suid, sgid, fsuid, fsgid;
    int32_t exit_code;
};
_Static_assert(sizeof(struct csupport_pidfd_info) == 64, "PIDFD_INFO_SIZE_VER0 is 64 bytes");
#define CSUPPORT_PIDFD_GET_INFO _IOWR(0xFF, 11, struct csupport_pidfd_info)
#define CSUPPORT_PIDFD_INFO_PID 1ull
#define CSUPPORT_PIDFD_INFO_CREDS 2ull
#define CSUPPORT_PIDFD_INFO_CGROUPID 4ull

int csupport_pidfd_get_facts(int pidfd, csupport_pidfd_facts *facts) {
    struct csupport_pidfd_info info = {0};
    info.mask = CSUPPORT_PIDFD_INFO_PID | CSUPPORT_PIDFD_INFO_CREDS | CSUPPORT_PIDFD_INFO_CGROUPID;
    if (ioctl(pidfd, CSUPPORT_PIDFD_GET_INFO, &info) != 0) return -1;
    // PID and CREDS come with every answer; the cgroup only where the kernel has cgroup2.
    if (!(info.mask & CSUPPORT_PIDFD_INFO_PID) || !(info.mask & CSUPPORT_PIDFD_INFO_CREDS)) {
        errno = EOPNOTSUPP;
        return -1;
    }
    facts->pid = (int32_t)info.tgid;
    facts->ruid = info.ruid;
    facts->euid = info.euid;
    facts->has_cgroup_id = (info.mask & CSUPPORT_PIDFD_INFO_CGROUPID) ? 1 : 0;
    facts->cgroup_id = facts->has_cgroup_id ? info.cgroupid : 0;
    return 0;
}

int csupport_pidfd_cgroup_id(int pidfd, uint64_t *id) {
    csupport_pidfd_facts facts;
    if (csupport_pidfd_get_facts(pidfd, &facts) != 0) return -1;
    if (!facts.has_cgroup_id) {
        errno = EOPNOTSUPP;
        return -1;
    }
    *id = facts.cgroup_id;
    return 0;
}
