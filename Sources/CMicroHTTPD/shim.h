// Swift cannot call C variadic functions, and libmicrohttpd's daemon, connection-info and
// daemon-info calls are variadic. These static inline wrappers give Swift fixed signatures,
// the way GRDB's shim wraps SQLite's variadic configuration calls.
#ifndef TABLEPAGES_CMICROHTTPD_SHIM_H
#define TABLEPAGES_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <microhttpd.h>

/// Receives libmicrohttpd's own error messages, already formatted; defined in Swift (MicroHTTP) so
/// they reach swift-log instead of going raw to stderr.
void tp_forward_log_message(void *cls, const char *message);

/// libmicrohttpd's external logger takes a printf format and a va_list, which Swift cannot format.
static inline void tp_format_log(void *cls, const char *format, va_list arguments)
{
    char message[512];
    vsnprintf(message, sizeof message, format, arguments);
    tp_forward_log_message(cls, message);
}

/// libmicrohttpd's unescape callback (the header documents its shape but declares no typedef):
/// decodes `s` in place and returns its new length.
typedef size_t (*tp_unescape_callback)(void *cls, struct MHD_Connection *connection, char *s);

/// The daemon settings MicroHTTP exposes; zero means "libmicrohttpd's own default" for each limit.
typedef struct tp_daemon_settings {
    unsigned int flags;
    const struct sockaddr *address;   // bind address (NULL: any address on `port`)
    uint16_t port;
    unsigned int thread_pool_size;
    unsigned int connection_limit;
    unsigned int connection_timeout;  // seconds
    size_t connection_memory_limit;   // bytes
    int listen_backlog;
} tp_daemon_settings;

/// libmicrohttpd's URI log callback: called with the request target before libmicrohttpd cuts
/// it at `?`; what it returns becomes the request's context pointer.
typedef void *(*tp_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/// Starts a daemon with every option passed through MHD_OPTION_ARRAY, so no variadic call crosses into Swift.
static inline struct MHD_Daemon *
tp_start_daemon(const tp_daemon_settings *s,
                MHD_AcceptPolicyCallback accept_policy,
                MHD_AccessHandlerCallback handler, void *handler_cls,
                MHD_RequestCompletedCallback completed, void *completed_cls,
                MHD_NotifyConnectionCallback notify_connection,
                tp_unescape_callback unescape,
                tp_uri_log_callback uri_log)
{
    struct MHD_OptionItem options[16];
    int n = 0;
    if (s->thread_pool_size > 1) {
        options[n++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, s->thread_pool_size, NULL };
    }
    if (s->connection_limit > 0) {
        options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, s->connection_limit, NULL };
    }
    if (s->connection_timeout > 0) {
        options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, s->connection_timeout, NULL };
    }
    if (s->connection_memory_limit > 0) {
        options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)s->connection_memory_limit, NULL };
    }
    if (s->listen_backlog > 0) {
        options[n++] = (struct MHD_OptionItem){ MHD_OPTION_LISTEN_BACKLOG_SIZE, s->listen_backlog, NULL };
    }
    if (s->address != NULL) {
        options[n++] = (struct MHD_OptionItem){ MHD_OPTION_SOCK_ADDR, 0, (void *)s->address };
    }
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)tp_format_log, handler_cls };
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_cls };
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)notify_connection, completed_cls };
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)unescape, NULL };
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)uri_log, handler_cls };
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
    return MHD_start_daemon(s->flags, s->port, accept_policy, handler_cls, handler, handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port the daemon is bound to (the real one when it was started on port 0), or 0.
static inline uint16_t tp_daemon_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// poll()'s "peer closed its end" event: Linux's POLLRDHUP, which glibc declares only under
/// _GNU_SOURCE (0 elsewhere: hang-ups are then seen as POLLHUP only).
#if defined(__linux__)
#define TP_POLL_PEER_CLOSED 0x2000
#else
#define TP_POLL_PEER_CLOSED 0
#endif

/// The number of connections the daemon holds open right now.
static inline unsigned int tp_daemon_connection_count(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

/// The peer's socket address, or NULL.
static inline const struct sockaddr *tp_connection_client_address(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// Sets one connection's idle timeout in seconds (0: none), e.g. for a long-lived event stream.
static inline void tp_connection_set_timeout(struct MHD_Connection *connection, unsigned int seconds)
{
    MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

/// The connection's socket, or -1. Call only on the connection's event thread.
static inline int tp_connection_fd(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// What the connection-notify callback stored in the connection's `socket_context`, or NULL.
static inline void *tp_connection_socket_context(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/// Milliseconds since the kernel last received data on the TCP socket `fd`, or -1 when it cannot
/// tell (not TCP, or a platform without `TCP_INFO`). Never blocks.
static inline int64_t tp_socket_milliseconds_since_data(int fd)
{
#if defined(__linux__) && defined(TCP_INFO)
    struct tcp_info info;
    socklen_t length = sizeof info;
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return -1;
    return (int64_t)info.tcpi_last_data_recv;
#else
    (void)fd;
    return -1;
#endif
}

#endif
