#ifndef C_HEAP_STATS_H
#define C_HEAP_STATS_H

#include <stddef.h>

/// The bytes the allocator has handed out and not yet taken back (glibc's mallinfo2, or the
/// default zone's statistics on Darwin).
size_t cheapstats_bytes_in_use(void);

#endif
