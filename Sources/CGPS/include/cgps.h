/*
 * CGPS — locationd's shim over libgps (gpsd's client library).
 *
 * This is the only code in locationd that sees libgps's `struct gps_data_t`.
 * A session is opaque to Swift; every report gpsd sends is copied into the
 * small flat `cgps_report` below, with unknown values marked twice: the
 * double is NaN and its `CGPS_HAS_*` bit is clear. Whether there is a fix is
 * said by `mode` (gpsd's TPV "mode": 0 not seen, 1 no fix, 2 2D, 3 3D), never
 * by gpsd's `status`, whose names and meaning moved between releases.
 *
 * Reading
 * -------
 * `cgps_open` connects and starts a JSON watch. The reader then alternates
 * `cgps_read` (one gpsd report per call) and `cgps_wait` (block until there
 * is input, a timeout, or the socket is shut down).
 *
 * The shim reads gpsd's socket itself rather than through gps_read(), and
 * hands each complete line to libgps's gps_unpack(). gps_read() does one
 * recv(2) per call, so a reader that drains it learns that the socket is
 * empty only from a recv(2) that fails with EAGAIN, and gps_waiting() says
 * "data waiting" while it holds part of a line. The shim's own buffer
 * (CGPS_LINE_MAX, libgps 3.22's size) avoids both: `cgps_read` unpacks
 * every complete line it holds without a syscall, reads the socket once
 * when it holds none (MSG_DONTWAIT), and after a read that left the socket
 * empty returns 0 at once; `cgps_wait` answers "ready" without a syscall
 * while a complete line is buffered and otherwise sleeps in a blocking
 * recv(2) that takes what gpsd sends next (the socket is made blocking at
 * open), with a receive timeout armed only when the caller's changes. A
 * report costs one recv(2) where gpxlogger spends a poll(2) and a recv(2);
 * a stop shuts the socket down, which ends a recv(2) blocked on it at once
 * (docs/performance.md, "Waiting in recv"). Outcomes keep libgps's
 * meaning: a line longer than the buffer, or gpsd closing the connection,
 * ends the session with errno 0; a socket error ends it with its errno.
 *
 * Only the classes locationd uses (TPV, SKY, VERSION, DEVICES, DEVICE,
 * WATCH, ERROR) are unpacked; any other class is reported as
 * CGPS_REPORT_OTHER unread, which saves libgps's generic unpacker the GST
 * many receivers send every epoch.
 *
 * TPVs, one or more per epoch, are read by the shim's own reader (tpv.h)
 * when they have the shape gpsd writes, which every TPV of gpsd's
 * regression corpus has: about 5.4 k instructions instead of libgps's 50 k,
 * with the same values bit for bit (the tests compare the two on the
 * corpus, on generated lines and on damaged ones). A TPV of any other
 * shape goes to libgps as before. DEVICES is read by the shim: its receivers
 * counted and their paths copied.
 *
 * libgps 3.22's gps_unpack() never returns on some lines: after a parse
 * error it starts again where the error was, and if a "class": follows
 * there it fails in the same place forever. A DEVICES list of more than
 * libgps's 4 receivers does it, as does any line naming "class" twice
 * after a bad value. The shim gives libgps only lines that start with
 * {"class":" and name "class" nowhere else (there every restart ends the
 * loop); DEVICES it reads itself, and any other line with "class" twice
 * or not at its start is CGPS_REPORT_UNREADABLE, not unpacked.
 *
 * libgps semantics the shim still relies on:
 *
 *   gps_unpack      unpacks one NUL-terminated line into struct gps_data_t,
 *                   as gps_read does after it found the line's end; public
 *                   in <gps.h> in every API version below (`char *` in 11,
 *                   `const char *` later: the shim passes a writable line).
 *   gps_open        returns -1 and leaves a negative NL_* code in errno
 *                   (NL_NOHOST, NL_NOCONNECT, ...), which gps_errstr turns
 *                   into text. The connect(2) errno itself is lost inside
 *                   libgps. connect(2) and getaddrinfo(3) block: an
 *                   unreachable remote host can hold `cgps_open` for the
 *                   kernel's SYN timeout; a local gpsd refuses at once.
 *   DEVICE          gpsd reports a closed receiver as "activated":0; libgps
 *                   3.22 parses that but flags it as an error and leaves
 *                   DEVICE_SET clear. The shim notices the zeroed field
 *                   and reports the DEVICE anyway.
 *   set             libgps recomputes the `set` mask for a TPV but only ORs
 *                   bits in for other classes; the shim clears it before
 *                   each read so the bits name the one line just read.
 *   dop             a SKY's DOPs land in `dop` with no bit of their own, and
 *                   a DOP the SKY leaves out keeps its old value; the shim
 *                   clears `dop` (gps_clear_dop, NaN) before each read. 3.22
 *                   ignores SKY's nSat/uSat: the counts come from the list.
 *   skyview         a SKY's satellites land in `skyview[]` in the order listed,
 *                   `satellites_visible` counting those with a PRN; every
 *                   other slot is reset to PRN 0 (so none is left over from
 *                   an earlier SKY) (struct satellite_t: PRN, elevation, azimuth, ss, used,
 *                   gnssid, svid; the same members in APIs 11–16), its time
 *                   in `skyview_time`. The shim copies at most
 *                   CGPS_SATELLITES_MAX of them, skips entries without a PRN,
 *                   turns libgps's "n/a" values (NaN, ss -1) into NaN, and
 *                   copies nothing when the SKY listed no satellites.
 *
 * API versions (GPSD_API_MAJOR_VERSION in <gps.h>)
 * ------------------------------------------------
 * 11  gpsd 3.22 (Debian 12). What this shim is written and tested against.
 * 12  gpsd 3.23 / 3.23.1. Subframe, attitude and IMU data were reshaped and
 *     attitude left the report union. 3.23.1 renamed the fix-status values
 *     (STATUS_NO_FIX became STATUS_UNK, STATUS_FIX became STATUS_GPS, ...).
 *     The shim never reads `status`, so neither change touches it.
 * 13  internal to the 3.24 development cycle (RTCM3 MSM additions); no
 *     release shipped it.
 * 14  gpsd 3.24–3.26. GST left the union; a `watch_t` type appeared, and
 *     from 3.25 gps_stream() takes (struct gps_data_t *, watch_t,
 *     const char *) instead of (…, unsigned int, void *). Our call passes
 *     WATCH_* flags and NULL, which fits both prototypes. From 3.26
 *     `gps_fd` has the type gps_fd_t, still an int socket on non-Qt
 *     builds, and MAXCHANNELS grew from 140 to 184 (the skyview array
 *     grew; the shim copies at most CGPS_SATELLITES_MAX = 184 entries,
 *     whatever MAXCHANNELS is).
 * 15  development between 3.26 and 3.27, never released: more signal ids,
 *     error-ellipse and antenna fields in the fix; additive for us.
 * 16  gpsd 3.27.x. SPARTN support, settable MAXUSERDEVS, gnssid_t. Work
 *     after 3.27.5 grows MAXCHANNELS again (230): a SKY of more than 184
 *     satellites then has its first 184 copied. Still additive for the
 *     fields we copy.
 * Anything else stops the build with #error in cgps.c: a new major version
 * means gpsd changed something incompatibly, and someone has to read the
 * change list in <gps.h> before this shim may trust the struct again. The
 * struct layout itself always comes from the header we compile against,
 * and Debian renames libgps's soname with each ABI break, so a header and
 * library from different releases cannot be mixed silently.
 */
#ifndef CGPS_H
#define CGPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** An open connection to gpsd. Opaque; owned by whoever called cgps_open. */
typedef struct cgps_session cgps_session;

/** Bits of cgps_fix.set: which values are known. */
enum {
    CGPS_HAS_TIME = 1u << 0,
    CGPS_HAS_MODE = 1u << 1,
    CGPS_HAS_LATLON = 1u << 2,
    CGPS_HAS_ALT_MSL = 1u << 3,
    CGPS_HAS_ALT_HAE = 1u << 4,
    CGPS_HAS_GEOID_SEP = 1u << 5,
    CGPS_HAS_EPH = 1u << 6,
    CGPS_HAS_EPV = 1u << 7,
    CGPS_HAS_EPX = 1u << 8,
    CGPS_HAS_EPY = 1u << 9,
    CGPS_HAS_SPEED = 1u << 10,
    CGPS_HAS_TRACK = 1u << 11,
};

/** One TPV report. Unknown doubles are NaN and their bit in `set` is clear. */
typedef struct cgps_fix {
    uint32_t set;        /* CGPS_HAS_* */
    int64_t time_sec;    /* UTC, seconds since 1970 (0 when unknown) */
    int32_t time_nsec;   /* nanoseconds, 0...999999999 */
    int32_t mode;        /* 0 not seen, 1 no fix, 2 2D, 3 3D */
    double latitude;     /* degrees north */
    double longitude;    /* degrees east */
    double alt_msl;      /* metres above mean sea level */
    double alt_hae;      /* metres above the WGS-84 ellipsoid */
    double geoid_sep;    /* metres, geoid above ellipsoid (MSL = HAE - sep) */
    double eph;          /* horizontal error estimate, metres */
    double epv;          /* vertical error estimate, metres */
    double epx;          /* longitude error estimate, metres */
    double epy;          /* latitude error estimate, metres */
    double speed;        /* over ground, m/s */
    double track;        /* course over ground, degrees true */
} cgps_fix;

/** What one JSON line from gpsd was. */
typedef enum cgps_kind {
    CGPS_REPORT_OTHER = 0,  /* a class we do not use (AIS, GST, PPS, ...) */
    CGPS_REPORT_TPV = 1,    /* time-position-velocity: `fix` */
    CGPS_REPORT_SKY = 2,    /* satellites: `satellites_used`, `satellites_visible`, DOPs, `satellites`, `sky_time_*` */
    CGPS_REPORT_VERSION = 3,/* gpsd's greeting: `text` is its release */
    CGPS_REPORT_DEVICES = 4,/* the receivers gpsd knows: `devices`, and their paths in `device_paths` */
    CGPS_REPORT_DEVICE = 5, /* one receiver opened or closed: `text` path, `activated` */
    CGPS_REPORT_WATCH = 6,  /* gpsd confirmed our watch */
    CGPS_REPORT_ERROR = 7,  /* gpsd complained: `text` */
    CGPS_REPORT_UNREADABLE = 8, /* a line not read: "class" twice, or not where gpsd puts it (cgps.c) */
} cgps_kind;

/** Satellites a report holds at most: libgps's MAXCHANNELS of gpsd 3.26 (3.22 has 140). */
#define CGPS_SATELLITES_MAX 184

/** Bytes of a DEVICES report's paths the shim keeps: 16 paths of gpsd's longest (GPS_PATH_MAX,
 * 128 bytes), where gpsd serves 4 receivers unless built for more (MAX_DEVICES). */
#define CGPS_DEVICE_PATHS_MAX 2048

/** One satellite of a SKY, copied from libgps's `skyview[]`. Unknown doubles are NaN. */
typedef struct cgps_satellite {
    double elevation;   /* degrees above the horizon */
    double azimuth;     /* degrees true */
    double ss;          /* signal-to-noise ratio, dB-Hz (libgps's -1 "n/a" becomes NaN) */
    int16_t prn;        /* gpsd's PRN; 0 or less: none (the shim skips such entries) */
    uint8_t gnssid;     /* u-blox constellation id; meaningful only when svid != 0 */
    uint8_t svid;       /* number within the constellation; 0 = gnssid and svid unknown */
    bool used;          /* used in the solution */
} cgps_satellite;

/** One report, flattened. Only the fields named for its kind are meaningful. */
typedef struct cgps_report {
    cgps_kind kind;
    cgps_fix fix;
    int32_t satellites_used;    /* SKY; -1 when that SKY listed no satellites */
    int32_t satellites_visible; /* SKY; -1 likewise */
    double hdop;                /* SKY; NaN when that SKY had none */
    double pdop;                /* SKY; NaN likewise */
    double vdop;                /* SKY; NaN likewise */
    int32_t devices;            /* DEVICES */
    bool activated;             /* DEVICE */
    char text[128];             /* VERSION, DEVICE, ERROR; TPV and SKY: the receiver's path ("device", empty if none); NUL-terminated */
    int64_t sky_time_sec;       /* SKY: its "time", UTC seconds since 1970; 0 when it had none */
    int32_t sky_time_nsec;      /* SKY: nanoseconds, 0...999999999 */
    int32_t satellite_count;    /* SKY: entries of `satellites` filled (0 for every other kind) */
    int32_t tpv_mode;           /* TPV: its "mode" as the line gives it, in 0...3 or not (`fix.mode` keeps only 1...3); 0 when it has none */
    /* Last, so that the shim clears only what comes before it for each report: a SKY
     * fills `satellite_count` entries, and nothing past them is ever read. */
    cgps_satellite satellites[CGPS_SATELLITES_MAX];
    /* DEVICES only (set for no other kind, and not cleared for them): the paths it lists, in
     * its order, each NUL-terminated, in the first `device_paths_length` bytes. A path that does
     * not fit in what is left, or that is not a plain JSON string (a \u escape), is left out;
     * `devices` still counts it. Read by the gpsd source for its raw connections (a raw_log). */
    int32_t device_paths_length;
    char device_paths[CGPS_DEVICE_PATHS_MAX];
} cgps_report;

/** cgps_wait results. */
enum {
    CGPS_WAIT_TIMEOUT = 0,
    CGPS_WAIT_READY = 1,  /* call cgps_read */
};

/*
 * libgps is not linked: `cgps_library_load` opens it (dlopen, RTLD_NOW |
 * RTLD_LOCAL; CSupport's csupport_library.h, the mechanism CMQTT uses for
 * libmosquitto) when the first gpsd source connects, so a daemon reading its
 * receiver directly (NMEA) never maps libgps or the libraries it needs
 * (libdbus, libstdc++ and theirs). `cgps_open` needs it loaded (ELIBACC
 * otherwise); `cgps_offline` and `cgps_gpsd_release` load it themselves.
 */

/** The soname opened: "libgps.so.28" for API 11 (Debian 12's libgps28). */
const char *cgps_library_name(void);

/**
 * Opens libgps and resolves every function the shim calls, once per process,
 * whichever thread comes first; later calls return at once. 1 when this call
 * loaded it, 0 when it was loaded already; -1 when it cannot be, with the
 * reason in `message` (cut to `capacity`, NUL-terminated): "a gpsd source
 * needs libgps.so.28 (Debian package libgps28): <dlerror>". Nothing stays
 * open after a failure, and the next call tries again.
 */
int cgps_library_load(char *message, size_t capacity);

/** Whether `cgps_library_load` has succeeded in this process. */
bool cgps_library_is_loaded(void);

/**
 * Opens `soname` as `cgps_library_load` would (resolving every function) and
 * closes it again: 0, or -1 with the same message. Changes nothing of the
 * loaded library: the tests read the failure's message through it.
 */
int cgps_library_check(const char *soname, char *message, size_t capacity);

/** GPSD_API_MAJOR_VERSION of the <gps.h> this shim was compiled against. */
int cgps_api_major(void);
/** GPSD_API_MINOR_VERSION likewise. */
int cgps_api_minor(void);
/** The release of the libgps loaded ("3.22"), as gpsd's VERSION says it (loading libgps first); NULL if it cannot be loaded or does not export it. */
const char *cgps_gpsd_release(void);

/**
 * Connects to gpsd at host:port and asks it to stream JSON reports
 * (libgps loaded first: ELIBACC before `cgps_library_load` succeeded).
 * Returns 0 and sets *session, or an error code for cgps_strerror:
 * negative = libgps's NL_* code, positive = errno (for example ENOMEM, or
 * EPIPE when gpsd dropped the connection before the watch was sent).
 * Sets TCP keepalive on the socket so a vanished remote gpsd is noticed.
 */
int cgps_open(const char *host, const char *port, cgps_session **session);

/**
 * Sends the JSON watch request again. gpsd answers with DEVICES and WATCH,
 * so this doubles as a liveness probe; and after gpsd restarts itself on
 * SIGHUP, the existing connection gets nothing until it sends a command, so
 * it also revives the stream. Returns 0 or errno (SIGPIPE is never raised).
 */
int cgps_watch(cgps_session *session);

/**
 * Sends `request` (a whole gpsd command with its terminator, e.g.
 * "?DEVICES;\n") on the session's socket, all of it. gpsd's answer comes
 * as any report does (cgps_read). Returns 0 or errno (SIGPIPE is never
 * raised: MSG_NOSIGNAL).
 */
int cgps_send(cgps_session *session, const char *request);

/**
 * Reads one report. Returns > 0 when *report was filled, 0 when no complete
 * report is buffered yet (wait, then read again), and -1 when the session is
 * over; then *sys_errno holds errno, 0 meaning gpsd closed the connection or
 * sent a line longer than CGPS_LINE_MAX.
 */
int cgps_read(cgps_session *session, cgps_report *report, int *sys_errno);

/**
 * Waits in recv(2) on gpsd's socket until cgps_read has something to do:
 * bytes came, gpsd closed the connection, or the socket was shut down (the
 * way another thread stops a reader blocked here: shutdown(2) of
 * `cgps_descriptor`). timeout_ms: -1 none, 0 do not block, > 0 the receive
 * timeout (SO_RCVTIMEO, counted from the start of each wait). The timeout is
 * armed on the socket only when it differs from the one armed before, so a
 * caller that keeps passing the same value makes one system call a wait.
 * Returns a CGPS_WAIT_* value, or -errno when recv(2) or setsockopt(2)
 * fails. EINTR counts as a timeout.
 */
int cgps_wait(cgps_session *session, int timeout_ms);

/**
 * The session's socket, for shutdown(2) by a thread that stops the reader.
 * The caller makes sure the session is not closed meanwhile.
 */
int cgps_descriptor(const cgps_session *session);

/** Ends the session (no WATCH disable is sent: closing is enough) and frees it. */
void cgps_close(cgps_session *session);

/** Which reader cgps_unpack uses. */
typedef enum cgps_unpacker {
    CGPS_UNPACK_SHIM = 0,   /* as cgps_read: the shim's TPV reader, libgps for the rest */
    CGPS_UNPACK_LIBGPS = 1, /* libgps's unpacker for every line the guard lets through */
} cgps_unpacker;

/**
 * A session with no connection, for cgps_unpack (close it with cgps_close),
 * loading libgps first. NULL when out of memory, or with errno ELIBACC when
 * libgps cannot be loaded.
 */
cgps_session *cgps_offline(void);

/**
 * Unpacks one line from gpsd (NUL-terminated, without its newline; the
 * shim may write into it) exactly as cgps_read does, or with libgps for
 * every line the guard lets through (a TPV included; the guard itself,
 * and DEVICES, are the same in both).
 * Returns 1 when the shim's TPV reader took the line, 0 when libgps read
 * it (or its class is one the shim skips, or the guard refused it). The
 * tests compare the two.
 *
 * `session` may be NULL (CGPS_UNPACK_SHIM only): then libgps is neither
 * needed nor loaded, and a line the shim's TPV reader takes, or the guard
 * decides (skipped, unreadable, DEVICES), is unpacked as above; a line
 * that only libgps would read returns -1 with `kind` CGPS_REPORT_OTHER,
 * the line untouched, to be unpacked again with a session. This is how
 * `locationd replay` reads a gpsd log: each line as cgps_read reads it
 * live, libgps loaded only for a line outside the shape gpsd writes.
 */
int cgps_unpack(cgps_session *session, char *line, cgps_report *report, cgps_unpacker unpacker);

/** Text for a cgps_open error code: gps_errstr for negative, strerror for positive. */
const char *cgps_strerror(int code);

/*
 * Raw connections (docs/sources.md, "Raw capture from gpsd")
 * -----------------------------------------------------------
 * A client's raw_log asks for a receiver's bytes as it sent them. gpsd hands
 * them to a client that watches with "raw":2 (its super-raw mode: every packet
 * its lexer accepts, verbatim, binary included), and gpsd's JSON is of no use
 * on such a connection, so it is opened without libgps: a plain TCP socket the
 * gpsd source's raw thread reads itself. The watch it sends, and how gpsd's
 * own lines are told from the receiver's bytes, are the source's (LocationCore's
 * GPSDRawStream). libgps need not be loaded.
 */

/**
 * Connects to gpsd at host:port for a raw connection: resolves the host
 * (getaddrinfo, any family), tries each address with a non-blocking connect(2)
 * that waits at most `timeout_ms` in poll(2), and gives up at once (ECANCELED)
 * when `wake_fd` (>= 0) becomes readable: a stop never waits for a connect.
 * Returns 0 and *fd: connected, non-blocking, close-on-exec, with TCP keepalive
 * as cgps_open sets it. Else an error code for cgps_raw_strerror: positive an
 * errno (ETIMEDOUT, ECONNREFUSED, ECANCELED...), negative a getaddrinfo EAI_*
 * code. Never raises SIGPIPE (the socket is written with MSG_NOSIGNAL).
 */
int cgps_raw_connect(const char *host, const char *port, int wake_fd, int timeout_ms, int *fd);

/** Text for a cgps_raw_connect error code: gai_strerror for negative, strerror for positive. */
const char *cgps_raw_strerror(int code);

#ifdef __cplusplus
}
#endif

#endif /* CGPS_H */
