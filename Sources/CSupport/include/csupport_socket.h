// Socket helpers for locationd's control server and locationctl: the parts of
// the Linux socket API that Swift's Glibc module leaves out without
// _GNU_SOURCE (struct ucred, SO_PEERGROUPS, accept4, eventfd).
#ifndef CSUPPORT_SOCKET_H
#define CSUPPORT_SOCKET_H

#include <stdint.h>

/// The peer of a connected Unix socket as the kernel recorded it when it
/// connected (SO_PEERCRED): process ID, effective user and group IDs.
/// Returns 0, or -1 with errno set.
int csupport_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid);

/// The peer's supplementary groups when it connected (SO_PEERGROUPS, Linux
/// 4.13 and later). On entry *count is the capacity of `groups`; on success
/// it is the number stored. Returns 0; or -1 with errno ERANGE and *count set
/// to the number needed when `groups` is too small, ENOPROTOOPT when the
/// kernel does not support it, or another errno.
int csupport_peer_groups(int fd, uint32_t *groups, int *count);

/// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC. Returns the new descriptor, or
/// -1 with errno set.
int csupport_accept_nonblocking(int fd);

/// A non-blocking, close-on-exec eventfd with counter 0, for waking a poll
/// loop from other threads. Returns the descriptor, or -1 with errno set.
int csupport_wake_fd(void);

/// A pidfd for the peer of a connected Unix socket, the very process that
/// connected (SO_PEERPIDFD, Linux 6.5 and later). Returns the descriptor
/// (close-on-exec), or -1 with errno set (ENOPROTOOPT: the kernel has none).
int csupport_peer_pidfd(int fd);

/// pidfd_open(2) on `pid` (Linux 5.3 and later): the process that has the
/// pid now, which may not be the one that had it before. Returns the
/// descriptor, or -1 with errno set.
int csupport_pidfd_open(int32_t pid);

/// Whether the process of `pidfd` is still running (the pidfd polls readable
/// once it has exited, a zombie not yet reaped included): 1 yes, 0 it has
/// exited, -1 with errno when the kernel cannot say.
int csupport_pidfd_alive(int pidfd);

/// What the kernel says of the live process of a pidfd (PIDFD_GET_INFO).
typedef struct csupport_pidfd_facts {
    /// Its process ID in locationd's pid namespace.
    int32_t pid;
    /// Its real and effective user IDs now.
    uint32_t ruid;
    uint32_t euid;
    /// Whether `cgroup_id` was given: the inode of its cgroup2 directory.
    int has_cgroup_id;
    uint64_t cgroup_id;
} csupport_pidfd_facts;

/// The process of `pidfd` as the kernel has it now, from the PIDFD_GET_INFO
/// ioctl (Linux 6.13 and later), which needs no access to /proc: its pid,
/// uids and cgroup. Returns 0; or -1 with errno set: ESRCH when the process
/// has exited, ENOTTY or EINVAL when the kernel has no such ioctl.
int csupport_pidfd_get_facts(int pidfd, csupport_pidfd_facts *facts);

/// The cgroup ID (the inode of its cgroup2 directory) of the process of
/// `pidfd`, from the PIDFD_GET_INFO ioctl (csupport_pidfd_facts). Returns 0,
/// or -1 with errno set.
int csupport_pidfd_cgroup_id(int pidfd, uint64_t *id);

#endif
