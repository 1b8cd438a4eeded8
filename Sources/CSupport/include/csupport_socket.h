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

/// Whether the process of `pidfd` is still running (pidfd_send_signal with
/// signal 0): 1 yes, 0 it has exited, -1 with errno when the kernel cannot say.
int csupport_pidfd_alive(int pidfd);

/// The cgroup ID (the inode of its cgroup2 directory) of the process of
/// `pidfd`, from the PIDFD_GET_INFO ioctl (Linux 6.13 and later), which
/// needs no access to /proc. Returns 0, or -1 with errno set.
int csupport_pidfd_cgroup_id(int pidfd, uint64_t *id);

#endif
