/*
 * CMQTT — the shim over libmosquitto. See include/cmqtt.h for the contract.
 *
 * libmosquitto is not linked: it (and the TLS libraries it needs, libssl and
 * libcrypto) is opened with dlopen the first time a publisher starts, so a
 * daemon without MQTT clients never maps it. mosquitto.h gives the types,
 * the constants and each function's signature; every mosquitto_* call goes
 * through `lib`, the table filled by dlsym (the mechanism is CSupport's
 * csupport_library.h, which CGPS uses for libgps too).
 */
#define _GNU_SOURCE
#include "cmqtt.h"

#include <mosquitto.h>

#include "csupport_library.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if !defined(LIBMOSQUITTO_MAJOR) || LIBMOSQUITTO_MAJOR < 2
#error "libmosquitto older than 2.0: connect/publish callbacks and TLS defaults differ. Build against Debian's libmosquitto-dev 2.x."
#endif

/* The library opened: Debian's libmosquitto1 (2.x keeps soname 1). */
#define CMQTT_LIBRARY "libmosquitto.so.1"

/* Every libmosquitto function the shim calls. */
#define CMQTT_FUNCTIONS(X) \
    X(mosquitto_lib_version) \
    X(mosquitto_lib_init) \
    X(mosquitto_new) \
    X(mosquitto_destroy) \
    X(mosquitto_connect_callback_set) \
    X(mosquitto_disconnect_callback_set) \
    X(mosquitto_publish_callback_set) \
    X(mosquitto_username_pw_set) \
    X(mosquitto_tls_set) \
    X(mosquitto_will_set) \
    X(mosquitto_connect_async) \
    X(mosquitto_disconnect) \
    X(mosquitto_publish) \
    X(mosquitto_loop) \
    X(mosquitto_strerror) \
    X(mosquitto_connack_string)

/* The table: one pointer per function, typed from its declaration in mosquitto.h. */
struct mosquitto_functions {
    CMQTT_FUNCTIONS(CSUPPORT_LIBRARY_FIELD)
};

/* Filled once, by `load` under `library_lock`, before `library_loaded` is
 * set (csupport_library_once); read without the lock after that: every
 * cmqtt_client exists only after it. Never unloaded. */
static struct mosquitto_functions lib;
static bool library_loaded;
static pthread_mutex_t library_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const function_names[] = {CMQTT_FUNCTIONS(CSUPPORT_LIBRARY_NAME)};
enum { CMQTT_FUNCTION_COUNT = sizeof function_names / sizeof function_names[0] };

static const csupport_library library = {
    .soname = CMQTT_LIBRARY,
    .package = "libmosquitto1",
    .feature = "MQTT",
    .names = function_names,
    .count = CMQTT_FUNCTION_COUNT,
};

/* Opens `soname` (csupport_library_open), fills `table` and checks the major
 * version. On success returns the handle; on failure NULL, with nothing left
 * open and the reason in `message`. */
static void *open_library(const char *soname, struct mosquitto_functions *table, char *message, size_t capacity) {
    void *symbols[CMQTT_FUNCTION_COUNT];
    void *handle = csupport_library_open(&library, soname, symbols, message, capacity);
    if (!handle) return NULL;
    size_t index = 0;
    CMQTT_FUNCTIONS(CSUPPORT_LIBRARY_FILL)
    int major = 0, minor = 0, revision = 0;
    table->mosquitto_lib_version(&major, &minor, &revision);
    if (major != LIBMOSQUITTO_MAJOR) {
        csupport_library_say(&library, soname, message, capacity, " version %d.x: the one found is %d.%d.%d",
                             LIBMOSQUITTO_MAJOR, major, minor, revision);
        dlclose(handle);
        return NULL;
    }
    return handle;
}

static int load(char *message, size_t capacity) {
    struct mosquitto_functions table;
    if (!open_library(NULL, &table, message, capacity)) return -1;
    lib = table;
    lib.mosquitto_lib_init();
    return 0;
}

int cmqtt_library_load(char *message, size_t capacity) {
    return csupport_library_once(&library_lock, &library_loaded, load, message, capacity);
}

int cmqtt_library_check(const char *soname, char *message, size_t capacity) {
    struct mosquitto_functions table;
    void *handle = open_library(soname, &table, message, capacity);
    if (!handle) return -1;
    dlclose(handle);
    return 0;
}

const char *cmqtt_library_name(void) { return CMQTT_LIBRARY; }

bool cmqtt_library_is_loaded(void) { return csupport_library_is_loaded(&library_loaded); }

struct cmqtt_client {
    struct mosquitto *mosq;
    int connack;
    int disconnect_rc;
    /* Acknowledged message ids not yet taken: a growable array. */
    int *acks;
    int ack_count;
    int ack_capacity;
};

int cmqtt_library_version(void) {
    if (!cmqtt_library_is_loaded()) return 0;
    int major = 0, minor = 0, revision = 0;
    lib.mosquitto_lib_version(&major, &minor, &revision);
    return major * 1000000 + minor * 1000 + revision;
}

static void on_connect(struct mosquitto *mosq, void *obj, int rc) {
    (void)mosq;
    struct cmqtt_client *client = obj;
    client->connack = rc;
}

static void on_disconnect(struct mosquitto *mosq, void *obj, int rc) {
    (void)mosq;
    struct cmqtt_client *client = obj;
    client->disconnect_rc = rc;
}

static void on_publish(struct mosquitto *mosq, void *obj, int mid) {
    (void)mosq;
    struct cmqtt_client *client = obj;
    if (client->ack_count == client->ack_capacity) {
        int capacity = client->ack_capacity ? client->ack_capacity * 2 : 64;
        int *grown = realloc(client->acks, (size_t)capacity * sizeof(int));
        /* Out of memory: the ack is lost, so its record is sent again after the
         * next reconnect (at least once, never lost). */
        if (!grown) return;
        client->acks = grown;
        client->ack_capacity = capacity;
    }
    client->acks[client->ack_count++] = mid;
}

cmqtt_client *cmqtt_new(void) {
    if (!cmqtt_library_is_loaded()) {
        errno = ELIBACC;
        return NULL;
    }
    struct cmqtt_client *client = calloc(1, sizeof *client);
    if (!client) return NULL;
    client->connack = -1;
    client->disconnect_rc = -1;
    client->mosq = lib.mosquitto_new(NULL, true, client);
    if (!client->mosq) {
        int saved = errno;
        free(client);
        errno = saved;
        return NULL;
    }
    lib.mosquitto_connect_callback_set(client->mosq, on_connect);
    lib.mosquitto_disconnect_callback_set(client->mosq, on_disconnect);
    lib.mosquitto_publish_callback_set(client->mosq, on_publish);
    return client;
}

void cmqtt_destroy(cmqtt_client *client) {
    if (!client) return;
    lib.mosquitto_destroy(client->mosq);
    free(client->acks);
    free(client);
}

int cmqtt_set_credentials(cmqtt_client *client, const char *username, const char *password) {
    return lib.mosquitto_username_pw_set(client->mosq, username, password);
}

int cmqtt_set_tls(cmqtt_client *client, const char *ca_file, const char *cert_file, const char *key_file) {
    return lib.mosquitto_tls_set(client->mosq, ca_file, NULL, cert_file, key_file, NULL);
}

int cmqtt_set_will(cmqtt_client *client, const char *topic, const void *payload, int length, int qos) {
    return lib.mosquitto_will_set(client->mosq, topic, length, payload, qos, false);
}

int cmqtt_connect(cmqtt_client *client, const char *host, int port, int keepalive) {
    client->connack = -1;
    client->disconnect_rc = -1;
    return lib.mosquitto_connect_async(client->mosq, host, port, keepalive);
}

int cmqtt_disconnect(cmqtt_client *client) { return lib.mosquitto_disconnect(client->mosq); }

int cmqtt_publish(cmqtt_client *client, const char *topic, const void *payload, int length, int qos, bool retain, int *mid) {
    return lib.mosquitto_publish(client->mosq, mid, topic, length, payload, qos, retain);
}

int cmqtt_loop(cmqtt_client *client, int timeout_ms) { return lib.mosquitto_loop(client->mosq, timeout_ms, 1); }

int cmqtt_connack(const cmqtt_client *client) { return client->connack; }

int cmqtt_disconnect_rc(const cmqtt_client *client) { return client->disconnect_rc; }

int cmqtt_take_acks(cmqtt_client *client, int *mids, int capacity) {
    int n = client->ack_count < capacity ? client->ack_count : capacity;
    if (n <= 0) return 0;
    memcpy(mids, client->acks, (size_t)n * sizeof(int));
    memmove(client->acks, client->acks + n, (size_t)(client->ack_count - n) * sizeof(int));
    client->ack_count -= n;
    return n;
}

const char *cmqtt_strerror(int rc) {
    return cmqtt_library_is_loaded() ? lib.mosquitto_strerror(rc) : "libmosquitto is not loaded";
}

const char *cmqtt_connack_string(int code) {
    return cmqtt_library_is_loaded() ? lib.mosquitto_connack_string(code) : "libmosquitto is not loaded";
}

int cmqtt_err_success(void) { return MOSQ_ERR_SUCCESS; }
int cmqtt_err_no_conn(void) { return MOSQ_ERR_NO_CONN; }
int cmqtt_err_conn_pending(void) { return MOSQ_ERR_CONN_PENDING; }
int cmqtt_err_errno(void) { return MOSQ_ERR_ERRNO; }
int cmqtt_err_tls(void) { return MOSQ_ERR_TLS; }
int cmqtt_err_tls_handshake(void) { return MOSQ_ERR_TLS_HANDSHAKE; }
int cmqtt_err_auth(void) { return MOSQ_ERR_AUTH; }
int cmqtt_err_conn_refused(void) { return MOSQ_ERR_CONN_REFUSED; }
int cmqtt_err_lookup(void) { return MOSQ_ERR_LOOKUP; }
int cmqtt_err_eai(void) { return MOSQ_ERR_EAI; }
