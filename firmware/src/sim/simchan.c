/* The side channel of simulated boards: the FaultPlan, reboots, seeds and speed in; executed commands, watchdog
 * trips and the lamps out. Framed as the host link (PROTOCOL.md §2, SEQ 0); the types are this channel's own:
 *
 *   -> 0x40 SPEED    speed_milli I                 the mechanism's timings divided by speed_milli / 1000
 *   -> 0x41 FAULTS   jams B, 4 x (mechanism B, side B, after_stacks B), short_side B, reset_phase B, reset_after_ms H,
 *                    driver_faults B, overcurrent B (masks of 1 << mechanism)
 *   -> 0x42 RESET    reason B                      reboot now (reasons 2-5)
 *   -> 0x43 KEY      seat B, held B                a player's dice key
 *   -> 0x44 QUERY    [reset B]                     answered by STATE; reset 1: then forget the gap maxima
 *   -> 0x45 SEED     words B, index B, key I...    random.Random(seed) as the seed's 32-bit words, least significant
 *                                                  first (1-32 words, up to 13 per frame; seeded with the last part)
 *   -> 0x46 CRASH    -                             a hard fault now (an undefined instruction), after the DONE
 *   <- 0xC0 DONE     type B, result B              every message above is answered (0 OK, 4 BAD_ARGUMENT)
 *   <- 0xC1 EXEC     seq B, type B, token H        a sequenced command executed (NOP's token, else 0)
 *   <- 0xC2 WATCHDOG silent_ms H                   the host-silence watchdog stopped the motors, the host silent
 *                                                  that long (the MCU's clock)
 *   <- 0xC3 STATE    5 x (pattern B, period_ms H), dealer seat B, round wind B, duplicates H, naks H, trips H,
 *                    resets_with_outputs_on H (reboots that found a motor still driven), max_snapshot_gap_ms H,
 *                    max_poll_gap_ms H (the longest gaps between two snapshots, two polls, on the MCU's clock),
 *                    outputs_on H (the motor outputs driven now, 1 << enum hal_motor)
 *
 * hw_tests/firmware.py is the other end. */
#include <string.h>

#include "core/core.h"
#include "core/frame.h"
#include "core/table.h"
#include "hal.h"
#include "sim/sim.h"

enum {
    SIM_SPEED = 0x40,
    SIM_FAULTS = 0x41,
    SIM_RESET = 0x42,
    SIM_KEY = 0x43,
    SIM_QUERY = 0x44,
    SIM_SEED = 0x45,
    SIM_CRASH = 0x46,
    SIM_DONE = 0xC0,
    SIM_EXEC = 0xC1,
    SIM_WATCHDOG = 0xC2,
    SIM_STATE = 0xC3,
};

#define FAULTS_SIZE (2 + 3 * SIM_MAX_JAMS + 3 + 2)
#define STATE_SIZE (3 * LAMPS + 2 + 14)
#define SIM_RX_BUDGET 64u /* side-channel bytes per poll, as the host link's */
#define MECHANISMS ((1u << MECH_HATCH) | (1u << MECH_DISC) | (1u << MECH_STACKER) | (1u << MECH_LIFT))

static struct frame_reader reader;
static uint32_t key[SIM_MAX_KEY_WORDS];
static bool crash;

static void emit(uint8_t type, const uint8_t *payload, uint8_t len)
{
    uint8_t out[FRAME_MAX_BYTES];
    hal_sim_write(out, frame_encode(out, 0, type, payload, len));
}

static void put16(uint8_t *out, uint16_t value)
{
    out[0] = (uint8_t)(value >> 8);
    out[1] = (uint8_t)value;
}

static uint16_t ms16(uint32_t us)
{
    return (uint16_t)(us / 1000u > 0xFFFFu ? 0xFFFFu : us / 1000u);
}

static uint32_t get32(const uint8_t *in)
{
    return (uint32_t)in[0] << 24 | (uint32_t)in[1] << 16 | (uint32_t)in[2] << 8 | in[3];
}

static uint8_t faults(const uint8_t *p)
{
    struct sim_faults plan = {.jams = p[0], .short_side = p[13], .reset_phase = p[14]};
    plan.reset_after_ms = (uint16_t)(p[15] << 8 | p[16]);
    plan.driver_faults = p[17];
    plan.overcurrent = p[18];
    if (plan.jams > SIM_MAX_JAMS || (plan.short_side >= SEATS && plan.short_side != NO_SIDE)
        || (plan.reset_phase > PHASE_LOWERING && plan.reset_phase != 0xFF) || (plan.driver_faults & ~MECHANISMS)
        || (plan.overcurrent & ~MECHANISMS))
        return RESULT_BAD_ARGUMENT;
    for (uint8_t i = 0; i < plan.jams; i++) {
        const uint8_t *jam = p + 1 + 3 * i;
        bool sided = jam[0] == MECH_STACKER || jam[0] == MECH_LIFT;
        bool known = sided || jam[0] == MECH_HATCH || jam[0] == MECH_DISC || jam[0] == MECH_DICE;
        if (!known || (sided && jam[1] >= SEATS))
            return RESULT_BAD_ARGUMENT;
        plan.jam[i] = (struct sim_jam){jam[0], jam[1], jam[2]};
    }
    sim_set_faults(&plan);
    return RESULT_OK;
}

static uint8_t seed(const struct frame *f)
{
    uint8_t words = f->payload[0], index = f->payload[1], parts = (uint8_t)((f->len - 2) / 4);
    if (f->len < 6 || (f->len - 2) % 4 || !words || words > SIM_MAX_KEY_WORDS || index + parts > words)
        return RESULT_BAD_ARGUMENT;
    for (uint8_t i = 0; i < parts; i++)
        key[index + i] = get32(f->payload + 2 + 4 * i);
    if (index + parts == words)
        sim_seed(key, words);
    return RESULT_OK;
}

static void state(void)
{
    uint8_t p[STATE_SIZE];
    const struct lamp_state *lamps = table_lamps();
    const struct core_stats *stats = core_stats();
    for (uint8_t lamp = 0; lamp < LAMPS; lamp++) {
        p[3 * lamp] = lamps[lamp].pattern;
        put16(p + 3 * lamp + 1, lamps[lamp].period_ms);
    }
    table_dealer(&p[15], &p[16]);
    put16(p + 17, stats->duplicates_dropped);
    put16(p + 19, stats->naks_sent);
    put16(p + 21, stats->watchdog_trips);
    put16(p + 23, sim_stats()->resets_with_outputs_on);
    put16(p + 25, ms16(stats->max_snapshot_gap_us));
    put16(p + 27, ms16(stats->max_poll_gap_us));
    put16(p + 29, sim_outputs_on());
    emit(SIM_STATE, p, sizeof p);
}

static uint8_t handle(const struct frame *f)
{
    const uint8_t *p = f->payload;
    switch (f->type) {
    case SIM_SPEED: {
        uint32_t speed = f->len == 4 ? get32(p) : 0;
        if (speed < 10 || speed > 1000000)
            return RESULT_BAD_ARGUMENT;
        sim_speed(speed);
        return RESULT_OK;
    }
    case SIM_SEED: return seed(f);
    case SIM_FAULTS: return f->len == FAULTS_SIZE ? faults(p) : RESULT_BAD_ARGUMENT;
    case SIM_RESET:
        if (f->len != 1 || p[0] < RESET_WATCHDOG || p[0] > RESET_PIN)
            return RESULT_BAD_ARGUMENT;
        sim_request_reboot(p[0]);
        return RESULT_OK;
    case SIM_KEY:
        if (f->len != 2 || p[0] >= SEATS)
            return RESULT_BAD_ARGUMENT;
        sim_press_key(p[0], p[1] != 0);
        return RESULT_OK;
    case SIM_QUERY:
        if (f->len > 1 || (f->len == 1 && p[0] > 1))
            return RESULT_BAD_ARGUMENT;
        state();
        if (f->len == 1 && p[0])
            core_reset_gaps();
        return RESULT_OK;
    case SIM_CRASH:
        crash = f->len == 0;
        return crash ? RESULT_OK : RESULT_BAD_ARGUMENT;
    default: return RESULT_UNKNOWN_COMMAND;
    }
}

void sim_poll(uint64_t now)
{
    struct frame f;
    int byte;
    sim_clock(now);
    for (unsigned taken = 0; taken < SIM_RX_BUDGET && (byte = hal_sim_getc()) >= 0; taken++) {
        frame_reader_push(&reader, (uint8_t)byte);
        while (frame_reader_next(&reader, &f)) {
            uint8_t done[2] = {f.type, handle(&f)};
            emit(SIM_DONE, done, sizeof done);
        }
    }
    if (crash) { /* the DONE is queued: now the fault the board's handler must catch (HardFault, SIGILL) */
        crash = false;
        __builtin_trap();
    }
}

void sim_executed(uint8_t seq, uint8_t type, uint16_t token)
{
    uint8_t p[4] = {seq, type, (uint8_t)(token >> 8), (uint8_t)token};
    emit(SIM_EXEC, p, sizeof p);
}

void sim_watchdog_tripped(uint32_t silent_us)
{
    uint8_t p[2];
    put16(p, ms16(silent_us));
    emit(SIM_WATCHDOG, p, sizeof p);
}
