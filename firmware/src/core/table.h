/* The table: phases and the two-set cycle, motion commands, jam / miscount / travel detection, dice, lamps, the
 * dealer indicator, diagnostic mode and the latched fault (PROTOCOL.md §4). It drives the motors and reads the
 * sensors through hal.h; the same rules as hw_tests/mechanism.py, whose physics is src/sim on simulated boards. */
#ifndef MJ_TABLE_H
#define MJ_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "proto.h"

struct lamp_state {
    uint8_t pattern; /* enum lamp_pattern */
    uint16_t period_ms;
};

struct fault {
    uint8_t kind;      /* enum fault_kind */
    uint8_t mechanism; /* enum mechanism */
    uint8_t side;      /* 0-3 or NO_SIDE */
};

/* What a snapshot shows of the table (the link adds CONFIGURED, serial, last_seq and the checksum). */
struct table_view {
    uint8_t phase;
    uint8_t flags; /* DIAGNOSTIC, MOTORS_ON, MIXED, MODE_PENDING */
    uint16_t sensors;
    uint8_t counts[SEATS];
    uint8_t targets[SEATS];
    struct fault fault;
    uint8_t dice[2];
    uint8_t dice_serial;
    uint8_t built_set;
};

/* Power-on state: every motor off; the phase from the lift switches (all up: LIFTED, else IDLE). */
void table_init(uint64_t now);

/* CONFIGURE's payload (CONFIGURE_SIZE bytes, checksum checked by the caller): the result for its ACK.
 * first: the MCU had no configuration yet, so a new tile count applies at once. */
uint8_t table_configure(const uint8_t *payload, bool first, uint64_t now);

/* Run one decoded sequenced command other than CONFIGURE (the payload has its type's size); the ACK's result. */
uint8_t table_execute(uint8_t type, const uint8_t *payload, uint64_t now);

/* Every motor off now (hal_safe_outputs), the fault latched unless one is (the first wins), the phase back to the
 * last stable one. */
void table_stop_all(uint8_t kind, uint8_t mechanism, uint8_t side);

/* Follow the sensors and counters, end motions, check the jam and travel deadlines, blink the lamps. */
void table_update(uint64_t now);

/* When table_update next has something to do by the clock alone (a deadline, a lamp edge); UINT64_MAX: nothing. */
uint64_t table_next_due(uint64_t now);

bool table_motors_on(void);
/* DIAGNOSTIC 15 is on: the core must stop polling, so that the watchdog resets the MCU. */
bool table_watchdog_test(void);
void table_view(struct table_view *view);
/* Bumped on every change a snapshot shows: the link sends a snapshot when it moves. */
uint32_t table_version(void);
const struct lamp_state *table_lamps(void);
void table_dealer(uint8_t *seat, uint8_t *round_wind);

#endif
