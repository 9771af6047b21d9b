// Swift's Glibc module does not include <sys/epoll.h>; this module makes epoll_create1,
// epoll_ctl, epoll_wait and struct epoll_event visible to Swift.
#ifndef LIVEFANOUT_CEPOLL_SHIM_H
#define LIVEFANOUT_CEPOLL_SHIM_H

#include <sys/epoll.h>

#endif
