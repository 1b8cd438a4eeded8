/*
 * CMQTT — locationd's shim over libmosquitto (Debian's libmosquitto-dev).
 *
 * The only code in locationd that sees `struct mosquitto`. One `cmqtt_client`
 * is one MQTT connection attempt and the session that follows it: made by
 * `cmqtt_new`, configured, connected with `cmqtt_connect`, driven by
 * `cmqtt_loop` on the caller's one thread, and destroyed after it ends (a new
 * attempt gets a new client, so nothing libmosquitto queued for the old
 * session is ever sent twice behind the caller's back).
 *
 * libmosquitto reports through callbacks that run inside `cmqtt_loop`; the
 * shim turns them into values the caller reads after each loop call:
 *
 *   on_connect     `cmqtt_connack`: -1 until the broker answered, then its
 *                  CONNACK code (0 accepted; MQTT 3.1.1: 1 protocol, 2 client
 *                  id, 3 unavailable, 4 bad user name or password, 5 not
 *                  authorised)
 *   on_publish     `cmqtt_take_acks`: message ids the broker acknowledged
 *                  (QoS 1 PUBACK, QoS 2 PUBCOMP), or that were written to the
 *                  socket (QoS 0), in the order libmosquitto reported them
 *   on_disconnect  `cmqtt_disconnect_rc`: -1 while the session lasts, then
 *                  libmosquitto's reason (0 after `cmqtt_disconnect`)
 *
 * libmosquitto is not linked into the daemon: `cmqtt_library_load` opens it
 * (dlopen, RTLD_NOW | RTLD_LOCAL) when the first publisher starts, so a
 * daemon without MQTT clients never maps it or its TLS libraries. The
 * loading is thread-safe and happens once per process; everything else
 * needs it done.
 *
 * Not thread-safe: one thread owns a client from `cmqtt_new` to
 * `cmqtt_destroy`. libmosquitto runs no thread of its own here (no
 * mosquitto_loop_start); `cmqtt_loop` blocks in select(2) for at most its
 * timeout.
 */
#ifndef CMQTT_H
#define CMQTT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct cmqtt_client cmqtt_client;

/* The soname opened: "libmosquitto.so.1". */
const char *cmqtt_library_name(void);

/* Opens libmosquitto, resolves every function the shim calls, checks that its
 * major version is the one built against (2), and initialises it — once per
 * process, whichever thread comes first; later calls return at once. 1 when
 * this call loaded it, 0 when it was loaded already; -1 when it cannot be, with the reason in `message` (cut to
 * `capacity`, NUL-terminated), e.g. "MQTT needs libmosquitto.so.1 (Debian
 * package libmosquitto1): <dlerror>". Nothing stays open after a failure,
 * and the next call tries again (so installing the package is enough). */
int cmqtt_library_load(char *message, size_t capacity);

/* Whether `cmqtt_library_load` has succeeded in this process. */
bool cmqtt_library_is_loaded(void);

/* Opens `soname` as `cmqtt_library_load` would (resolving every function,
 * checking the version), then closes it again without using it: 0, or -1
 * with the same message. Changes nothing of the loaded library. */
int cmqtt_library_check(const char *soname, char *message, size_t capacity);

/* libmosquitto's version as major*1000000 + minor*1000 + revision; 0 before
 * it is loaded. */
int cmqtt_library_version(void);

/* A new client with a random client id and a clean session; NULL with errno
 * set when out of memory (ELIBACC before `cmqtt_library_load` succeeded). */
cmqtt_client *cmqtt_new(void);

/* Ends the session (if any) and frees everything. NULL is fine. */
void cmqtt_destroy(cmqtt_client *client);

/* User name and password (password may be NULL). A libmosquitto error code. */
int cmqtt_set_credentials(cmqtt_client *client, const char *username, const char *password);

/* TLS: CA file (required to turn TLS on), client certificate and key (both or
 * neither). The broker's certificate is verified against the CA and its host
 * name. A libmosquitto error code (MOSQ_ERR_INVAL for a file it cannot read). */
int cmqtt_set_tls(cmqtt_client *client, const char *ca_file, const char *cert_file, const char *key_file);

/* The last will: published by the broker when the connection ends without a
 * DISCONNECT (crash, SIGKILL, network cut). Not retained. */
int cmqtt_set_will(cmqtt_client *client, const char *topic, const void *payload, int length, int qos);

/* Starts connecting (non-blocking TCP connect; the name is resolved here, which
 * may block). The outcome comes through `cmqtt_loop` and `cmqtt_connack`.
 * A libmosquitto error code; MOSQ_ERR_ERRNO leaves errno set. */
int cmqtt_connect(cmqtt_client *client, const char *host, int port, int keepalive);

/* Sends DISCONNECT (so the broker does not publish the will). */
int cmqtt_disconnect(cmqtt_client *client);

/* Queues one PUBLISH; `*mid` gets its message id. A libmosquitto error code. */
int cmqtt_publish(cmqtt_client *client, const char *topic, const void *payload, int length, int qos, bool retain, int *mid);

/* Runs libmosquitto's network loop once: waits up to `timeout_ms` for the
 * socket, reads, writes, keeps the session alive, runs the callbacks. A
 * libmosquitto error code: MOSQ_ERR_SUCCESS while the session lasts,
 * MOSQ_ERR_NO_CONN when there is none, another code when it ended (with
 * errno set for MOSQ_ERR_ERRNO). */
int cmqtt_loop(cmqtt_client *client, int timeout_ms);

/* -1 until the broker answered CONNECT, then its CONNACK code. */
int cmqtt_connack(const cmqtt_client *client);

/* -1 while the session lasts, then why it ended (libmosquitto's code). */
int cmqtt_disconnect_rc(const cmqtt_client *client);

/* Moves up to `capacity` acknowledged message ids into `mids`; returns how many. */
int cmqtt_take_acks(cmqtt_client *client, int *mids, int capacity);

/* libmosquitto's words for an error code and for a CONNACK code (before it is
 * loaded: "libmosquitto is not loaded"). */
const char *cmqtt_strerror(int rc);
const char *cmqtt_connack_string(int code);

/* The error-code constants Swift needs, so the Swift side never includes mosquitto.h. */
int cmqtt_err_success(void);
int cmqtt_err_no_conn(void);
int cmqtt_err_conn_pending(void);
int cmqtt_err_errno(void);
int cmqtt_err_tls(void);
int cmqtt_err_tls_handshake(void);
int cmqtt_err_auth(void);
int cmqtt_err_conn_refused(void);
int cmqtt_err_lookup(void);
int cmqtt_err_eai(void);

#endif
