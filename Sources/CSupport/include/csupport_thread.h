// Thread helpers: the parts of pthreads that Swift's Glibc module leaves out
// without _GNU_SOURCE.
#ifndef CSUPPORT_THREAD_H
#define CSUPPORT_THREAD_H

/// Names the calling thread (what top -H, perf and gdb show); the kernel
/// keeps the first 15 bytes. Returns 0, or an errno value.
int csupport_name_thread(const char *name);

#endif
