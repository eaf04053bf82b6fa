/* The table's rules (see table.h). Times are microseconds of hal_time_us(); no floating point.
 *
 * Every motor the core starts has a time limit, k x its motion's nominal duration (PROTOCOL.md §4 "Motion limits"),
 * so a sensor that never fires (a broken switch, wire or index sensor) stops the motor and names it; the steppers
 * also stop by themselves at the board's step limit. Every stop goes through hal_safe_outputs().
 *
 * Rule choices the protocol leaves open follow hw_tests/mechanism.py, the executable twin: LOWER_PLATFORMS is
 * checked against the phase only; DEALER and LAMP change no snapshot field. */
#include "core/table.h"

#include <string.h>

#include "hal.h"

#define NEVER UINT64_MAX

static struct {
    uint8_t phase;
    struct fault fault;
    uint16_t sensors;
    uint8_t wall_tiles[SEATS];
    uint8_t pending_tiles[SEATS];
    bool pending;
    uint8_t jam_tenths;
    uint8_t counts[SEATS];
    uint8_t dice[2];
    uint8_t dice_serial;
    uint8_t built_set;
    bool mixed;
    bool build_requested;
    uint8_t hatch_returns_to; /* the phase the hatch opened from, where closing it returns */
    uint8_t diagnostic;
    struct lamp_state lamps[LAMPS];
    uint8_t lamps_lit; /* the outputs as last set, one bit per lamp */
    uint8_t dealer_seat, dealer_wind;
    int8_t motor[HAL_MOTORS];
    uint64_t deadline[HAL_MOTORS]; /* each running motor's time limit */
    uint64_t learned[SEATS];       /* each side's learned stack interval; 0 = the board's nominal one */
    uint64_t last_pulse[SEATS];
    uint8_t stacks_seen[SEATS];
    uint32_t version;
} t;

static void changed(void)
{
    t.version++;
}

static uint8_t mechanism_of(enum hal_motor which)
{
    switch (which) {
    case HAL_MOTOR_HATCH: return MECH_HATCH;
    case HAL_MOTOR_DISC: return MECH_DISC;
    case HAL_MOTOR_DICE: return MECH_DICE;
    default: return which < HAL_MOTOR_LIFT0 ? MECH_STACKER : MECH_LIFT;
    }
}

static uint8_t side_of(enum hal_motor which)
{
    if (which >= HAL_MOTOR_LIFT0)
        return (uint8_t)(which - HAL_MOTOR_LIFT0);
    return which >= HAL_MOTOR_STACKER0 ? (uint8_t)(which - HAL_MOTOR_STACKER0) : NO_SIDE;
}

static bool stepper(enum hal_motor which)
{
    return which == HAL_MOTOR_HATCH || which >= HAL_MOTOR_LIFT0;
}

/* The time limit of a motion: k x its nominal duration; a stacker's is its whole wall, one nominal interval per
 * stack and one more for the start, since the jam detector alone lets an interval grow by k each stack. */
static uint64_t limit(enum hal_motor which, int8_t direction, uint8_t wall_tiles)
{
    uint64_t nominal;
    switch (which) {
    case HAL_MOTOR_HATCH: nominal = hal_nominal_us(HAL_NOMINAL_HATCH); break;
    case HAL_MOTOR_DISC: nominal = hal_nominal_us(HAL_NOMINAL_MIX); break;
    case HAL_MOTOR_DICE: nominal = hal_nominal_us(HAL_NOMINAL_DICE); break;
    default:
        if (which < HAL_MOTOR_LIFT0)
            nominal = (uint64_t)hal_nominal_us(HAL_NOMINAL_STACK_INTERVAL) * ((wall_tiles + 1u) / 2u + 1u);
        else
            nominal = hal_nominal_us(direction > 0 ? HAL_NOMINAL_LIFT : HAL_NOMINAL_LOWER);
        break;
    }
    return nominal * t.jam_tenths / 10u;
}

static void run(enum hal_motor which, int8_t direction, uint8_t wall_tiles, uint64_t now)
{
    t.motor[which] = direction;
    t.deadline[which] = now + limit(which, direction, wall_tiles);
    hal_motor(which, direction, wall_tiles);
}

static void stop(enum hal_motor which)
{
    t.motor[which] = 0;
    hal_motor(which, 0, 0);
}

static void enter(uint8_t phase, uint64_t now)
{
    t.phase = phase;
    hal_phase_entered(phase, now);
}

void table_init(uint64_t now)
{
    (void)now;
    memset(&t, 0, sizeof t);
    hal_safe_outputs();
    for (uint8_t lamp = 0; lamp < LAMPS; lamp++)
        hal_lamp(lamp, false);
    t.fault.side = NO_SIDE;
    t.jam_tenths = 30;
    t.sensors = hal_sensors();
    t.phase = (t.sensors & SENSOR_ALL_LIFT_UP) == SENSOR_ALL_LIFT_UP ? PHASE_LIFTED : PHASE_IDLE;
}

bool table_motors_on(void)
{
    for (int m = 0; m < HAL_MOTORS; m++)
        if (t.motor[m])
            return true;
    return false;
}

/* A hatch, shuffle or lowering motion is under way (the twin's single "due" motion). */
static bool moving(void)
{
    return t.motor[HAL_MOTOR_HATCH] || t.motor[HAL_MOTOR_DISC] || t.phase == PHASE_LOWERING;
}

static uint8_t stable_phase(uint8_t phase)
{
    switch (phase) {
    case PHASE_SHUFFLING: return PHASE_IDLE;
    case PHASE_STACKING: return PHASE_SHUFFLING;
    case PHASE_LIFTING: return PHASE_WALLS_READY;
    case PHASE_LOWERING: return PHASE_LIFTED;
    default: return phase;
    }
}

void table_stop_all(uint8_t kind, uint8_t mechanism, uint8_t side)
{
    memset(t.motor, 0, sizeof t.motor);
    hal_safe_outputs();
    t.build_requested = false;
    if (t.phase == PHASE_STACKING)
        t.mixed = true; /* the tiles left on the disc are still mixed: BUILD_WALLS starts over at once */
    t.phase = stable_phase(t.phase);
    if (t.fault.kind == FAULT_NONE) {
        t.fault.kind = kind;
        t.fault.mechanism = mechanism;
        t.fault.side = side;
    }
    changed();
}

uint8_t table_configure(const uint8_t *payload, bool first, uint64_t now)
{
    (void)now;
    for (int side = 0; side < SEATS; side++)
        if (payload[side] < 2 || payload[side] > 40)
            return RESULT_BAD_ARGUMENT;
    if (payload[4] < 15)
        return RESULT_BAD_ARGUMENT;
    t.jam_tenths = payload[4];
    if (first || (t.phase == PHASE_IDLE && !table_motors_on())) {
        memcpy(t.wall_tiles, payload, SEATS);
        t.pending = false;
    } else if (memcmp(payload, t.wall_tiles, SEATS) != 0) {
        memcpy(t.pending_tiles, payload, SEATS); /* applied when the next SHUFFLE starts: the cycle boundary */
        t.pending = true;
    }
    changed();
    return RESULT_OK;
}

static uint8_t set_lamp(const uint8_t *payload)
{
    uint8_t lamp = payload[0], pattern = payload[1];
    uint16_t period = (uint16_t)(payload[2] << 8 | payload[3]);
    if (lamp > WIND_LAMP || (pattern == LAMP_BLINK && period < 50))
        return RESULT_BAD_ARGUMENT;
    t.lamps[lamp].pattern = pattern;
    t.lamps[lamp].period_ms = period;
    return RESULT_OK;
}

static uint8_t set_dealer(const uint8_t *payload)
{
    uint8_t seat = payload[0], wind = payload[1];
    if (seat >= SEATS || wind >= SEATS)
        return RESULT_BAD_ARGUMENT;
    t.dealer_seat = seat;
    t.dealer_wind = wind;
    for (uint8_t lamp = 0; lamp < SEATS; lamp++)
        t.lamps[lamp] = (struct lamp_state){lamp == seat ? LAMP_STEADY : LAMP_OFF, 0};
    t.lamps[WIND_LAMP] = (struct lamp_state){LAMP_STEADY, 0};
    return RESULT_OK;
}

static uint8_t diagnostic(uint8_t test)
{
    if (test > 15)
        return RESULT_BAD_ARGUMENT;
    if (test && (table_motors_on() || t.phase != PHASE_IDLE))
        return RESULT_BUSY;
    t.diagnostic = test;
    for (uint8_t bit = 0; bit < SEATS; bit++) /* the test number in binary on the seat lamps, seat 0 the MSB */
        t.lamps[bit] = (struct lamp_state){(test >> (SEATS - 1 - bit)) & 1 ? LAMP_STEADY : LAMP_OFF, 0};
    changed();
    return RESULT_OK;
}

static uint8_t hatch(bool open, uint64_t now)
{
    bool allowed = open ? (t.phase == PHASE_IDLE || t.phase == PHASE_WALLS_READY) : t.phase == PHASE_INTAKE_OPEN;
    if (moving() || !allowed)
        return RESULT_BUSY;
    if (open)
        t.hatch_returns_to = t.phase;
    enter(open ? PHASE_INTAKE_OPEN : t.hatch_returns_to, now);
    run(HAL_MOTOR_HATCH, open ? 1 : -1, 0, now);
    t.sensors = hal_sensors(); /* both hatch switches open as it leaves */
    return RESULT_OK;
}

static uint8_t shuffle(uint64_t now)
{
    if (t.phase != PHASE_IDLE || moving() || !(t.sensors & SENSOR_HATCH_CLOSED))
        return RESULT_BUSY;
    if (t.pending) { /* the cycle boundary: a new tile count applies from here */
        memcpy(t.wall_tiles, t.pending_tiles, SEATS);
        t.pending = false;
    }
    t.mixed = false;
    enter(PHASE_SHUFFLING, now);
    run(HAL_MOTOR_DISC, 1, 0, now);
    return RESULT_OK;
}

static void start_stacking(uint64_t now)
{
    t.build_requested = false;
    t.mixed = false;
    memset(t.counts, 0, sizeof t.counts);
    enter(PHASE_STACKING, now);
    for (uint8_t side = 0; side < SEATS; side++) {
        t.last_pulse[side] = now;
        t.stacks_seen[side] = 0;
        run((enum hal_motor)(HAL_MOTOR_STACKER0 + side), 1, t.wall_tiles[side], now);
    }
}

static uint8_t build_walls(uint64_t now)
{
    if (t.phase != PHASE_SHUFFLING || (t.sensors & SENSOR_ALL_LIFT_DOWN) != SENSOR_ALL_LIFT_DOWN)
        return RESULT_BUSY;
    t.build_requested = true;
    if (t.mixed)
        start_stacking(now);
    return RESULT_OK;
}

/* Only with the hatch shut: the walls rise through the table top where the hatch swings. */
static uint8_t lift_walls(uint64_t now)
{
    if (t.phase != PHASE_WALLS_READY || moving() || !(t.sensors & SENSOR_HATCH_CLOSED))
        return RESULT_BUSY;
    enter(PHASE_LIFTING, now);
    for (uint8_t side = 0; side < SEATS; side++)
        run((enum hal_motor)(HAL_MOTOR_LIFT0 + side), 1, 0, now);
    t.sensors = hal_sensors();
    return RESULT_OK;
}

static uint8_t lower_platforms(uint64_t now)
{
    if (t.phase != PHASE_LIFTED)
        return RESULT_BUSY;
    enter(PHASE_LOWERING, now);
    for (uint8_t side = 0; side < SEATS; side++)
        run((enum hal_motor)(HAL_MOTOR_LIFT0 + side), -1, 0, now);
    t.sensors = hal_sensors();
    return RESULT_OK;
}

static uint8_t roll_dice(uint64_t now)
{
    if (t.motor[HAL_MOTOR_DICE])
        return RESULT_BUSY;
    run(HAL_MOTOR_DICE, 1, 0, now);
    return RESULT_OK;
}

/* End switches that exclude each other, both closed: a shorted switch or wire, so no motion can trust them. */
static bool sensors_conflict(uint16_t sensors)
{
    if ((sensors & SENSOR_HATCH_OPEN) && (sensors & SENSOR_HATCH_CLOSED))
        return true;
    return (sensors & SENSOR_ALL_LIFT_UP) & ((sensors & SENSOR_ALL_LIFT_DOWN) >> 4);
}

/* A latched fault is cleared only once its cause is gone: no driver reporting a fault (over-current, a driver at
 * fault), no end switches in a state the mechanism cannot be in. Otherwise the refusal names the cause. */
static uint8_t clear_fault(void)
{
    if (t.fault.kind == FAULT_NONE)
        return RESULT_OK;
    if (hal_driver_faults())
        return RESULT_DRIVER_FAULT;
    if (sensors_conflict(hal_sensors()))
        return RESULT_SENSOR_CONFLICT;
    t.fault = (struct fault){FAULT_NONE, MECH_NONE, NO_SIDE};
    changed();
    return RESULT_OK;
}

uint8_t table_execute(uint8_t type, const uint8_t *payload, uint64_t now)
{
    switch (type) {
    case MSG_NOP: return RESULT_OK;
    case MSG_LAMP: return set_lamp(payload);
    case MSG_DEALER: return set_dealer(payload);
    case MSG_CLEAR_FAULT: return clear_fault();
    case MSG_DIAGNOSTIC: return diagnostic(payload[0]);
    default: break;
    }
    if (t.fault.kind != FAULT_NONE)
        return RESULT_FAULTED;
    if (t.diagnostic)
        return RESULT_DIAGNOSTIC;
    uint8_t result;
    switch (type) {
    case MSG_HATCH: result = hatch(payload[0] != 0, now); break;
    case MSG_SHUFFLE: result = shuffle(now); break;
    case MSG_BUILD_WALLS: result = build_walls(now); break;
    case MSG_LIFT_WALLS: result = lift_walls(now); break;
    case MSG_LOWER_PLATFORMS: result = lower_platforms(now); break;
    case MSG_ROLL_DICE: result = roll_dice(now); break;
    default: return RESULT_UNKNOWN_COMMAND;
    }
    if (result == RESULT_OK)
        changed();
    return result;
}

/* -- following the mechanism ------------------------------------------------------------------------------- */

static uint64_t interval(uint8_t side)
{
    return t.learned[side] ? t.learned[side] : hal_nominal_us(HAL_NOMINAL_STACK_INTERVAL);
}

static uint64_t jam_deadline(uint8_t side)
{
    if (t.phase != PHASE_STACKING || !t.motor[HAL_MOTOR_STACKER0 + side])
        return NEVER;
    return t.last_pulse[side] + interval(side) * t.jam_tenths / 10;
}

static void walls_done(uint64_t now)
{
    for (uint8_t side = 0; side < SEATS; side++) {
        if (t.counts[side] != t.wall_tiles[side]) {
            table_stop_all(FAULT_MISCOUNT, MECH_STACKER, side);
            return;
        }
    }
    t.built_set ^= 1;
    enter(PHASE_WALLS_READY, now);
}

/* New stacks on a side: count its tiles, learn its interval (4/5 old + 1/5 new), stop it when its wall is done. */
static void follow_stacker(uint8_t side)
{
    struct hal_count count;
    hal_stack_counter(side, &count);
    uint8_t fresh = (uint8_t)(count.stacks - t.stacks_seen[side]);
    if (!fresh)
        return;
    uint64_t each = (count.edge_us - t.last_pulse[side]) / fresh;
    for (uint8_t i = 0; i < fresh; i++)
        t.learned[side] = (4 * interval(side) + each) / 5;
    t.last_pulse[side] = count.edge_us;
    t.stacks_seen[side] = count.stacks;
    t.counts[side] = count.tiles;
    changed();
    if (count.stacks >= (t.wall_tiles[side] + 1) / 2)
        stop((enum hal_motor)(HAL_MOTOR_STACKER0 + side));
}

static void follow_stacking(uint64_t now)
{
    bool running = false;
    for (uint8_t side = 0; side < SEATS; side++) {
        if (t.motor[HAL_MOTOR_STACKER0 + side])
            follow_stacker(side);
        running |= t.motor[HAL_MOTOR_STACKER0 + side] != 0;
    }
    if (!running) {
        walls_done(now);
        return;
    }
    uint8_t jammed = NO_SIDE;
    uint64_t first = NEVER;
    for (uint8_t side = 0; side < SEATS; side++) {
        uint64_t deadline = jam_deadline(side);
        if (deadline <= now && deadline < first) {
            first = deadline;
            jammed = side;
        }
    }
    if (jammed != NO_SIDE)
        table_stop_all(FAULT_JAM, MECH_STACKER, jammed);
}

static void follow_lifting(uint64_t now)
{
    for (uint8_t side = 0; side < SEATS; side++)
        if (t.motor[HAL_MOTOR_LIFT0 + side] && (t.sensors & SENSOR_LIFT_UP(side)))
            stop((enum hal_motor)(HAL_MOTOR_LIFT0 + side));
    if ((t.sensors & SENSOR_ALL_LIFT_UP) == SENSOR_ALL_LIFT_UP) {
        enter(PHASE_LIFTED, now);
        changed();
    }
}

static void follow_lowering(uint64_t now)
{
    for (uint8_t side = 0; side < SEATS; side++)
        if (t.motor[HAL_MOTOR_LIFT0 + side] && (t.sensors & SENSOR_LIFT_DOWN(side)))
            stop((enum hal_motor)(HAL_MOTOR_LIFT0 + side));
    if ((t.sensors & SENSOR_ALL_LIFT_DOWN) != SENSOR_ALL_LIFT_DOWN)
        return;
    memset(t.counts, 0, sizeof t.counts);
    enter(PHASE_IDLE, now);
    changed();
}

/* A driver reporting a fault: over-current for a mechanism whose motor runs, a driver fault for one at rest (a
 * failed driver, its supply gone, a shorted output). Checked at every update, the motors on or not. */
static void check_drivers(void)
{
    uint8_t faults = hal_driver_faults(), mechanism = 0, running = 0;
    if (!faults || (t.fault.kind != FAULT_NONE && !table_motors_on()))
        return; /* latched already and nothing left to stop */
    for (int m = 0; m < HAL_MOTORS; m++)
        if (t.motor[m])
            running |= (uint8_t)(1u << mechanism_of((enum hal_motor)m));
    uint8_t pick = (faults & running) ? (faults & running) : faults;
    while (!(pick & (1u << mechanism)))
        mechanism++;
    table_stop_all((faults & running) ? FAULT_OVERCURRENT : FAULT_DRIVER_FAULT, mechanism, NO_SIDE);
}

/* A stepper the board stopped at its step limit (its end switch never closed): OVERTRAVEL, named. */
static void check_step_limits(void)
{
    for (int m = 0; m < HAL_MOTORS; m++) {
        enum hal_motor which = (enum hal_motor)m;
        if (t.motor[m] && stepper(which) && hal_step_limit_reached(which)) {
            table_stop_all(FAULT_OVERTRAVEL, mechanism_of(which), side_of(which));
            return;
        }
    }
}

/* The earliest motion past its time limit (the first motor in order among equal ones) stops everything: a travel
 * to an end switch is TRAVEL_TIMEOUT, the disc, the dice and a whole wall RUN_TIMEOUT. */
static void check_time_limits(uint64_t now)
{
    int late = HAL_MOTORS;
    for (int m = 0; m < HAL_MOTORS; m++)
        if (t.motor[m] && t.deadline[m] <= now && (late == HAL_MOTORS || t.deadline[m] < t.deadline[late]))
            late = m;
    if (late == HAL_MOTORS)
        return;
    enum hal_motor which = (enum hal_motor)late;
    table_stop_all(stepper(which) ? FAULT_TRAVEL_TIMEOUT : FAULT_RUN_TIMEOUT, mechanism_of(which), side_of(which));
}

static bool lamp_lit(const struct lamp_state *lamp, uint64_t now_ms)
{
    if (lamp->pattern == LAMP_BLINK)
        return now_ms % lamp->period_ms < lamp->period_ms / 2u;
    return lamp->pattern == LAMP_STEADY;
}

static void blink(uint64_t now)
{
    for (uint8_t lamp = 0; lamp < LAMPS; lamp++) {
        uint8_t bit = (uint8_t)(1u << lamp);
        bool lit = lamp_lit(&t.lamps[lamp], now / 1000);
        if (lit != ((t.lamps_lit & bit) != 0)) {
            t.lamps_lit ^= bit;
            hal_lamp(lamp, lit);
        }
    }
}

void table_update(uint64_t now)
{
    uint16_t sensors = hal_sensors();
    if (sensors != t.sensors) {
        t.sensors = sensors;
        changed();
    }
    check_drivers();
    check_step_limits();
    if ((t.motor[HAL_MOTOR_HATCH] > 0 && (sensors & SENSOR_HATCH_OPEN))
        || (t.motor[HAL_MOTOR_HATCH] < 0 && (sensors & SENSOR_HATCH_CLOSED))) {
        stop(HAL_MOTOR_HATCH);
        changed();
    }
    if (t.motor[HAL_MOTOR_DISC] && hal_disc_mixed()) {
        stop(HAL_MOTOR_DISC);
        t.mixed = true;
        changed();
        if (t.build_requested)
            start_stacking(now);
    }
    uint8_t dice[2];
    if (t.motor[HAL_MOTOR_DICE] && hal_dice_settled(dice)) {
        stop(HAL_MOTOR_DICE);
        memcpy(t.dice, dice, sizeof t.dice);
        t.dice_serial++;
        changed();
    }
    if (t.phase == PHASE_STACKING)
        follow_stacking(now);
    else if (t.phase == PHASE_LIFTING)
        follow_lifting(now);
    else if (t.phase == PHASE_LOWERING)
        follow_lowering(now);
    check_time_limits(now);
    blink(now);
}

static uint64_t next_lamp_edge(uint64_t now)
{
    uint64_t next = NEVER, now_ms = now / 1000;
    for (uint8_t lamp = 0; lamp < LAMPS; lamp++) {
        const struct lamp_state *state = &t.lamps[lamp];
        if (state->pattern != LAMP_BLINK)
            continue;
        uint64_t into = now_ms % state->period_ms, half = state->period_ms / 2u;
        uint64_t edge_ms = now_ms - into + (into < half ? half : state->period_ms);
        if (edge_ms * 1000 < next)
            next = edge_ms * 1000;
    }
    return next;
}

uint64_t table_next_due(uint64_t now)
{
    uint64_t next = next_lamp_edge(now);
    for (int m = 0; m < HAL_MOTORS; m++)
        if (t.motor[m] && t.deadline[m] < next)
            next = t.deadline[m];
    for (uint8_t side = 0; side < SEATS; side++)
        if (jam_deadline(side) < next)
            next = jam_deadline(side);
    return next;
}

void table_view(struct table_view *view)
{
    view->phase = t.phase;
    view->flags = (uint8_t)((t.diagnostic ? FLAG_DIAGNOSTIC : 0) | (table_motors_on() ? FLAG_MOTORS_ON : 0)
                            | (t.mixed ? FLAG_MIXED : 0) | (t.pending ? FLAG_MODE_PENDING : 0));
    view->sensors = t.sensors;
    memcpy(view->counts, t.counts, SEATS);
    memcpy(view->targets, t.wall_tiles, SEATS);
    view->fault = t.fault;
    memcpy(view->dice, t.dice, 2);
    view->dice_serial = t.dice_serial;
    view->built_set = t.built_set;
}

bool table_watchdog_test(void)
{
    return t.diagnostic == DIAG_WATCHDOG;
}

uint32_t table_version(void)
{
    return t.version;
}

const struct lamp_state *table_lamps(void)
{
    return t.lamps;
}

void table_dealer(uint8_t *seat, uint8_t *round_wind)
{
    *seat = t.dealer_seat;
    *round_wind = t.dealer_wind;
}
