// CSupport, serial lines: see csupport_tty.h.
#include "csupport_tty.h"

#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static speed_t speed_for(int baud) {
    switch (baud) {
    case 1200: return B1200;
    case 2400: return B2400;
    case 4800: return B4800;
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 115200: return B115200;
    case 230400: return B230400;
    case 460800: return B460800;
    case 921600: return B921600;
    default: return B0;
    }
}

int csupport_tty_baud_supported(int baud) {
    return speed_for(baud) != B0;
}

int csupport_tty_make_raw(int fd, int baud) {
    speed_t speed = speed_for(baud);
    if (speed == B0) {
        errno = EINVAL;
        return -1;
    }
    struct termios t;
    if (tcgetattr(fd, &t) != 0) return -1;
    cfmakeraw(&t);
    t.c_cflag |= CLOCAL | CREAD;  // no modem control; enable the receiver
    t.c_cflag &= ~(tcflag_t)CSTOPB;
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    if (cfsetispeed(&t, speed) != 0 || cfsetospeed(&t, speed) != 0) return -1;
    if (tcsetattr(fd, TCSANOW, &t) != 0) return -1;
    return 0;
}

int csupport_tty_speed(int fd) {
    struct termios t;
    if (tcgetattr(fd, &t) != 0) return -1;
    speed_t speed = cfgetispeed(&t);
    static const int rates[] = {1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600};
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
        if (speed_for(rates[i]) == speed) return rates[i];
    }
    return -1;
}

int csupport_tty_is_raw(int fd) {
    struct termios t;
    if (tcgetattr(fd, &t) != 0) return -1;
    return (t.c_lflag & (ICANON | ECHO | ISIG)) == 0 && (t.c_iflag & (ICRNL | INLCR | IGNCR | ISTRIP)) == 0
        && (t.c_oflag & OPOST) == 0;
}

int csupport_openpty(int *controller, int *terminal, char *name, size_t name_size) {
    char path[128];
    if (openpty(controller, terminal, path, NULL, NULL) != 0) return -1;
    (void)fcntl(*controller, F_SETFD, FD_CLOEXEC);
    (void)fcntl(*terminal, F_SETFD, FD_CLOEXEC);
    if (name != NULL && name_size > 0) {
        strncpy(name, path, name_size - 1);
        name[name_size - 1] = '\0';
    }
    return 0;
}
