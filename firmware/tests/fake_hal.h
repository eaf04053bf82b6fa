/* A hardware layer the unit tests drive by hand: the clock, the host's bytes in, the MCU's frames out, switches,
 * stack counters, the disc and the dice, as plain variables. */
#ifndef MJ_FAKE_HAL_H
#define MJ_FAKE_HAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/frame.h"
#include "hal.h"

struct fake {
    uint64_t now;
    uint8_t rx[4096];
    unsigned rx_len, rx_pos;
    uint8_t tx[8192];
    unsigned tx_len;
    uint16_t sensors;
    int8_t motor[HAL_MOTORS];
    uint8_t wall_tiles[4];
    struct hal_count count[4];
    bool mixed;
    bool dice_ready;
    uint8_t dice[2];
    bool lamp[5];
    unsigned kicks;
    unsigned safe_outputs;        /* hal_safe_outputs() calls */
    uint8_t driver_faults;        /* what hal_driver_faults() returns */
    bool at_limit[HAL_MOTORS];    /* what hal_step_limit_reached() returns */
};

extern struct fake fake;

void fake_reset(void);
/* Queue a host frame (or raw bytes) for the core to read at its next poll. */
void fake_send(uint8_t seq, uint8_t type, const uint8_t *payload, uint8_t len);
void fake_send_raw(const uint8_t *data, unsigned len);
/* The MCU's next frame out, skipping SNAPSHOTs unless want_snapshot; false when none is left. */
bool fake_reply(struct frame *out, bool want_snapshot);
/* Drop everything the MCU sent so far. */
void fake_clear_tx(void);

#endif
