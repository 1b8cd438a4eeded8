#define _GNU_SOURCE
#include "csupport_signals.h"

#include <fcntl.h>
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <unistd.h>

#define CSUPPORT_MAX_SIGNAL 65

// Per signal: the pipe to write to (-1: not forwarded). Lock-free atomics
// are safe to read in a signal handler.
static atomic_int forward_fd[CSUPPORT_MAX_SIGNAL] = {0};
static atomic_int forwarding[CSUPPORT_MAX_SIGNAL] = {0};
static struct sigaction saved_action[CSUPPORT_MAX_SIGNAL];

static void forward(int signo) {
    int saved_errno = errno;
    if (signo > 0 && signo < CSUPPORT_MAX_SIGNAL && atomic_load(&forwarding[signo])) {
        unsigned char byte = (unsigned char)signo;
        // A full pipe means the reader already has this signal pending; dropping it is fine.
        ssize_t ignored = write(atomic_load(&forward_fd[signo]), &byte, 1);
        (void)ignored;
    }
    errno = saved_errno;
}

int csupport_signal_forward(int signo, int write_fd) {
    if (signo <= 0 || signo >= CSUPPORT_MAX_SIGNAL || write_fd < 0) {
        errno = EINVAL;
        return -1;
    }
    int expected = 0;
    if (!atomic_compare_exchange_strong(&forwarding[signo], &expected, 2)) {
        errno = EBUSY;
        return -1;
    }
    atomic_store(&forward_fd[signo], write_fd);
    struct sigaction action;
    action.sa_handler = forward;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    // Mark as forwarding before the handler can run.
    atomic_store(&forwarding[signo], 1);
    if (sigaction(signo, &action, &saved_action[signo]) != 0) {
        int saved_errno = errno;
        atomic_store(&forwarding[signo], 0);
        errno = saved_errno;
        return -1;
    }
    return 0;
}

int csupport_signal_restore(int signo) {
    if (signo <= 0 || signo >= CSUPPORT_MAX_SIGNAL || atomic_load(&forwarding[signo]) != 1) {
        errno = EINVAL;
        return -1;
    }
    int result = sigaction(signo, &saved_action[signo], NULL);
    int saved_errno = errno;
    atomic_store(&forwarding[signo], 0);
    errno = saved_errno;
    return result;
}

int csupport_signal_pipe(int fds[2]) {
    return pipe2(fds, O_NONBLOCK | O_CLOEXEC);
}
