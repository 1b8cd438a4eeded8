// Async-signal-safe signal forwarding for locationd's SignalSource: the
// handler only writes the signal number, as one byte, to a pipe.
#ifndef CSUPPORT_SIGNALS_H
#define CSUPPORT_SIGNALS_H

/// Installs (with SA_RESTART) a handler for `signo` that writes the signal
/// number as one byte to `write_fd` (a non-blocking pipe the caller keeps
/// open for the life of the process), and saves the previous action.
/// Returns 0, or -1 with errno set (EINVAL for a bad signal, EBUSY if the
/// signal is already forwarded).
int csupport_signal_forward(int signo, int write_fd);

/// Restores the action saved by csupport_signal_forward. Returns 0, or -1
/// with errno set (EINVAL if `signo` is not forwarded).
int csupport_signal_restore(int signo);

/// Makes the pipe for csupport_signal_forward: both ends non-blocking and
/// close-on-exec (pipe2, which Swift's Glibc module does not expose).
/// Returns 0, or -1 with errno set.
int csupport_signal_pipe(int fds[2]);

#endif
