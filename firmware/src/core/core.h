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
    uint32_t max_snapshot_gap_us; /* the longest time between two snapshots sent, on the MCU's own clock */
    uint32_t max_poll_gap_us;     /* the longest time between two polls: a main loop held up shows here */
};

/* Forget the two maxima above (the side channel's QUERY 1), to time what comes next. */
void core_reset_gaps(void);

const struct core_stats *core_stats(void);
const struct frame_stats *core_frame_stats(void);

#endif
