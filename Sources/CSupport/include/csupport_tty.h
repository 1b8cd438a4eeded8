// CSupport, serial lines: termios raw mode at a baud rate, and pseudo-terminal
// pairs (openpty) that stand in for a receiver in tests.
#ifndef CSUPPORT_TTY_H
#define CSUPPORT_TTY_H

#include <stddef.h>

/// 1 if `baud` (bits per second, e.g. 9600) is a rate termios can set, else 0.
int csupport_tty_baud_supported(int baud);

/// Puts the terminal `fd` in raw mode (cfmakeraw: no echo, no line editing,
/// no CR/LF translation, 8N1), ignores modem control lines, reads return as
/// soon as a byte is there, and sets input and output speed to `baud`.
/// Returns 0, or -1 with errno set (EINVAL for an unsupported baud; ENOTTY
/// if `fd` is not a terminal).
int csupport_tty_make_raw(int fd, int baud);

/// The input speed of terminal `fd` in bits per second, or -1.
int csupport_tty_speed(int fd);

/// 1 if terminal `fd` is in raw mode (no canonical input, echo or CR/LF
/// translation), 0 if not, -1 on error.
int csupport_tty_is_raw(int fd);

/// Opens a pseudo-terminal pair with the kernel's default (cooked) settings:
/// `*controller` is the side a test writes into (the "receiver"), `name`
/// gets the path of the other side (/dev/pts/N), which a source opens like a
/// serial device. `*terminal` is that other side, opened; close it once the
/// source has its own. Both are close-on-exec. Returns 0, or -1 with errno.
int csupport_openpty(int *controller, int *terminal, char *name, size_t name_size);

#endif
