/* The simulated mechanism: the mechanism half of hal.h as the physics of hw_tests/mechanism.py.
 *
 * Motors started by the core schedule what the real mechanism would do (a hatch switch closing after hatch_s, the
 * disc mixed after shuffle_s × U(0.9, 1.1), one stack per interval × U(0.9, 1.1) into each side's groove, a lift
 * plate on its up switch after lift_s × U(0.95, 1.05), the platforms down after lower_s, the dice after dice_s), and
 * the random draws come in the same order from the same random source as in the Python model, so the same seed
 * gives the same dice. The core decides everything else (phases, jams, miscounts, timeouts) from the sensors. One
 * difference: a planned reboot (FaultPlan.reset) fires even if a fault stopped the motors before it (the Python
 * model cancels it then); a chip that reboots does not ask whether a fault came first.
 *
 * The steppers (hatch, lift plates) stop by themselves at the step limit, SIM_STEP_LIMIT times their nominal travel
 * (their steps at the nominal rate): hal_step_limit_reached() then says so. A FaultPlan's jams of the hatch, the disc,
 * a plate or the dice are sensors that never fire; its driver faults and over-currents are drivers' fault outputs. */
#include <string.h>

#include "hal.h"
#include "proto.h"
#include "sim/mt.h"
#include "sim/sim.h"

#define NEVER UINT64_MAX
#define SIM_STEP_LIMIT 4u
#define STARTED 0x4D4A5349u /* "MJSI": the state below is the table's, not RAM as it powered up */

/* Table seconds at speed 1, in µs (hw_tests.mechanism.Timings). */
enum { HATCH_US = 1500000, SHUFFLE_US = 8000000, STACK_US = 1200000, LIFT_US = 2500000, LOWER_US = 2000000,
       DICE_US = 1200000 };

struct side {
    uint8_t wall_tiles;  /* what the feeder meters into this wall */
    uint8_t pushes_left;
    struct hal_count count;
    uint64_t push_due;
    uint64_t lift_due;
    uint64_t lift_limit_due; /* the plate's step limit */
    int8_t lift_direction;
};

/* In .noinit: the qemu board's reset (its emulated watchdog) restarts the firmware with RAM as it was, and the start-up
 * code clears .bss only; the table does not move because its MCU reset. */
static struct {
    uint32_t started;
    struct mt rng;
    uint32_t speed_milli;
    uint64_t now;
    uint16_t sensors;
    int8_t hatch_direction;
    uint64_t hatch_due, hatch_limit_due, disc_due, dice_due, reset_due;
    bool mixed, dice_ready;
    uint8_t dice[2];
    struct side side[SEATS];
    struct sim_faults faults;
    uint8_t reboot;
    int8_t on[HAL_MOTORS];          /* the outputs as driven: what a safe state or a reset turns off */
    bool at_limit[HAL_MOTORS];      /* the stepper's last move ended at its step limit */
    struct sim_stats stats;
} s __attribute__((section(".noinit")));

static uint64_t scaled(uint32_t us)
{
    return (uint64_t)us * 1000 / s.speed_milli;
}

static void cancel_all(void)
{
    s.hatch_due = s.hatch_limit_due = s.disc_due = s.dice_due = s.reset_due = NEVER;
    for (int i = 0; i < SEATS; i++)
        s.side[i].push_due = s.side[i].lift_due = s.side[i].lift_limit_due = NEVER;
}

void sim_start(void)
{
    if (s.started == STARTED) {
        for (int m = 0; m < HAL_MOTORS; m++)
            if (s.on[m]) {
                s.stats.resets_with_outputs_on++;
                break;
            }
        memset(s.on, 0, sizeof s.on);
        s.hatch_due = s.hatch_limit_due = s.disc_due = s.dice_due = NEVER;
        for (int i = 0; i < SEATS; i++)
            s.side[i].push_due = s.side[i].lift_due = s.side[i].lift_limit_due = NEVER;
        return;
    }
    memset(&s, 0, sizeof s);
    s.started = STARTED;
    s.sensors = SENSOR_HATCH_CLOSED | SENSOR_ALL_LIFT_DOWN;
    s.faults.short_side = NO_SIDE;
    s.faults.reset_phase = 0xFF;
    cancel_all();
    s.speed_milli = 1000;
    mt_seed(&s.rng, (const uint32_t[]){2}, 1);
}

void sim_speed(uint32_t speed_milli)
{
    s.speed_milli = speed_milli;
}

void sim_seed(const uint32_t *key, uint16_t words)
{
    mt_seed(&s.rng, key, words);
}

void sim_set_faults(const struct sim_faults *faults)
{
    s.faults = *faults;
}

void sim_request_reboot(uint8_t reason)
{
    s.reboot = reason;
}

void sim_press_key(uint8_t seat, bool held)
{
    s.sensors = (uint16_t)(held ? s.sensors | SENSOR_KEY(seat) : s.sensors & ~SENSOR_KEY(seat));
}

void sim_clock(uint64_t now)
{
    s.now = now;
}

static bool jammed(uint8_t mechanism, uint8_t side, uint8_t done)
{
    for (uint8_t i = 0; i < s.faults.jams; i++) {
        const struct sim_jam *jam = &s.faults.jam[i];
        bool sided = mechanism == MECH_STACKER || mechanism == MECH_LIFT;
        if (jam->mechanism == mechanism && (!sided || jam->side == side) && done >= jam->after_stacks)
            return true;
    }
    return false;
}

static uint8_t mechanism_of(enum hal_motor motor)
{
    switch (motor) {
    case HAL_MOTOR_HATCH: return MECH_HATCH;
    case HAL_MOTOR_DISC: return MECH_DISC;
    case HAL_MOTOR_DICE: return MECH_DICE;
    default: return motor < HAL_MOTOR_LIFT0 ? MECH_STACKER : MECH_LIFT;
    }
}

static uint64_t stack_interval(void)
{
    return mt_scaled(&s.rng, scaled(STACK_US), 900, 200);
}

static void start_side(uint8_t index, int8_t direction, uint8_t wall_tiles, bool stacker)
{
    struct side *side = &s.side[index];
    if (stacker) {
        side->push_due = NEVER;
        if (!direction)
            return;
        side->wall_tiles = wall_tiles;
        side->pushes_left = (uint8_t)((wall_tiles + 1) / 2);
        memset(&side->count, 0, sizeof side->count);
        side->push_due = s.now + stack_interval();
        return;
    }
    side->lift_due = side->lift_limit_due = NEVER;
    side->lift_direction = direction;
    if (direction > 0) {
        s.sensors &= (uint16_t)~SENSOR_LIFT_DOWN(index);
        uint64_t travel = mt_scaled(&s.rng, scaled(LIFT_US), 950, 100); /* drawn for a jammed plate too */
        side->lift_due = jammed(MECH_LIFT, index, 0xFF) ? NEVER : s.now + travel; /* a plate jams at once */
        side->lift_limit_due = s.now + SIM_STEP_LIMIT * scaled(LIFT_US);
    } else if (direction < 0) {
        s.sensors &= (uint16_t)~SENSOR_LIFT_UP(index);
        side->lift_due = jammed(MECH_LIFT, index, 0xFF) ? NEVER : s.now + scaled(LOWER_US);
        side->lift_limit_due = s.now + SIM_STEP_LIMIT * scaled(LOWER_US);
    }
}

void hal_motor(enum hal_motor motor, int8_t direction, uint8_t wall_tiles)
{
    s.on[motor] = direction;
    if (direction)
        s.at_limit[motor] = false;
    switch (motor) {
    case HAL_MOTOR_HATCH:
        s.hatch_due = s.hatch_limit_due = NEVER;
        s.hatch_direction = direction;
        if (direction) {
            s.sensors &= (uint16_t)~(SENSOR_HATCH_OPEN | SENSOR_HATCH_CLOSED);
            s.hatch_due = jammed(MECH_HATCH, NO_SIDE, 0) ? NEVER : s.now + scaled(HATCH_US);
            s.hatch_limit_due = s.now + SIM_STEP_LIMIT * scaled(HATCH_US);
        }
        break;
    case HAL_MOTOR_DISC:
        s.disc_due = NEVER;
        if (direction) {
            s.mixed = false;
            uint64_t mix = mt_scaled(&s.rng, scaled(SHUFFLE_US), 900, 200); /* drawn for a dead index sensor too */
            s.disc_due = jammed(MECH_DISC, NO_SIDE, 0) ? NEVER : s.now + mix;
        }
        break;
    case HAL_MOTOR_DICE:
        s.dice_due = NEVER;
        if (direction) {
            s.dice_ready = false;
            s.dice_due = jammed(MECH_DICE, NO_SIDE, 0) ? NEVER : s.now + scaled(DICE_US);
        }
        break;
    default:
        if (motor < HAL_MOTOR_LIFT0)
            start_side((uint8_t)(motor - HAL_MOTOR_STACKER0), direction, wall_tiles, true);
        else if (motor < HAL_MOTORS)
            start_side((uint8_t)(motor - HAL_MOTOR_LIFT0), direction, 0, false);
        break;
    }
}

/* One stack reaches the groove of a side: the count sensor's vane turns; a jammed stacker pushes nothing. */
static void push(uint8_t index, uint64_t at)
{
    struct side *side = &s.side[index];
    uint8_t done = side->count.stacks;
    if (jammed(MECH_STACKER, index, done)) {
        side->push_due = NEVER;
        return;
    }
    int tiles = side->wall_tiles - 2 * done;
    if (tiles > 2)
        tiles = 2;
    side->pushes_left--;
    if (s.faults.short_side == index && !side->pushes_left)
        tiles--;
    side->count.stacks++;
    side->count.tiles = (uint8_t)(side->count.tiles + tiles);
    side->count.edge_us = at;
    s.sensors ^= SENSOR_COUNTER;
    side->push_due = side->pushes_left ? at + stack_interval() : NEVER;
}

void hal_safe_outputs(void)
{
    for (int m = 0; m < HAL_MOTORS; m++)
        hal_motor((enum hal_motor)m, 0, 0);
}

bool hal_step_limit_reached(enum hal_motor motor)
{
    return s.at_limit[motor];
}

uint64_t sim_next_due(void)
{
    uint64_t next = s.reset_due;
    uint64_t dues[] = {s.dice_due, s.hatch_due, s.disc_due, s.hatch_limit_due};
    for (unsigned i = 0; i < sizeof dues / sizeof dues[0]; i++)
        if (dues[i] < next)
            next = dues[i];
    for (int i = 0; i < SEATS; i++) {
        if (s.side[i].push_due < next)
            next = s.side[i].push_due;
        if (s.side[i].lift_due < next)
            next = s.side[i].lift_due;
        if (s.side[i].lift_limit_due < next)
            next = s.side[i].lift_limit_due;
    }
    return next;
}

/* The event due at `due`, in the Python model's order for equal times: reset, dice, hatch/disc, push, lift, and
 * last a stepper at its step limit (it stops there: its output off, hal_step_limit_reached says why). */
static void step(uint64_t due)
{
    if (due == s.reset_due) {
        cancel_all(); /* the chip resets: its pins float, the motors stop */
        s.reboot = RESET_WATCHDOG;
        return;
    }
    if (due == s.dice_due) {
        s.dice_due = NEVER;
        s.dice[0] = (uint8_t)mt_randint(&s.rng, 1, 6);
        s.dice[1] = (uint8_t)mt_randint(&s.rng, 1, 6);
        s.dice_ready = true;
        return;
    }
    if (due == s.hatch_due) {
        s.hatch_due = s.hatch_limit_due = NEVER;
        s.sensors |= s.hatch_direction > 0 ? SENSOR_HATCH_OPEN : SENSOR_HATCH_CLOSED;
        return;
    }
    if (due == s.disc_due) {
        s.disc_due = NEVER;
        s.mixed = true;
        return;
    }
    for (uint8_t i = 0; i < SEATS; i++) {
        if (due == s.side[i].push_due) {
            push(i, due);
            return;
        }
    }
    for (uint8_t i = 0; i < SEATS; i++) {
        if (due == s.side[i].lift_due) {
            s.side[i].lift_due = s.side[i].lift_limit_due = NEVER;
            s.sensors |= s.side[i].lift_direction > 0 ? SENSOR_LIFT_UP(i) : SENSOR_LIFT_DOWN(i);
            return;
        }
    }
    if (due == s.hatch_limit_due) {
        s.hatch_limit_due = NEVER;
        s.hatch_due = NEVER;
        s.on[HAL_MOTOR_HATCH] = 0;
        s.at_limit[HAL_MOTOR_HATCH] = true;
        return;
    }
    for (uint8_t i = 0; i < SEATS; i++) {
        if (due == s.side[i].lift_limit_due) {
            s.side[i].lift_limit_due = s.side[i].lift_due = NEVER;
            s.on[HAL_MOTOR_LIFT0 + i] = 0;
            s.at_limit[HAL_MOTOR_LIFT0 + i] = true;
            return;
        }
    }
}

void sim_advance(uint64_t now)
{
    uint64_t due;
    s.now = now;
    while (!s.reboot && (due = sim_next_due()) <= now)
        step(due);
}

/* -- the rest of the mechanism half of hal.h ------------------------------------------------------------------ */

uint16_t hal_sensors(void)
{
    return s.sensors;
}

void hal_stack_counter(uint8_t side, struct hal_count *count)
{
    *count = s.side[side].count;
}

bool hal_disc_mixed(void)
{
    return s.mixed;
}

bool hal_dice_settled(uint8_t dice[2])
{
    if (!s.dice_ready)
        return false;
    memcpy(dice, s.dice, 2);
    return true;
}

uint8_t hal_driver_faults(void)
{
    uint8_t running = 0;
    for (int m = 0; m < HAL_MOTORS; m++)
        if (s.on[m])
            running |= (uint8_t)(1u << mechanism_of((enum hal_motor)m));
    return (uint8_t)(s.faults.driver_faults | (s.faults.overcurrent & running));
}

uint32_t hal_nominal_us(enum hal_nominal which)
{
    switch (which) {
    case HAL_NOMINAL_LIFT: return (uint32_t)scaled(LIFT_US);
    case HAL_NOMINAL_LOWER: return (uint32_t)scaled(LOWER_US);
    case HAL_NOMINAL_HATCH: return (uint32_t)scaled(HATCH_US);
    case HAL_NOMINAL_MIX: return (uint32_t)scaled(SHUFFLE_US);
    case HAL_NOMINAL_DICE: return (uint32_t)scaled(DICE_US);
    default: return (uint32_t)scaled(STACK_US);
    }
}

uint16_t sim_outputs_on(void)
{
    uint16_t on = 0;
    for (int m = 0; m < HAL_MOTORS; m++)
        if (s.on[m])
            on |= (uint16_t)(1u << m);
    return on;
}

const struct sim_stats *sim_stats(void)
{
    return &s.stats;
}

void hal_phase_entered(uint8_t phase, uint64_t now)
{
    if (phase == s.faults.reset_phase) {
        s.reset_due = now + s.faults.reset_after_ms * 1000ull; /* real time, whatever the speed */
        s.faults.reset_phase = 0xFF;
    }
}

uint8_t hal_reboot_requested(void)
{
    uint8_t reason = s.reboot;
    s.reboot = 0;
    return reason;
}
