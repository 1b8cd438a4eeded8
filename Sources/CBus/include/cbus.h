/*
 * CBus — locationd's GeoClue2-compatible face over sd-bus (libsystemd).
 *
 * The only code that sees sd-bus. It holds what Swift cannot import: the
 * object vtables (SD_BUS_VTABLE_* are macros building a static array) and
 * sd-bus's variadic calls (message append/read, replies, signals). Swift
 * sees opaque handles and plain functions.
 *
 * Objects
 * -------
 * The Manager (/org/freedesktop/GeoClue2/Manager) is one object whose
 * properties live in a `cbus_manager_props` the caller owns. Clients
 * (/org/freedesktop/GeoClue2/Client/N) and their Locations
 * (…/Client/N/Location/M) are found through the caller's `find` handler
 * for each call (a fallback vtable): it returns the object's properties, or
 * NULL with an error (another peer's object: AccessDenied), so every method
 * call and every Get, GetAll, Set and Introspect on a client or location is
 * checked against its owner in one place. sd-bus answers
 * org.freedesktop.DBus.Properties and Introspectable from the vtables.
 *
 * Signals of clients and locations are unicast: each is made with
 * sd_bus_message_new_signal and addressed to the owner's unique name
 * (sd_bus_message_set_destination), never broadcast.
 *
 * Threads: sd-bus is not thread-safe. Every function here is called on the
 * one thread that owns the `cbus`, and the handlers run on it, inside
 * `cbus_process`.
 */
#ifndef CBUS_H
#define CBUS_H

#include <stdint.h>
#include <stddef.h>

/* A connection to a bus, its name and its objects. */
typedef struct cbus cbus;
/* A method call being handled (an sd_bus_message). */
typedef struct cbus_call cbus_call;
/* The error a handler returns (an sd_bus_error). */
typedef struct cbus_error cbus_error;

/* The Manager's properties. `in_use` is 0 or 1. */
struct cbus_manager_props {
    int in_use;
    uint32_t available_accuracy_level;
};

/* A client's properties. Strings are malloc'd (cbus_set_string); `active` is 0 or 1. */
struct cbus_client_props {
    char *location;
    char *desktop_id;
    uint32_t distance_threshold;
    uint32_t time_threshold;
    uint32_t requested_accuracy_level;
    int active;
};

/* A location's properties (never changed once published). */
struct cbus_location_props {
    double latitude;
    double longitude;
    double accuracy;
    double altitude;
    double speed;
    double heading;
    char *description;
    uint64_t timestamp_seconds;
    uint64_t timestamp_microseconds;
};

enum cbus_method {
    CBUS_GET_CLIENT = 1,
    CBUS_CREATE_CLIENT = 2,
    CBUS_DELETE_CLIENT = 3,
    CBUS_ADD_AGENT = 4,
    CBUS_START = 5,
    CBUS_STOP = 6,
};

enum cbus_kind {
    CBUS_CLIENT = 1,
    CBUS_LOCATION = 2,
};

/* Bits of cbus_client_changed's `mask`. */
enum cbus_client_property {
    CBUS_PROP_LOCATION = 1,
    CBUS_PROP_ACTIVE = 2,
};

/* What the owner of the cbus answers; every handler runs inside cbus_process. */
struct cbus_handlers {
    void *context;
    /* A method call. `path` is the object's; `argument` the call's string or
     * object path argument (DeleteClient, AddAgent) or NULL. Reply with
     * cbus_reply_empty/cbus_reply_object and return its result, or return
     * cbus_error_set(error, ...). */
    int (*method)(void *context, int method, const char *path, const char *argument, cbus_call *call,
                  cbus_error *error);
    /* The properties of the client or location at `path`, if it exists and
     * `sender` owns it; NULL otherwise, with `error` set when it exists but
     * belongs to another peer. */
    void *(*find)(void *context, int kind, const char *path, const char *sender, cbus_error *error);
    /* A unique name left the bus (NameOwnerChanged with no new owner). */
    void (*name_gone)(void *context, const char *name);
    /* A string property about to be set (DesktopId): `length` is its bytes,
     * counted in the message before anything is copied. Return 0 to take
     * it, or cbus_error_set(error, ...) to refuse it (the property keeps its
     * value). */
    int (*check_string)(void *context, const char *property, const char *value, size_t length, cbus_error *error);
};

/* How far cbus_open got before it failed. */
enum cbus_stage {
    CBUS_STAGE_CONNECT = 1, /* connecting to the bus */
    CBUS_STAGE_OBJECTS = 2, /* adding the objects and the NameOwnerChanged match */
    CBUS_STAGE_NAME = 3,    /* taking org.freedesktop.GeoClue2 (RequestName) */
};

/* Why cbus_open failed, as far as the bus said. */
struct cbus_open_failure {
    int stage;
    /* The bus's error, when it answered one (org.freedesktop.DBus.Error.AccessDenied: its policy
     * does not let this connection own the name), and its message; "" otherwise. */
    char error_name[128];
    char error_message[512];
    /* -EEXIST: the unique name of the connection that owns the name (GetNameOwner), "" when it left
     * before the bus could say; its pid (0: unknown) and uid (UINT32_MAX: unknown) as the bus knows them. */
    char owner[128];
    int32_t owner_pid;
    uint32_t owner_uid;
};

/* Connects to `address` (NULL: the system bus), serves the objects and
 * takes org.freedesktop.GeoClue2 (RequestName with DO_NOT_QUEUE). Returns 0
 * or a negative errno, with what the bus said in `failure` (may be NULL):
 * -EEXIST, another connection owns the name (its owner in `failure`);
 * -EACCES, the bus policy refuses it (the bus's AccessDenied in `failure`).
 * Nothing is left to free after a failure. */
int cbus_open(const char *address, const struct cbus_handlers *handlers, struct cbus_manager_props *manager,
              cbus **out, struct cbus_open_failure *failure);
/* libsystemd is opened (dlopen) by the first cbus_open, not linked: -ELIBACC from cbus_open when
 * it cannot be. cbus_library_load opens it as cbus_open does, once per process: 1 when this call
 * loaded it, 0 when it was loaded already, -1 with the reason in `message` ("the GeoClue face needs
 * libsystemd.so.0 (Debian package libsystemd0): <dlerror>"). */
int cbus_library_load(char *message, size_t capacity);
/* Flushes, closes and frees. */
void cbus_close(cbus *bus);
/* Handles everything queued; returns 0 or a negative errno (the connection is lost). */
int cbus_process(cbus *bus);
/* What to poll: the descriptor, its events and the timeout in ms (-1: none). */
int cbus_wait_params(cbus *bus, int *fd, short *events, int *timeout_ms);
/* This connection's unique name. */
const char *cbus_unique_name(cbus *bus);

/* The sender's unique name of the call being handled. */
const char *cbus_sender(cbus_call *call);
/* A connection's credentials as the bus daemon recorded them when it connected: what
 * GetConnectionCredentials answers, nothing read from /proc (no SD_BUS_CREDS_AUGMENT). */
struct cbus_peer {
    /* UnixUserID; UINT32_MAX when the bus did not say. */
    uint32_t uid;
    /* ProcessID; 0 when the bus did not say. */
    int32_t pid;
    /* ProcessFD (dbus-broker, newer dbus-daemon; not 1.14): a pidfd of the process that connected,
     * close-on-exec, this struct's own; -1 when the bus offers none. */
    int pidfd;
    /* UnixGroupIDs (malloc'd; `has_groups` 0 when the bus did not say). */
    int has_groups;
    uint32_t *groups;
    size_t group_count;
};
/* The credentials of the connection `name` (a unique name: the sender of a call), asked of the bus
 * daemon now. Returns 0, or a negative errno (-ENXIO: no such connection any more); `peer` is
 * always set, and cbus_peer_clear frees it. A synchronous call: on the bus's thread only. */
int cbus_credentials(cbus *bus, const char *name, struct cbus_peer *peer);
/* Closes the pidfd and frees the groups of a `cbus_peer` (again: nothing). */
void cbus_peer_clear(struct cbus_peer *peer);

/* Replies with nothing. */
int cbus_reply_empty(cbus_call *call);
/* Replies with one object path. */
int cbus_reply_object(cbus_call *call, const char *path);
/* Sets `error` (a D-Bus error name and a message); returns the negative errno to return. */
int cbus_error_set(cbus_error *error, const char *name, const char *message);

/* Replaces a malloc'd string (NULL frees). Returns 0 or -ENOMEM. */
int cbus_set_string(char **slot, const char *value);

/* LocationUpdated(old, new) on `client_path`, to `destination` only. */
int cbus_location_updated(cbus *bus, const char *destination, const char *client_path, const char *old_path,
                          const char *new_path);
/* PropertiesChanged of the client properties in `mask`, to `destination` only. */
int cbus_client_changed(cbus *bus, const char *destination, const char *path, const struct cbus_client_props *props,
                        unsigned mask);
/* PropertiesChanged of the Manager's properties (nobody's location: broadcast). */
int cbus_manager_changed(cbus *bus);

#endif
