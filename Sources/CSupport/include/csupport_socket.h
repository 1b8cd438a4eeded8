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

#endif
