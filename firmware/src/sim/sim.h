/* The simulated mechanism and its side channel, linked into simulated boards only (CONFIG_SIMULATED=1).
 *
 * mechanism.c implements the mechanism half of hal.h as the physics of hw_tests/mechanism.py (timings scaled by
 * the speed, jitter and dice from the Python-identical random source, jams, a short side and planned reboots of
 * the FaultPlan); simchan.c speaks the side channel. The core calls everything here from core_init / core_poll. */
#ifndef MJ_SIM_H
#define MJ_SIM_H

#include <stdbool.h>
#include <stdint.h>

#define SIM_MAX_JAMS 4

struct sim_jam {
    uint8_t mechanism; /* MECH_STACKER (after after_stacks stacks), MECH_LIFT (its switch never closes, either way),
                        * MECH_HATCH (neither hatch switch closes), MECH_DISC (the index sensor never counts enough
                        * revolutions), MECH_DICE (they never settle) */
    uint8_t side;      /* STACKER and LIFT: 0-3; the others ignore it */
    uint8_t after_stacks;
};

struct sim_faults {
    uint8_t jams;
    struct sim_jam jam[SIM_MAX_JAMS];
    uint8_t short_side;     /* that side's wall comes out one tile short; NO_SIDE: none */
    uint8_t reset_phase;    /* reboot reset_after_ms after the table enters it; 0xFF: none */
    uint16_t reset_after_ms;
    uint8_t driver_faults; /* mechanisms (1 << mechanism) whose driver's fault output is asserted, at rest or not */
    uint8_t overcurrent;   /* mechanisms whose driver reports over-current while one of their motors runs */
};

/* What the simulated mechanism counts for the side channel's STATE (kept across reboots, as the table is). */
struct sim_stats {
    uint16_t resets_with_outputs_on; /* reboots that found a motor output still driven: nothing made them safe */
};

/* The mechanism at rest (hatch closed, plates down) the first time; later calls keep it (a reboot of the chip
 * does not move the table, and the qemu board keeps it in RAM that its start-up code does not clear), but stop every
 * motor, as the reset chip's floating outputs do, counting a reboot that found one still driven. Seed 2 and speed 1,
 * as McuSimulator(seed=0, speed=1) seeds its model. */
void sim_start(void);
#define SIM_MAX_KEY_WORDS 32

/* The timings divided by speed_milli / 1000 (10 to 1,000,000). */
void sim_speed(uint32_t speed_milli);
/* The random source as random.Random(seed), seed given as its 32-bit words, least significant first (1-32). */
void sim_seed(const uint32_t *key, uint16_t words);
void sim_set_faults(const struct sim_faults *faults);
/* Reboot the chip (core_init with reason) at the next chance: hal_reboot_requested() returns it once. */
void sim_request_reboot(uint8_t reason);
void sim_press_key(uint8_t seat, bool held);

/* The core's time for what follows in this poll; the side channel read and answered (simchan.c). */
void sim_poll(uint64_t now);
/* Everything the mechanism does by itself up to now, in time order. */
void sim_advance(uint64_t now);
uint64_t sim_next_due(void);

/* Events for the side channel. */
void sim_executed(uint8_t seq, uint8_t type, uint16_t token);
void sim_watchdog_tripped(uint32_t silent_us);

/* mechanism.c's clock for hal_motor calls, set by sim_poll. */
void sim_clock(uint64_t now);
const struct sim_stats *sim_stats(void);
/* The motor outputs driven now, one bit per enum hal_motor: what the mechanism really does, whatever the core
 * believes (a fault that forgot to make the outputs safe shows here). */
uint16_t sim_outputs_on(void);

#endif
