/*
 * CGPS — the raw connections to gpsd a raw_log asks for (cgps.h, "Raw
 * connections"): a plain TCP connect, no libgps. What is sent on them and how
 * gpsd's lines are told from the receiver's bytes is the gpsd source's.
 */
#define _GNU_SOURCE
#include "cgps.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double monotonic_ms(void)
{
    struct timespec now;
    (void)clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec * 1000.0 + (double)now.tv_nsec / 1e6;
}

/* One address: 0 and *fd connected, or an errno. */
static int connect_one(const struct addrinfo *address, int wake_fd, double deadline, int *fd)
{
    int s = socket(address->ai_family, address->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, address->ai_protocol);
    if (s < 0)
        return errno;
    int status = connect(s, address->ai_addr, address->ai_addrlen) == 0 ? 0 : errno;
    while (status == EINPROGRESS || status == EINTR) {
        struct pollfd waits[2] = {
            {.fd = s, .events = POLLOUT, .revents = 0},
            {.fd = wake_fd, .events = POLLIN, .revents = 0},
        };
        double left = deadline - monotonic_ms();
        if (left <= 0) {
            status = ETIMEDOUT;
            break;
        }
        int ready = poll(waits, wake_fd >= 0 ? 2 : 1, (int)(left + 1));
        if (ready < 0 && errno != EINTR) {
            status = errno;
            break;
        }
        if (ready <= 0)
            continue;
        if (wake_fd >= 0 && (waits[1].revents & POLLIN) != 0) {
            status = ECANCELED;
            break;
        }
        int error = 0;
        socklen_t length = sizeof error;
        if (getsockopt(s, SOL_SOCKET, SO_ERROR, &error, &length) != 0)
            error = errno;
        status = error;
    }
    if (status != 0) {
        (void)close(s);
        return status;
    }
    /* As cgps_open: a vanished remote gpsd is noticed in about 25 s. */
    int on = 1, idle = 10, interval = 5, count = 3;
    (void)setsockopt(s, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
    (void)setsockopt(s, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    (void)setsockopt(s, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
    (void)setsockopt(s, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
    *fd = s;
    return 0;
}

int cgps_raw_connect(const char *host, const char *port, int wake_fd, int timeout_ms, int *fd)
{
    *fd = -1;
    if (host == NULL || port == NULL)
        return EINVAL;
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_protocol = IPPROTO_TCP;
    struct addrinfo *addresses = NULL;
    int resolved = getaddrinfo(host, port, &hints, &addresses);
    if (resolved != 0)
        return resolved == EAI_SYSTEM ? (errno != 0 ? errno : EIO) : (resolved < 0 ? resolved : -resolved);
    double deadline = monotonic_ms() + (timeout_ms > 0 ? timeout_ms : 0);
    int status = ENOENT;
    for (const struct addrinfo *address = addresses; address != NULL; address = address->ai_next) {
        status = connect_one(address, wake_fd, deadline, fd);
        if (status == 0 || status == ECANCELED || status == ETIMEDOUT)
            break;
    }
    freeaddrinfo(addresses);
    return status;
}

const char *cgps_raw_strerror(int code)
{
    if (code < 0)
        return gai_strerror(code);
    if (code == 0)
        return "no error";
    return strerror(code);
}
