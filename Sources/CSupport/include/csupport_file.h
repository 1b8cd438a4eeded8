// CSupport, files: what Glibc's Swift module leaves out of <fcntl.h>.
#ifndef CSUPPORT_FILE_H
#define CSUPPORT_FILE_H

#include <stdint.h>

/// Makes sure the file `fd` has room for `length` bytes from `offset` without
/// changing its size (fallocate with FALLOC_FL_KEEP_SIZE): a write of that
/// many bytes at `offset` then cannot fail for want of space. Retries EINTR.
/// Returns 0, or -1 with errno set (ENOSPC or EDQUOT: no room; EOPNOTSUPP
/// where the file system cannot reserve).
int csupport_file_reserve(int fd, int64_t offset, int64_t length);

/// The soft limit on a file's size for this process (RLIMIT_FSIZE, `ulimit
/// -f`) in bytes, or -1 if there is none.
int64_t csupport_file_size_limit(void);

#endif
