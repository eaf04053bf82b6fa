/* The link side of the core; core_init and core_poll, its entry points, are declared in hal.h. */
#ifndef MJ_CORE_H
#define MJ_CORE_H

#include <stdint.h>

#include "core/frame.h"

/* What the core counts for the tests and the side channel (kept across a simulated reboot). */
struct core_stats {
    uint16_t duplicates_dropped; /* retransmissions re-acknowledged, not run again */
    uint16_t naks_sent;
    uint16_t watchdog_trips; /* the host-silence watchdog stopped the motors */
};

const struct core_stats *core_stats(void);
const struct frame_stats *core_frame_stats(void);

#endif
