/*
 * CGPS — the shim over libgps. See include/cgps.h for the contract, the
 * gps_read/gps_waiting semantics it relies on, and what changes between
 * libgps API versions.
 */
#define _GNU_SOURCE
#include "cgps.h"
#include "sky.h"
#include "tpv.h"

#include <gps.h>

#include "csupport_library.h"

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <fcntl.h>
#include <stddef.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#if !defined(GPSD_API_MAJOR_VERSION)
#error "<gps.h> defines no GPSD_API_MAJOR_VERSION: this is not gpsd's libgps header. Install libgps-dev."
#elif GPSD_API_MAJOR_VERSION < 11
#error "libgps API older than 11 (gpsd 3.22): the fix structure differs (time types, altitude fields). Build against gpsd >= 3.22's libgps-dev."
#elif GPSD_API_MAJOR_VERSION > 16
#error "libgps API newer than 16 (gpsd 3.27) is unknown to this shim. Read the change list above GPSD_API_MAJOR_VERSION in <gps.h>, check every field cgps.c copies, then widen this range and extend the notes in cgps.h."
#endif

#if defined(USE_QT)
#error "libgps built for Qt keeps a QTcpSocket in gps_fd; CGPS needs the plain-socket build that Debian ships."
#endif

/* Room for one line from gpsd, as libgps 3.22 has (twice its 10 KiB
 * GPS_JSON_RESPONSE_MAX): a line that does not fit ends the session there
 * too, so the two behave alike. */
#define CGPS_LINE_MAX 20480

struct cgps_session {
    struct gps_data_t gps;
    /* Bytes read from gpsd's socket, [start, end) not yet consumed. The shim
     * reads the socket itself instead of through gps_read(): one recv(2) per
     * wakeup takes whatever gpsd sent, every complete line is unpacked from
     * here, and no recv(2) is spent learning that the socket is empty. */
    size_t start;
    size_t end;
    /* The last recv(2) left the socket empty (it returned less than asked):
     * when no complete line is buffered, wait for the socket before reading
     * again instead of asking it for nothing. */
    bool drained;
    /* The receive timeout armed on the socket (SO_RCVTIMEO), in ms; -1: none,
     * a recv(2) blocks until bytes come. Set only when the caller asks for
     * another. */
    int armed_ms;
    char buffer[CGPS_LINE_MAX];
};

int cgps_api_major(void) { return GPSD_API_MAJOR_VERSION; }

int cgps_api_minor(void) { return GPSD_API_MINOR_VERSION; }

/* The library opened, named by the API version of the header it was built
 * against: Debian renames libgps's soname (and its package) with each ABI
 * break, and libgps-dev depends on the libgpsNN it was built with, so the
 * header and the library go together. API 11 is gpsd 3.22 (Debian 12,
 * libgps28); 16 is gpsd 3.27 (libgps32). For another API, build with
 * -Xcc -DCGPS_LIBRARY='"libgps.so.NN"' -Xcc -DCGPS_PACKAGE='"libgpsNN"'. */
#if !defined(CGPS_LIBRARY)
#if GPSD_API_MAJOR_VERSION == 11
#define CGPS_LIBRARY "libgps.so.28"
#define CGPS_PACKAGE "libgps28"
#elif GPSD_API_MAJOR_VERSION == 16
#define CGPS_LIBRARY "libgps.so.32"
#define CGPS_PACKAGE "libgps32"
#else
#error "Which soname does this libgps API have? Build with -Xcc -DCGPS_LIBRARY='\"libgps.so.NN\"' -Xcc -DCGPS_PACKAGE='\"libgpsNN\"' (ls /usr/lib/*/libgps.so.*)."
#endif
#endif
#if !defined(CGPS_PACKAGE)
#define CGPS_PACKAGE "libgps"
#endif

/* Every libgps function the shim calls. */
#define CGPS_FUNCTIONS(X) \
    X(gps_open) \
    X(gps_close) \
    X(gps_stream) \
    X(gps_unpack) \
    X(gps_clear_dop) \
    X(gps_errstr)

/* The table: one pointer per function, typed from its declaration in gps.h
 * (whose prototypes differ between API versions: the type follows the header). */
struct gps_functions {
    CGPS_FUNCTIONS(CSUPPORT_LIBRARY_FIELD)
};

/* Filled once, by `load` under `library_lock`, before `library_loaded` is set
 * (csupport_library_once); read without the lock after that: every session
 * exists only after it. Never unloaded. `release` is libgps's "3.22", the
 * string its VERSION objects carry: exported by libgps.so (gpsd's python
 * module reads it the same way) but declared in no installed header, so
 * optional: NULL when the library does not export it. */
static struct gps_functions lib;
static const char *release;
static bool library_loaded;
static pthread_mutex_t library_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const function_names[] = {CGPS_FUNCTIONS(CSUPPORT_LIBRARY_NAME)};
enum { CGPS_FUNCTION_COUNT = sizeof function_names / sizeof function_names[0] };

static const csupport_library library = {
    .soname = CGPS_LIBRARY,
    .package = CGPS_PACKAGE,
    .feature = "a gpsd source",
    .names = function_names,
    .count = CGPS_FUNCTION_COUNT,
};

/* Opens `soname` (NULL: libgps) and fills `table`; the handle, or NULL with
 * nothing left open and the reason in `message`. */
static void *open_library(const char *soname, struct gps_functions *table, char *message, size_t capacity)
{
    void *symbols[CGPS_FUNCTION_COUNT];
    void *handle = csupport_library_open(&library, soname, symbols, message, capacity);
    if (handle == NULL)
        return NULL;
    size_t index = 0;
    CGPS_FUNCTIONS(CSUPPORT_LIBRARY_FILL)
    return handle;
}

static int load(char *message, size_t capacity)
{
    struct gps_functions table;
    void *handle = open_library(NULL, &table, message, capacity);
    if (handle == NULL)
        return -1;
    const char *const *version = dlsym(handle, "gpsd_version");
    release = version != NULL ? *version : NULL;
    lib = table;
    return 0;
}

int cgps_library_load(char *message, size_t capacity)
{
    return csupport_library_once(&library_lock, &library_loaded, load, message, capacity);
}

bool cgps_library_is_loaded(void) { return csupport_library_is_loaded(&library_loaded); }

int cgps_library_check(const char *soname, char *message, size_t capacity)
{
    struct gps_functions table;
    void *handle = open_library(soname, &table, message, capacity);
    if (handle == NULL)
        return -1;
    dlclose(handle);
    return 0;
}

const char *cgps_library_name(void) { return CGPS_LIBRARY; }

const char *cgps_gpsd_release(void)
{
    char ignored[1];
    return cgps_library_load(ignored, sizeof ignored) >= 0 ? release : NULL;
}

/* A dead remote gpsd (host gone, cable pulled) sends nothing, and neither
 * does a healthy gpsd whose receiver is quiet; keepalive tells them apart
 * in about 25 s. Best effort: a failure here only loses that early warning. */
static void enable_keepalive(int fd)
{
    int on = 1, idle = 10, interval = 5, count = 3;
    (void)setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
    (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
    (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
}

/* gps_stream writes with write(2); if gpsd has already dropped us that
 * raises SIGPIPE, which would kill a process that has not ignored it. Block
 * it on this thread for the call and swallow the one the write generated,
 * so the shim is safe in any host process without touching global state. */
static int start_watch(cgps_session *session)
{
    sigset_t pipe_only, previous, pending;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    sigemptyset(&pending);
    (void)pthread_sigmask(SIG_BLOCK, &pipe_only, &previous);
    (void)sigpending(&pending);
    bool already_pending = sigismember(&pending, SIGPIPE) == 1;

    errno = 0;
    int status = lib.gps_stream(&session->gps, WATCH_ENABLE | WATCH_JSON, NULL);
    int error = errno;

    if (status != 0 && error == EPIPE && !already_pending) {
        struct timespec zero = {0, 0};
        (void)sigtimedwait(&pipe_only, NULL, &zero);
    }
    (void)pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (status == 0)
        return 0;
    return error != 0 ? error : EIO;
}

int cgps_open(const char *host, const char *port, cgps_session **session)
{
    *session = NULL;
    if (host == NULL || port == NULL)
        return EINVAL;
    /* gps_open treats these two names as non-socket exports, which have no
     * descriptor to poll; locationd only speaks to gpsd over TCP. */
    if (strcmp(host, GPSD_SHARED_MEMORY) == 0 || strcmp(host, GPSD_DBUS_EXPORT) == 0)
        return EINVAL;
    if (!cgps_library_is_loaded())
        return ELIBACC;

    /* malloc, not calloc: the line buffer is only ever read where it was
     * written, so its pages are touched only as far as gpsd's lines reach. */
    cgps_session *opened = malloc(sizeof *opened);
    if (opened == NULL)
        return ENOMEM;
    memset(&opened->gps, 0, sizeof opened->gps);
    opened->gps.gps_fd = -1;
    opened->start = 0;
    opened->end = 0;
    opened->drained = false;
    opened->armed_ms = -1;

    errno = 0;
    if (lib.gps_open(host, port, &opened->gps) != 0) {
        int code = errno != 0 ? errno : NL_NOCONNECT;
        /* libgps connects before it allocates its buffer; if that
         * allocation failed the socket is still open and ours to close. */
        if (opened->gps.gps_fd >= 0 && opened->gps.privdata == NULL)
            (void)close(opened->gps.gps_fd);
        else if (opened->gps.gps_fd >= 0)
            (void)lib.gps_close(&opened->gps);
        free(opened);
        return code;
    }

    enable_keepalive(opened->gps.gps_fd);
    /* libgps leaves the socket non-blocking (it connects that way). The
     * reader waits in recv(2) itself, so the socket blocks; the reads that
     * only take what is there pass MSG_DONTWAIT. */
    int flags = fcntl(opened->gps.gps_fd, F_GETFL);
    if (flags < 0 || fcntl(opened->gps.gps_fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
        int code = errno;
        (void)lib.gps_close(&opened->gps);
        free(opened);
        return code;
    }

    int status = start_watch(opened);
    if (status != 0) {
        (void)lib.gps_close(&opened->gps);
        free(opened);
        return status;
    }
    *session = opened;
    return 0;
}

int cgps_watch(cgps_session *session)
{
    return start_watch(session);
}

int cgps_send(cgps_session *session, const char *request)
{
    size_t length = strlen(request), sent = 0;
    while (sent < length) {
        ssize_t n = send(session->gps.gps_fd, request + sent, length - sent, MSG_NOSIGNAL);
        if (n > 0) {
            sent += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        return n < 0 ? errno : EIO;
    }
    return 0;
}

static double known(double value, uint32_t bit, uint32_t *set)
{
    if (isfinite(value)) {
        *set |= bit;
        return value;
    }
    return NAN;
}

static void copy_fix(const struct gps_data_t *gps, cgps_fix *fix)
{
    const struct gps_fix_t *from = &gps->fix;
    uint32_t set = 0;

    fix->time_sec = 0;
    fix->time_nsec = 0;
    if ((gps->set & TIME_SET) != 0 && (from->time.tv_sec != 0 || from->time.tv_nsec != 0) &&
        from->time.tv_nsec >= 0 && from->time.tv_nsec < 1000000000L) {
        fix->time_sec = (int64_t)from->time.tv_sec;
        fix->time_nsec = (int32_t)from->time.tv_nsec;
        set |= CGPS_HAS_TIME;
    }

    fix->mode = 0;
    if ((gps->set & MODE_SET) != 0 && from->mode >= MODE_NO_FIX && from->mode <= MODE_3D) {
        fix->mode = from->mode;
        set |= CGPS_HAS_MODE;
    }

    if (isfinite(from->latitude) && isfinite(from->longitude)) {
        fix->latitude = from->latitude;
        fix->longitude = from->longitude;
        set |= CGPS_HAS_LATLON;
    } else {
        fix->latitude = NAN;
        fix->longitude = NAN;
    }

    fix->alt_msl = known(from->altMSL, CGPS_HAS_ALT_MSL, &set);
    fix->alt_hae = known(from->altHAE, CGPS_HAS_ALT_HAE, &set);
    fix->geoid_sep = known(from->geoid_sep, CGPS_HAS_GEOID_SEP, &set);
    fix->eph = known(from->eph, CGPS_HAS_EPH, &set);
    fix->epv = known(from->epv, CGPS_HAS_EPV, &set);
    fix->epx = known(from->epx, CGPS_HAS_EPX, &set);
    fix->epy = known(from->epy, CGPS_HAS_EPY, &set);
    fix->speed = known(from->speed, CGPS_HAS_SPEED, &set);
    fix->track = known(from->track, CGPS_HAS_TRACK, &set);
    fix->set = set;
}

static void copy_text(char *to, size_t size, const char *from, size_t from_size)
{
    size_t n = strnlen(from, from_size);
    if (n >= size)
        n = size - 1;
    memcpy(to, from, n);
    to[n] = '\0';
}

/* What a line is, before anything unpacks it. */
typedef enum {
    LINE_SKIPPED,    /* a class locationd does not use (GST, PPS, AIS, ...) or no class at all */
    LINE_WANTED,     /* TPV, SKY, VERSION, DEVICE, WATCH or ERROR, safe for libgps */
    LINE_DEVICES,    /* DEVICES: counted here, never given to libgps */
    LINE_UNREADABLE, /* a line libgps's gps_unpack would never return from */
} line_class;

static const char class_tag[] = "\"class\":";
static const char class_start[] = "{\"class\":\"";

/*
 * The report classes locationd uses. Every other class (GST, PPS, TOFF,
 * ATT, AIS, RTCM, SUBFRAME, RAW, ...) is reported as CGPS_REPORT_OTHER
 * without being unpacked: libgps's generic unpacker is the costliest part
 * of a report, and a GST comes with every epoch from many receivers.
 *
 * And the guard that keeps libgps from hanging the reader. libgps 3.22's
 * gps_unpack() unpacks objects in a loop, each starting where the previous
 * one's parse stopped; after a parse error it starts again at the error's
 * position, and if a "class": follows there, the parser fails at once
 * without moving on, forever. gpsd's own lines trigger this: a DEVICES
 * list of more than libgps's MAXUSERDEVS (4) receivers, whose nested
 * DEVICE objects carry "class": after the error. So does any line naming
 * "class" twice after a bad value. The guard: a line goes to libgps only
 * if it starts with {"class":" and names "class" nowhere else, where every
 * restart finds no class and ends the loop. DEVICES is read here, and
 * every other line with a second "class", or with "class" not at its
 * start, is CGPS_REPORT_UNREADABLE without being unpacked.
 */
static line_class classify(const char *line)
{
    if (strncmp(line, class_start, sizeof class_start - 1) != 0)
        return strstr(line, class_tag) == NULL ? LINE_SKIPPED : LINE_UNREADABLE;
    const char *name = line + sizeof class_start - 1;
    /* The wanted classes start with six different letters: one compare
     * each, and a class of another letter (GST with every epoch) none. */
    const char *wanted;
    switch (name[0]) {
    case 'T': wanted = "TPV\""; break;
    case 'S': wanted = "SKY\""; break;
    case 'V': wanted = "VERSION\""; break;
    case 'W': wanted = "WATCH\""; break;
    case 'E': wanted = "ERROR\""; break;
    case 'D':
        if (strncmp(name, "DEVICES\"", 8) == 0)
            return LINE_DEVICES;
        wanted = "DEVICE\"";
        break;
    default: return LINE_SKIPPED;
    }
    if (strncmp(name, wanted, strlen(wanted)) != 0)
        return LINE_SKIPPED;
    return strstr(name, class_tag) == NULL ? LINE_WANTED : LINE_UNREADABLE;
}

/* Copies the JSON string that starts at `from` (after its opening quote) to
 * `to` with its NUL, unescaping \" \\ and \/ (gpsd writes a path as it is; no
 * path has a control character). Returns the bytes used, or 0 when it does
 * not fit in `room`, does not end before `limit`, or holds another escape. */
static size_t copy_path(char *to, size_t room, const char *from, const char *limit)
{
    size_t n = 0;
    for (const char *at = from; at < limit && *at != '\0'; at++) {
        char c = *at;
        if (c == '"')
            break;
        if (c == '\\') {
            at++;
            if (at >= limit || (*at != '"' && *at != '\\' && *at != '/'))
                return 0;
            c = *at;
        }
        if (n + 1 >= room)
            return 0;
        to[n++] = c;
    }
    if (n == 0 || n >= room)
        return 0;
    to[n] = '\0';
    return n + 1;
}

/* The receivers in a DEVICES line: its DEVICE objects, counted, and each one's
 * "path" copied into the report (what fits of CGPS_DEVICE_PATHS_MAX). */
static int list_devices(const char *line, cgps_report *report)
{
    static const char device[] = "{\"class\":\"DEVICE\"";
    static const char path[] = "\"path\":\"";
    int count = 0;
    size_t used = 0;
    const char *at = strstr(line + 1, device);
    while (at != NULL) {
        const char *next = strstr(at + sizeof device - 1, device);
        const char *limit = next != NULL ? next : at + strlen(at);
        const char *named = strstr(at, path);
        if (named != NULL && named < limit)
            used += copy_path(report->device_paths + used, sizeof report->device_paths - used,
                              named + sizeof path - 1, limit);
        count++;
        at = next;
    }
    report->device_paths_length = (int32_t)used;
    return count;
}

/* Unpacks one line (NUL-terminated, without its \n) into *report: 1 when
 * the shim's TPV reader took it, 0 when libgps did (or nobody), -1 when
 * only libgps would read it and there is no session (cgps_unpack). */
static int unpack_line(cgps_session *session, char *line, cgps_report *report, bool use_fast_tpv)
{
    /* Everything but the satellite array, which only a SKY fills (count first). */
    memset(report, 0, offsetof(cgps_report, satellites));
    report->satellites_used = -1;
    report->satellites_visible = -1;
    report->hdop = NAN;
    report->pdop = NAN;
    report->vdop = NAN;
    report->fix.latitude = NAN;
    report->fix.longitude = NAN;
    /* A TPV in gpsd's own shape is read without libgps (tpv.h), and without
     * the guard's search for a second "class": the reader takes no line that
     * names it twice (in a line it takes, every quote opens or closes a name
     * or a string, so "class": can only be a member's name, and a second one
     * makes it give the line back to the guard below). */
    if (use_fast_tpv && cgps_tpv_decode(line, &report->fix, &report->tpv_mode, report->text, sizeof report->text)) {
        report->kind = CGPS_REPORT_TPV;
        return 1;
    }
    switch (classify(line)) {
    case LINE_SKIPPED:
        report->kind = CGPS_REPORT_OTHER;
        return 0;
    case LINE_UNREADABLE:
        report->kind = CGPS_REPORT_UNREADABLE;
        return 0;
    case LINE_DEVICES:
        report->kind = CGPS_REPORT_DEVICES;
        report->devices = list_devices(line, report);
        return 0;
    case LINE_WANTED:
        break;
    }
    /* A line for libgps, and none loaded for this caller (a replay's reader
     * before the first such line): the caller loads it and asks again. */
    if (session == NULL) {
        report->kind = CGPS_REPORT_OTHER;
        return -1;
    }
    struct gps_data_t *gps = &session->gps;

    /* libgps recomputes `set` for a TPV but only ORs bits in for the other
     * classes; clearing it first makes the bits name this one line. */
    gps->set = 0;
    /* Likewise the DOPs: libgps 3.22 stores a SKY's DOPs without a bit in
     * `set` and leaves those a SKY does not name as they were; cleared to
     * NaN, they are this line's or unknown. */
    lib.gps_clear_dop(&gps->dop);
    /* libgps keeps dev.path from line to line; cleared, a TPV's or SKY's
     * path is its own "device" (or empty), as the TPV reader gives it. */
    gps->dev.path[0] = '\0';
    /* gpsd announces a closed receiver as "activated":0, which libgps 3.22
     * stores but then rejects as a bad attribute, so DEVICE_SET stays clear.
     * A sentinel in `activated` shows whether such a line was parsed. */
    timespec_t activated = gps->dev.activated;
    gps->dev.activated.tv_sec = -1;
    gps->dev.activated.tv_nsec = 0;
    (void)lib.gps_unpack(line, gps);
    bool device_closed = gps->dev.activated.tv_sec == 0 && gps->dev.activated.tv_nsec == 0;
    if (gps->dev.activated.tv_sec == -1)
        gps->dev.activated = activated;

    gps_mask_t set = gps->set;
    if ((set & STATUS_SET) != 0) {
        /* Of all report classes only TPV sets STATUS_SET (APIs 11–16). */
        report->kind = CGPS_REPORT_TPV;
        copy_fix(gps, &report->fix);
        report->tpv_mode = gps->fix.mode;
        copy_text(report->text, sizeof report->text, gps->dev.path, sizeof gps->dev.path);
    } else if ((set & SATELLITE_SET) != 0) {
        report->kind = CGPS_REPORT_SKY;
        copy_text(report->text, sizeof report->text, gps->dev.path, sizeof gps->dev.path);
        /* libgps counts both from the satellite list; a SKY with only DOPs
         * leaves them 0, which means "not reported", not "none". */
        if (gps->satellites_visible > 0) {
            report->satellites_used = gps->satellites_used;
            report->satellites_visible = gps->satellites_visible;
        }
        report->hdop = gps->dop.hdop;
        report->pdop = gps->dop.pdop;
        report->vdop = gps->dop.vdop;
        cgps_sky_copy(gps, report);
    } else if ((set & POLICY_SET) != 0) {
        report->kind = CGPS_REPORT_WATCH;
    } else if ((set & DEVICE_SET) != 0 || device_closed) {
        report->kind = CGPS_REPORT_DEVICE;
        report->activated = gps->dev.activated.tv_sec != 0 || gps->dev.activated.tv_nsec != 0;
        copy_text(report->text, sizeof report->text, gps->dev.path, sizeof gps->dev.path);
    } else if ((set & VERSION_SET) != 0) {
        report->kind = CGPS_REPORT_VERSION;
        copy_text(report->text, sizeof report->text, gps->version.release, sizeof gps->version.release);
    } else if ((set & ERROR_SET) != 0) {
        report->kind = CGPS_REPORT_ERROR;
        copy_text(report->text, sizeof report->text, gps->error, sizeof gps->error);
    } else {
        report->kind = CGPS_REPORT_OTHER;
    }
    return 0;
}

/* No complete line is buffered: make room at the front, then recv(2) what
 * gpsd sent (flags: MSG_DONTWAIT, or 0 to block until bytes come or the
 * armed timeout passes). Returns recv's result; 0 also when the buffer is
 * full with no line end, which libgps treats as the end of the session too. */
static ssize_t fill(cgps_session *session, int flags)
{
    size_t length = session->end - session->start;
    if (session->start > 0) {
        memmove(session->buffer, session->buffer + session->start, length);
        session->start = 0;
        session->end = length;
    }
    size_t room = sizeof session->buffer - session->end;
    if (room == 0)
        return 0;
    ssize_t got = recv(session->gps.gps_fd, session->buffer + session->end, room, flags);
    if (got > 0) {
        session->end += (size_t)got;
        session->drained = (size_t)got < room;
    }
    return got;
}

int cgps_read(cgps_session *session, cgps_report *report, int *sys_errno)
{
    *sys_errno = 0;
    for (;;) {
        char *first = session->buffer + session->start;
        size_t length = session->end - session->start;
        char *newline = length > 0 ? memchr(first, '\n', length) : NULL;
        if (newline != NULL) {
            *newline = '\0';
            size_t consumed = (size_t)(newline - first) + 1;
            session->start += consumed;
            if (session->start == session->end)
                session->start = session->end = 0;
            (void)unpack_line(session, first, report, true);
            return (int)consumed;
        }
        if (session->drained)
            return 0;
        ssize_t got = fill(session, MSG_DONTWAIT);
        if (got > 0)
            continue;
        if (got == 0)
            return -1; /* gpsd closed the connection, or a line longer than the buffer */
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
            session->drained = true;
            return 0;
        }
        *sys_errno = errno;
        return -1;
    }
}

int cgps_wait(cgps_session *session, int timeout_ms)
{
    /* A complete line already read needs no syscall at all. */
    if (session->end > session->start && memchr(session->buffer + session->start, '\n', session->end - session->start) != NULL)
        return CGPS_WAIT_READY;

    int flags = 0;
    if (timeout_ms == 0) {
        flags = MSG_DONTWAIT;
    } else {
        int wanted = timeout_ms < 0 ? -1 : timeout_ms;
        if (wanted != session->armed_ms) {
            /* A zero timeval means none: recv(2) blocks until bytes come. */
            struct timeval limit = {.tv_sec = 0, .tv_usec = 0};
            if (wanted > 0) {
                limit.tv_sec = wanted / 1000;
                limit.tv_usec = (wanted % 1000) * 1000;
            }
            if (setsockopt(session->gps.gps_fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit) != 0)
                return -errno;
            session->armed_ms = wanted;
        }
    }
    ssize_t got = fill(session, flags);
    if (got > 0)
        return CGPS_WAIT_READY;
    if (got == 0) {
        /* gpsd closed the connection (or a stop shut the socket down): the
         * next cgps_read reports the end of the session. */
        session->drained = false;
        return CGPS_WAIT_READY;
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
        return CGPS_WAIT_TIMEOUT;
    return -errno;
}

int cgps_descriptor(const cgps_session *session)
{
    return session->gps.gps_fd;
}

void cgps_close(cgps_session *session)
{
    if (session == NULL)
        return;
    if (session->gps.gps_fd >= 0)
        (void)lib.gps_close(&session->gps);
    free(session);
}

cgps_session *cgps_offline(void)
{
    char ignored[1];
    if (cgps_library_load(ignored, sizeof ignored) < 0) {
        errno = ELIBACC;
        return NULL;
    }
    cgps_session *session = malloc(sizeof *session);
    if (session == NULL)
        return NULL;
    memset(&session->gps, 0, sizeof session->gps);
    session->gps.gps_fd = -1;
    session->start = session->end = 0;
    session->drained = true;
    session->armed_ms = -1;
    return session;
}

int cgps_unpack(cgps_session *session, char *line, cgps_report *report, cgps_unpacker unpacker)
{
    if (session == NULL && unpacker != CGPS_UNPACK_SHIM) {
        memset(report, 0, offsetof(cgps_report, satellites));
        report->kind = CGPS_REPORT_OTHER;
        return -1;
    }
    return unpack_line(session, line, report, unpacker == CGPS_UNPACK_SHIM);
}

const char *cgps_strerror(int code)
{
    if (code < 0)
        return cgps_library_is_loaded() ? lib.gps_errstr(code) : "libgps is not loaded";
    if (code == 0)
        return "no error";
    return strerror(code);
}
