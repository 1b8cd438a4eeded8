// See include/cbus.h.
#include "cbus.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <systemd/sd-bus.h>

#include "csupport_library.h"

// MARK: libsystemd, opened on first use

/* libsystemd is not linked: `cbus_library_load` opens it (CSupport's
 * csupport_library.h, as CMQTT opens libmosquitto and CGPS libgps) when the
 * GeoClue face first opens its bus, so a daemon without the face never maps
 * it or the libraries it needs (libcap, libgcrypt, liblz4, liblzma, libzstd).
 * Every sd-bus function this file calls is in CBUS_FUNCTIONS, and after the
 * table each name stands for its entry (the #defines below): a new call needs
 * its name in both lists, or the link fails (nothing links -lsystemd). */
#define CBUS_FUNCTIONS(X) \
    X(sd_bus_add_fallback_vtable) \
    X(sd_bus_add_object_vtable) \
    X(sd_bus_call_method) \
    X(sd_bus_emit_properties_changed) \
    X(sd_bus_error_free) \
    X(sd_bus_error_get_errno) \
    X(sd_bus_error_is_set) \
    X(sd_bus_error_set) \
    X(sd_bus_flush_close_unref) \
    X(sd_bus_get_current_message) \
    X(sd_bus_get_events) \
    X(sd_bus_get_fd) \
    X(sd_bus_get_timeout) \
    X(sd_bus_get_unique_name) \
    X(sd_bus_match_signal) \
    X(sd_bus_message_append) \
    X(sd_bus_message_close_container) \
    X(sd_bus_message_enter_container) \
    X(sd_bus_message_exit_container) \
    X(sd_bus_message_get_path) \
    X(sd_bus_message_get_sender) \
    X(sd_bus_message_new_signal) \
    X(sd_bus_message_open_container) \
    X(sd_bus_message_read) \
    X(sd_bus_message_read_array) \
    X(sd_bus_message_set_destination) \
    X(sd_bus_message_skip) \
    X(sd_bus_message_unref) \
    X(sd_bus_new) \
    X(sd_bus_open_system) \
    X(sd_bus_process) \
    X(sd_bus_reply_method_return) \
    X(sd_bus_send) \
    X(sd_bus_set_address) \
    X(sd_bus_set_bus_client) \
    X(sd_bus_start)

struct sd_bus_functions {
    CBUS_FUNCTIONS(CSUPPORT_LIBRARY_FIELD)
};

/* Filled once, by `load` under `library_lock` (csupport_library_once), before
 * any bus exists; read without the lock after that. Never unloaded. */
static struct sd_bus_functions lib;
static bool library_loaded;
static pthread_mutex_t library_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const function_names[] = {CBUS_FUNCTIONS(CSUPPORT_LIBRARY_NAME)};
enum { CBUS_FUNCTION_COUNT = sizeof function_names / sizeof function_names[0] };

static const csupport_library library = {
    .soname = "libsystemd.so.0",
    .package = "libsystemd0",
    .feature = "the GeoClue face",
    .names = function_names,
    .count = CBUS_FUNCTION_COUNT,
};

static int load(char *message, size_t capacity) {
    void *symbols[CBUS_FUNCTION_COUNT];
    if (!csupport_library_open(&library, NULL, symbols, message, capacity)) return -1;
    struct sd_bus_functions *table = &lib;
    size_t index = 0;
    CBUS_FUNCTIONS(CSUPPORT_LIBRARY_FILL)
    return 0;
}

/* SD_BUS_VTABLE_START puts this symbol's address in each vtable, so that a
 * program linked against libsystemd needs the version that knows the vtable
 * format (LIBSYSTEMD_242); libsystemd reads the vtable's element size and
 * features, never that address. Not linked, the program gives it itself: the
 * vtables below are in the format of the header this builds against, and
 * the loaded libsystemd0 is at least that version (Debian 12's is 252). */
const unsigned sd_bus_object_vtable_format = 242;

int cbus_library_load(char *message, size_t capacity) {
    return csupport_library_once(&library_lock, &library_loaded, load, message, capacity);
}

#define sd_bus_add_fallback_vtable (lib.sd_bus_add_fallback_vtable)
#define sd_bus_add_object_vtable (lib.sd_bus_add_object_vtable)
#define sd_bus_call_method (lib.sd_bus_call_method)
#define sd_bus_emit_properties_changed (lib.sd_bus_emit_properties_changed)
#define sd_bus_error_free (lib.sd_bus_error_free)
#define sd_bus_error_get_errno (lib.sd_bus_error_get_errno)
#define sd_bus_error_is_set (lib.sd_bus_error_is_set)
#define sd_bus_error_set (lib.sd_bus_error_set)
#define sd_bus_flush_close_unref (lib.sd_bus_flush_close_unref)
#define sd_bus_get_current_message (lib.sd_bus_get_current_message)
#define sd_bus_get_events (lib.sd_bus_get_events)
#define sd_bus_get_fd (lib.sd_bus_get_fd)
#define sd_bus_get_timeout (lib.sd_bus_get_timeout)
#define sd_bus_get_unique_name (lib.sd_bus_get_unique_name)
#define sd_bus_match_signal (lib.sd_bus_match_signal)
#define sd_bus_message_append (lib.sd_bus_message_append)
#define sd_bus_message_close_container (lib.sd_bus_message_close_container)
#define sd_bus_message_enter_container (lib.sd_bus_message_enter_container)
#define sd_bus_message_exit_container (lib.sd_bus_message_exit_container)
#define sd_bus_message_get_path (lib.sd_bus_message_get_path)
#define sd_bus_message_get_sender (lib.sd_bus_message_get_sender)
#define sd_bus_message_new_signal (lib.sd_bus_message_new_signal)
#define sd_bus_message_open_container (lib.sd_bus_message_open_container)
#define sd_bus_message_read (lib.sd_bus_message_read)
#define sd_bus_message_read_array (lib.sd_bus_message_read_array)
#define sd_bus_message_set_destination (lib.sd_bus_message_set_destination)
#define sd_bus_message_skip (lib.sd_bus_message_skip)
#define sd_bus_message_unref (lib.sd_bus_message_unref)
#define sd_bus_new (lib.sd_bus_new)
#define sd_bus_open_system (lib.sd_bus_open_system)
#define sd_bus_process (lib.sd_bus_process)
#define sd_bus_reply_method_return (lib.sd_bus_reply_method_return)
#define sd_bus_send (lib.sd_bus_send)
#define sd_bus_set_address (lib.sd_bus_set_address)
#define sd_bus_set_bus_client (lib.sd_bus_set_bus_client)
#define sd_bus_start (lib.sd_bus_start)


#define CBUS_NAME "org.freedesktop.GeoClue2"
#define CBUS_MANAGER_PATH "/org/freedesktop/GeoClue2/Manager"
#define CBUS_CLIENT_PREFIX "/org/freedesktop/GeoClue2/Client"
#define CBUS_MANAGER_IFACE "org.freedesktop.GeoClue2.Manager"
#define CBUS_CLIENT_IFACE "org.freedesktop.GeoClue2.Client"
#define CBUS_LOCATION_IFACE "org.freedesktop.GeoClue2.Location"

struct cbus {
    sd_bus *bus;
    struct cbus_handlers handlers;
    struct cbus_manager_props *manager;
};

/* cbus_call and cbus_error are sd-bus's own types under another name. */
static sd_bus_message *message(cbus_call *call) { return (sd_bus_message *)call; }
static cbus_call *call_of(sd_bus_message *m) { return (cbus_call *)m; }
static cbus_error *error_of(sd_bus_error *e) { return (cbus_error *)e; }

// MARK: Methods

static struct cbus *current(void);

/* Every method's userdata is its object's properties (the Manager's, or what find returned): the
 * cbus is the one being processed on this thread. */
static int run_method(sd_bus_message *m, sd_bus_error *error, int method, char argument_type) {
    struct cbus *c = current();
    const char *argument = NULL;
    if (argument_type) {
        char signature[2] = {argument_type, 0};
        int r = sd_bus_message_read(m, signature, &argument);
        if (r < 0) return r;
    }
    return c->handlers.method(c->handlers.context, method, sd_bus_message_get_path(m), argument, call_of(m),
                              error_of(error));
}

static int get_client_method(sd_bus_message *m, void *u, sd_bus_error *e) { (void)u; return run_method(m, e, CBUS_GET_CLIENT, 0); }
static int create_client(sd_bus_message *m, void *u, sd_bus_error *e) { (void)u; return run_method(m, e, CBUS_CREATE_CLIENT, 0); }
static int delete_client(sd_bus_message *m, void *u, sd_bus_error *e) { (void)u; return run_method(m, e, CBUS_DELETE_CLIENT, 'o'); }
static int add_agent(sd_bus_message *m, void *u, sd_bus_error *e) { (void)u; return run_method(m, e, CBUS_ADD_AGENT, 's'); }
static int start(sd_bus_message *m, void *u, sd_bus_error *e) { (void)u; return run_method(m, e, CBUS_START, 0); }
static int stop(sd_bus_message *m, void *u, sd_bus_error *e) { (void)u; return run_method(m, e, CBUS_STOP, 0); }

/* The cbus being processed on this thread (cbus_process sets it; see cbus.h, Threads). */
static __thread struct cbus *processing;
static struct cbus *current(void) { return processing; }

// MARK: Properties

static int get_timestamp(sd_bus *bus, const char *path, const char *iface, const char *property, sd_bus_message *reply,
                         void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)iface; (void)property; (void)error;
    const struct cbus_location_props *l = userdata;
    return sd_bus_message_append(reply, "(tt)", l->timestamp_seconds, l->timestamp_microseconds);
}

/* Every client property is read through here, with the client's properties as userdata (offset 0:
 * sd-bus hands a getter or setter userdata plus the vtable entry's offset). */
static int get_client(sd_bus *bus, const char *path, const char *iface, const char *property, sd_bus_message *reply,
                      void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)iface; (void)error;
    const struct cbus_client_props *p = userdata;
    if (strcmp(property, "Location") == 0) return sd_bus_message_append(reply, "o", p->location ? p->location : "/");
    if (strcmp(property, "DesktopId") == 0) return sd_bus_message_append(reply, "s", p->desktop_id ? p->desktop_id : "");
    if (strcmp(property, "Active") == 0) return sd_bus_message_append(reply, "b", p->active);
    if (strcmp(property, "DistanceThreshold") == 0) return sd_bus_message_append(reply, "u", p->distance_threshold);
    if (strcmp(property, "TimeThreshold") == 0) return sd_bus_message_append(reply, "u", p->time_threshold);
    return sd_bus_message_append(reply, "u", p->requested_accuracy_level);
}

static int get_description(sd_bus *bus, const char *path, const char *iface, const char *property,
                           sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)iface; (void)property; (void)error;
    const struct cbus_location_props *l = userdata;
    return sd_bus_message_append(reply, "s", l->description ? l->description : "");
}

static int append_client_property(sd_bus_message *m, const struct cbus_client_props *p, const char *property);

/* A writable client property: stored, then told to the writer alone (PropertiesChanged, unicast). */
static int set_client(sd_bus *bus, const char *path, const char *iface, const char *property, sd_bus_message *value,
                      void *userdata, sd_bus_error *error) {
    (void)iface;
    struct cbus_client_props *p = userdata;
    int r;
    if (strcmp(property, "DesktopId") == 0) {
        const char *text = NULL;
        r = sd_bus_message_read(value, "s", &text);
        if (r < 0) return r;
        /* Checked where it lies in the message: a value over the rule's length is never copied. */
        struct cbus *c = current();
        if (c->handlers.check_string) {
            r = c->handlers.check_string(c->handlers.context, property, text, strlen(text), error_of(error));
            if (r < 0) return r;
        }
        r = cbus_set_string(&p->desktop_id, text);
    } else {
        uint32_t number = 0;
        r = sd_bus_message_read(value, "u", &number);
        if (r < 0) return r;
        if (strcmp(property, "DistanceThreshold") == 0) p->distance_threshold = number;
        else if (strcmp(property, "TimeThreshold") == 0) p->time_threshold = number;
        else p->requested_accuracy_level = number;
    }
    if (r < 0) return r;
    sd_bus_message *call = sd_bus_get_current_message(bus);
    const char *sender = call ? sd_bus_message_get_sender(call) : NULL;
    if (!sender) return 0;
    sd_bus_message *signal = NULL;
    r = sd_bus_message_new_signal(bus, &signal, path, "org.freedesktop.DBus.Properties", "PropertiesChanged");
    if (r >= 0) r = sd_bus_message_set_destination(signal, sender);
    if (r >= 0) r = sd_bus_message_append(signal, "s", CBUS_CLIENT_IFACE);
    if (r >= 0) r = sd_bus_message_open_container(signal, 'a', "{sv}");
    if (r >= 0) r = append_client_property(signal, p, property);
    if (r >= 0) r = sd_bus_message_close_container(signal);
    if (r >= 0) r = sd_bus_message_append(signal, "as", 0);
    if (r >= 0) r = sd_bus_send(bus, signal, NULL);
    sd_bus_message_unref(signal);
    return r < 0 ? r : 0;
}

static const sd_bus_vtable manager_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("GetClient", "", "o", get_client_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("CreateClient", "", "o", create_client, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("DeleteClient", "o", "", delete_client, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("AddAgent", "s", "", add_agent, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("InUse", "b", NULL, offsetof(struct cbus_manager_props, in_use), SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("AvailableAccuracyLevel", "u", NULL, offsetof(struct cbus_manager_props, available_accuracy_level),
                    SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable client_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Start", "", "", start, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Stop", "", "", stop, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("Location", "o", get_client, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_WRITABLE_PROPERTY("DistanceThreshold", "u", get_client, set_client, 0, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_WRITABLE_PROPERTY("TimeThreshold", "u", get_client, set_client, 0, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_WRITABLE_PROPERTY("DesktopId", "s", get_client, set_client, 0, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_WRITABLE_PROPERTY("RequestedAccuracyLevel", "u", get_client, set_client, 0, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("Active", "b", get_client, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_SIGNAL_WITH_NAMES("LocationUpdated", "oo", SD_BUS_PARAM(old) SD_BUS_PARAM(new), 0),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable location_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_PROPERTY("Latitude", "d", NULL, offsetof(struct cbus_location_props, latitude), SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Longitude", "d", NULL, offsetof(struct cbus_location_props, longitude), SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Accuracy", "d", NULL, offsetof(struct cbus_location_props, accuracy), SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Altitude", "d", NULL, offsetof(struct cbus_location_props, altitude), SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Speed", "d", NULL, offsetof(struct cbus_location_props, speed), SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Heading", "d", NULL, offsetof(struct cbus_location_props, heading), SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Description", "s", get_description, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Timestamp", "(tt)", get_timestamp, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_VTABLE_END,
};

// MARK: Finding clients and locations


static int find(sd_bus *bus, const char *path, void *userdata, void **found, sd_bus_error *error, int kind) {
    struct cbus *c = userdata;
    sd_bus_message *call = sd_bus_get_current_message(bus);
    const char *sender = call ? sd_bus_message_get_sender(call) : NULL;
    void *props = c->handlers.find(c->handlers.context, kind, path, sender, error_of(error));
    if (!props) return sd_bus_error_is_set(error) ? -sd_bus_error_get_errno(error) : 0;
    *found = props;
    return 1;
}

static int find_client(sd_bus *bus, const char *path, const char *iface, void *userdata, void **found,
                       sd_bus_error *error) {
    (void)iface;
    return find(bus, path, userdata, found, error, CBUS_CLIENT);
}

static int find_location(sd_bus *bus, const char *path, const char *iface, void *userdata, void **found,
                         sd_bus_error *error) {
    (void)iface;
    return find(bus, path, userdata, found, error, CBUS_LOCATION);
}

static int name_owner_changed(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    struct cbus *c = userdata;
    const char *name = NULL, *old_owner = NULL, *new_owner = NULL;
    if (sd_bus_message_read(m, "sss", &name, &old_owner, &new_owner) < 0) return 0;
    if (name && name[0] == ':' && (!new_owner || !new_owner[0])) c->handlers.name_gone(c->handlers.context, name);
    return 0;
}

// MARK: The connection

/* `text` into `slot` (`capacity` bytes, NUL-terminated, cut if longer); "" for NULL. */
static void copy_text(char *slot, size_t capacity, const char *text) {
    if (capacity == 0) return;
    snprintf(slot, capacity, "%s", text ? text : "");
}

/* Who owns CBUS_NAME now, as the bus says (GetNameOwner, then the owner's credentials), into `failure`. */
static void describe_owner(struct cbus *c, struct cbus_open_failure *failure) {
    sd_bus_message *reply = NULL;
    const char *owner = NULL;
    if (sd_bus_call_method(c->bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
                           NULL, &reply, "s", CBUS_NAME) < 0)
        return;
    if (sd_bus_message_read(reply, "s", &owner) >= 0 && owner) {
        copy_text(failure->owner, sizeof failure->owner, owner);
        struct cbus_peer peer;
        if (cbus_credentials(c, owner, &peer) >= 0) {
            failure->owner_pid = peer.pid;
            failure->owner_uid = peer.uid;
        }
        cbus_peer_clear(&peer);
    }
    sd_bus_message_unref(reply);
}

/* RequestName(CBUS_NAME, DO_NOT_QUEUE) with the bus's own error kept: 0 when this connection owns it
 * now; -EEXIST with the owner in `failure` when another does; the bus's error otherwise (-EACCES with
 * org.freedesktop.DBus.Error.AccessDenied and its message when the policy refuses). */
static int request_name(struct cbus *c, struct cbus_open_failure *failure) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    int r = sd_bus_call_method(c->bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                               "RequestName", &error, &reply, "su", CBUS_NAME, (uint32_t)4 /* DO_NOT_QUEUE */);
    if (r < 0) {
        if (sd_bus_error_is_set(&error)) {
            copy_text(failure->error_name, sizeof failure->error_name, error.name);
            copy_text(failure->error_message, sizeof failure->error_message, error.message);
        }
        sd_bus_error_free(&error);
        return r;
    }
    uint32_t answer = 0;
    r = sd_bus_message_read(reply, "u", &answer);
    sd_bus_message_unref(reply);
    if (r < 0) return r;
    switch (answer) {
    case 1: /* PRIMARY_OWNER */
        return 0;
    case 4: /* ALREADY_OWNER: not on a connection just opened */
        return -EALREADY;
    default: /* EXISTS (3); IN_QUEUE (2) cannot be with DO_NOT_QUEUE */
        describe_owner(c, failure);
        return -EEXIST;
    }
}

int cbus_open(const char *address, const struct cbus_handlers *handlers, struct cbus_manager_props *manager,
              cbus **out, struct cbus_open_failure *failure) {
    struct cbus_open_failure ignored;
    if (!failure) failure = &ignored;
    memset(failure, 0, sizeof *failure);
    failure->owner_uid = UINT32_MAX;
    char why[1];
    if (cbus_library_load(why, sizeof why) < 0) return -ELIBACC;
    struct cbus *c = calloc(1, sizeof *c);
    if (!c) return -ENOMEM;
    c->handlers = *handlers;
    c->manager = manager;
    int r;
    failure->stage = CBUS_STAGE_CONNECT;
    if (address) {
        r = sd_bus_new(&c->bus);
        if (r >= 0) r = sd_bus_set_address(c->bus, address);
        if (r >= 0) r = sd_bus_set_bus_client(c->bus, 1);
        if (r >= 0) r = sd_bus_start(c->bus);
    } else {
        r = sd_bus_open_system(&c->bus);
    }
    if (r >= 0) failure->stage = CBUS_STAGE_OBJECTS;
    if (r >= 0) r = sd_bus_add_object_vtable(c->bus, NULL, CBUS_MANAGER_PATH, CBUS_MANAGER_IFACE, manager_vtable, manager);
    if (r >= 0)
        r = sd_bus_add_fallback_vtable(c->bus, NULL, CBUS_CLIENT_PREFIX, CBUS_CLIENT_IFACE, client_vtable, find_client, c);
    if (r >= 0)
        r = sd_bus_add_fallback_vtable(c->bus, NULL, CBUS_CLIENT_PREFIX, CBUS_LOCATION_IFACE, location_vtable,
                                       find_location, c);
    if (r >= 0)
        r = sd_bus_match_signal(c->bus, NULL, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                "NameOwnerChanged", name_owner_changed, c);
    if (r >= 0) {
        failure->stage = CBUS_STAGE_NAME;
        r = request_name(c, failure);
    }
    if (r < 0) {
        if (c->bus) sd_bus_flush_close_unref(c->bus);
        free(c);
        return r;
    }
    *out = c;
    return 0;
}

void cbus_close(cbus *c) {
    if (!c) return;
    sd_bus_flush_close_unref(c->bus);
    free(c);
}

int cbus_process(cbus *c) {
    struct cbus *before = processing;
    processing = c;
    int r;
    do {
        r = sd_bus_process(c->bus, NULL);
    } while (r > 0);
    processing = before;
    return r;
}

int cbus_wait_params(cbus *c, int *fd, short *events, int *timeout_ms) {
    int descriptor = sd_bus_get_fd(c->bus);
    if (descriptor < 0) return descriptor;
    int wanted = sd_bus_get_events(c->bus);
    if (wanted < 0) return wanted;
    uint64_t usec = 0;
    int r = sd_bus_get_timeout(c->bus, &usec);
    if (r < 0) return r;
    *fd = descriptor;
    *events = (short)wanted;
    if (usec == UINT64_MAX) {
        *timeout_ms = -1;
    } else {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        uint64_t now_usec = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
        uint64_t wait = usec > now_usec ? usec - now_usec : 0;
        *timeout_ms = wait > 60000000u ? 60000 : (int)((wait + 999) / 1000);
    }
    return 0;
}

const char *cbus_unique_name(cbus *c) {
    const char *name = NULL;
    return sd_bus_get_unique_name(c->bus, &name) >= 0 ? name : NULL;
}

// MARK: Calls

const char *cbus_sender(cbus_call *call) { return sd_bus_message_get_sender(message(call)); }

void cbus_peer_clear(struct cbus_peer *peer) {
    if (peer->pidfd >= 0) close(peer->pidfd);
    free(peer->groups);
    peer->pidfd = -1;
    peer->groups = NULL;
    peer->group_count = 0;
    peer->has_groups = 0;
}

/* One entry of GetConnectionCredentials' a{sv} (the key read already) into `peer`; others skipped. */
static int read_credential(sd_bus_message *reply, const char *key, struct cbus_peer *peer) {
    int r;
    if (strcmp(key, "UnixUserID") == 0) {
        uint32_t uid = 0;
        r = sd_bus_message_read(reply, "v", "u", &uid);
        if (r >= 0) peer->uid = uid;
        return r;
    }
    if (strcmp(key, "ProcessID") == 0) {
        uint32_t pid = 0;
        r = sd_bus_message_read(reply, "v", "u", &pid);
        if (r >= 0) peer->pid = pid <= INT32_MAX ? (int32_t)pid : 0;
        return r;
    }
    if (strcmp(key, "UnixGroupIDs") == 0) {
        const void *ids = NULL;
        size_t size = 0;
        r = sd_bus_message_enter_container(reply, 'v', "au");
        if (r >= 0) r = sd_bus_message_read_array(reply, 'u', &ids, &size);
        if (r >= 0) {
            size_t count = size / sizeof(uint32_t);
            free(peer->groups);
            peer->groups = count ? malloc(count * sizeof(uint32_t)) : NULL;
            if (count && !peer->groups) return -ENOMEM;
            if (count) memcpy(peer->groups, ids, count * sizeof(uint32_t));
            peer->group_count = count;
            peer->has_groups = 1;
        }
        if (r >= 0) r = sd_bus_message_exit_container(reply);
        return r;
    }
    if (strcmp(key, "ProcessFD") == 0) {
        int fd = -1;
        r = sd_bus_message_enter_container(reply, 'v', "h");
        if (r >= 0) r = sd_bus_message_read(reply, "h", &fd);
        if (r >= 0 && fd >= 0) {
            /* The message owns its descriptor: keep a copy of our own. */
            int copy = fcntl(fd, F_DUPFD_CLOEXEC, 3);
            if (copy < 0) return -errno;
            if (peer->pidfd >= 0) close(peer->pidfd);
            peer->pidfd = copy;
        }
        if (r >= 0) r = sd_bus_message_exit_container(reply);
        return r;
    }
    return sd_bus_message_skip(reply, "v");
}

int cbus_credentials(cbus *c, const char *name, struct cbus_peer *peer) {
    memset(peer, 0, sizeof *peer);
    peer->uid = UINT32_MAX;
    peer->pidfd = -1;
    if (!name || !name[0]) return -EINVAL;
    sd_bus_message *reply = NULL;
    /* The bus daemon's own record (GetConnectionCredentials), never /proc: no SD_BUS_CREDS_AUGMENT. */
    int r = sd_bus_call_method(c->bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                               "GetConnectionCredentials", NULL, &reply, "s", name);
    if (r < 0) return r;
    r = sd_bus_message_enter_container(reply, 'a', "{sv}");
    while (r >= 0) {
        r = sd_bus_message_enter_container(reply, 'e', "sv");
        if (r <= 0) break;
        const char *key = NULL;
        r = sd_bus_message_read(reply, "s", &key);
        if (r >= 0) r = read_credential(reply, key, peer);
        if (r >= 0) r = sd_bus_message_exit_container(reply);
    }
    if (r >= 0) r = sd_bus_message_exit_container(reply);
    sd_bus_message_unref(reply);
    if (r < 0) {
        cbus_peer_clear(peer);
        return r;
    }
    return 0;
}

int cbus_reply_empty(cbus_call *call) { return sd_bus_reply_method_return(message(call), ""); }

int cbus_reply_object(cbus_call *call, const char *path) { return sd_bus_reply_method_return(message(call), "o", path); }

int cbus_error_set(cbus_error *error, const char *name, const char *text) {
    return sd_bus_error_set((sd_bus_error *)error, name, text);
}

int cbus_set_string(char **slot, const char *value) {
    char *copy = NULL;
    if (value) {
        copy = strdup(value);
        if (!copy) return -ENOMEM;
    }
    free(*slot);
    *slot = copy;
    return 0;
}

// MARK: Signals

int cbus_location_updated(cbus *c, const char *destination, const char *client_path, const char *old_path,
                          const char *new_path) {
    sd_bus_message *signal = NULL;
    int r = sd_bus_message_new_signal(c->bus, &signal, client_path, CBUS_CLIENT_IFACE, "LocationUpdated");
    if (r >= 0) r = sd_bus_message_set_destination(signal, destination);
    if (r >= 0) r = sd_bus_message_append(signal, "oo", old_path, new_path);
    if (r >= 0) r = sd_bus_send(c->bus, signal, NULL);
    sd_bus_message_unref(signal);
    return r < 0 ? r : 0;
}

static int append_client_property(sd_bus_message *m, const struct cbus_client_props *p, const char *property) {
    int r = sd_bus_message_open_container(m, 'e', "sv");
    if (r < 0) return r;
    if (strcmp(property, "Location") == 0) {
        r = sd_bus_message_append(m, "sv", property, "o", p->location ? p->location : "/");
    } else if (strcmp(property, "Active") == 0) {
        r = sd_bus_message_append(m, "sv", property, "b", p->active);
    } else if (strcmp(property, "DesktopId") == 0) {
        r = sd_bus_message_append(m, "sv", property, "s", p->desktop_id ? p->desktop_id : "");
    } else {
        uint32_t value = strcmp(property, "DistanceThreshold") == 0 ? p->distance_threshold
                         : strcmp(property, "TimeThreshold") == 0   ? p->time_threshold
                                                                    : p->requested_accuracy_level;
        r = sd_bus_message_append(m, "sv", property, "u", value);
    }
    if (r < 0) return r;
    return sd_bus_message_close_container(m);
}

int cbus_client_changed(cbus *c, const char *destination, const char *path, const struct cbus_client_props *props,
                        unsigned mask) {
    sd_bus_message *signal = NULL;
    int r = sd_bus_message_new_signal(c->bus, &signal, path, "org.freedesktop.DBus.Properties", "PropertiesChanged");
    if (r >= 0) r = sd_bus_message_set_destination(signal, destination);
    if (r >= 0) r = sd_bus_message_append(signal, "s", CBUS_CLIENT_IFACE);
    if (r >= 0) r = sd_bus_message_open_container(signal, 'a', "{sv}");
    if (r >= 0 && (mask & CBUS_PROP_LOCATION)) r = append_client_property(signal, props, "Location");
    if (r >= 0 && (mask & CBUS_PROP_ACTIVE)) r = append_client_property(signal, props, "Active");
    if (r >= 0) r = sd_bus_message_close_container(signal);
    if (r >= 0) r = sd_bus_message_append(signal, "as", 0);
    if (r >= 0) r = sd_bus_send(c->bus, signal, NULL);
    sd_bus_message_unref(signal);
    return r < 0 ? r : 0;
}

int cbus_manager_changed(cbus *c) {
    return sd_bus_emit_properties_changed(c->bus, CBUS_MANAGER_PATH, CBUS_MANAGER_IFACE, "InUse",
                                          "AvailableAccuracyLevel", NULL);
}
