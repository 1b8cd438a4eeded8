/*
 * CMQTT — the shim over libmosquitto. See include/cmqtt.h for the contract.
 */
#define _GNU_SOURCE
#include "cmqtt.h"

#include <mosquitto.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if !defined(LIBMOSQUITTO_MAJOR) || LIBMOSQUITTO_MAJOR < 2
#error "libmosquitto older than 2.0: connect/publish callbacks and TLS defaults differ. Build against Debian's libmosquitto-dev 2.x."
#endif

struct cmqtt_client {
    struct mosquitto *mosq;
    int connack;
    int disconnect_rc;
    /* Acknowledged message ids not yet taken: a growable array. */
    int *acks;
    int ack_count;
    int ack_capacity;
};

static pthread_once_t library_once = PTHREAD_ONCE_INIT;

static void library_init(void) { mosquitto_lib_init(); }

int cmqtt_library_version(void) {
    int major = 0, minor = 0, revision = 0;
    mosquitto_lib_version(&major, &minor, &revision);
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
    pthread_once(&library_once, library_init);
    struct cmqtt_client *client = calloc(1, sizeof *client);
    if (!client) return NULL;
    client->connack = -1;
    client->disconnect_rc = -1;
    client->mosq = mosquitto_new(NULL, true, client);
    if (!client->mosq) {
        int saved = errno;
        free(client);
        errno = saved;
        return NULL;
    }
    mosquitto_connect_callback_set(client->mosq, on_connect);
    mosquitto_disconnect_callback_set(client->mosq, on_disconnect);
    mosquitto_publish_callback_set(client->mosq, on_publish);
    return client;
}

void cmqtt_destroy(cmqtt_client *client) {
    if (!client) return;
    mosquitto_destroy(client->mosq);
    free(client->acks);
    free(client);
}

int cmqtt_set_credentials(cmqtt_client *client, const char *username, const char *password) {
    return mosquitto_username_pw_set(client->mosq, username, password);
}

int cmqtt_set_tls(cmqtt_client *client, const char *ca_file, const char *cert_file, const char *key_file) {
    return mosquitto_tls_set(client->mosq, ca_file, NULL, cert_file, key_file, NULL);
}

int cmqtt_set_will(cmqtt_client *client, const char *topic, const void *payload, int length, int qos) {
    return mosquitto_will_set(client->mosq, topic, length, payload, qos, false);
}

int cmqtt_connect(cmqtt_client *client, const char *host, int port, int keepalive) {
    client->connack = -1;
    client->disconnect_rc = -1;
    return mosquitto_connect_async(client->mosq, host, port, keepalive);
}

int cmqtt_disconnect(cmqtt_client *client) { return mosquitto_disconnect(client->mosq); }

int cmqtt_publish(cmqtt_client *client, const char *topic, const void *payload, int length, int qos, bool retain, int *mid) {
    return mosquitto_publish(client->mosq, mid, topic, length, payload, qos, retain);
}

int cmqtt_loop(cmqtt_client *client, int timeout_ms) { return mosquitto_loop(client->mosq, timeout_ms, 1); }

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

const char *cmqtt_strerror(int rc) { return mosquitto_strerror(rc); }

const char *cmqtt_connack_string(int code) { return mosquitto_connack_string(code); }

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
