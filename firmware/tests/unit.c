/* Unit tests of the portable core on a fake hardware layer: the checksums and golden frames of PROTOCOL.md §2,
 * the reader's resynchronisation, the link rules of §3 and the table's safety rules. Built with AddressSanitizer
 * and UndefinedBehaviorSanitizer by `make -C firmware test`; prints "N passed, M failed" and exits 1 on a failure. */
#define _DEFAULT_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/crc.h"
#include "core/frame.h"
#include "core/stepper.h"
#include "core/table.h"
#include "fake_hal.h"
#include "option_bytes.h"
#include "proto.h"

static int passed, failed;

#define CHECK(cond)                                                                                                \
    do {                                                                                                           \
        if (cond) {                                                                                                \
            passed++;                                                                                              \
        } else {                                                                                                   \
            failed++;                                                                                              \
            fprintf(stderr, "%s:%d: %s: check failed: %s\n", __FILE__, __LINE__, __func__, #cond);                 \
        }                                                                                                          \
    } while (0)

static bool same(const uint8_t *a, const uint8_t *b, unsigned len)
{
    return memcmp(a, b, len) == 0;
}

/* -- checksums and frames ------------------------------------------------------------------------------------ */

static void test_check_values(void)
{
    const uint8_t digits[] = "123456789";
    CHECK(crc16(digits, 9) == 0x29B1);
    CHECK(crc32(digits, 9) == 0xCBF43926u);
    CHECK(crc16(digits, 0) == 0xFFFF);
}

static void test_golden_frames(void)
{
    uint8_t out[FRAME_MAX_BYTES];
    const uint8_t ping[] = {0x7E, 0x02, 0x00, 0x02, 0x82, 0xBE};
    const uint8_t nop[] = {0x7E, 0x04, 0x01, 0x1B, 0x12, 0x34, 0x4E, 0xEA};
    const uint8_t ack[] = {0x7E, 0x04, 0x01, 0x80, 0x1B, 0x00, 0x0A, 0x6D};
    CHECK(frame_encode(out, 0, MSG_PING, NULL, 0) == 6 && same(out, ping, 6));
    CHECK(frame_encode(out, 1, MSG_NOP, (const uint8_t[]){0x12, 0x34}, 2) == 8 && same(out, nop, 8));
    CHECK(frame_encode(out, 1, MSG_ACK, (const uint8_t[]){MSG_NOP, RESULT_OK}, 2) == 8 && same(out, ack, 8));
}

static unsigned feed(struct frame_reader *reader, const uint8_t *data, unsigned len, struct frame *frames)
{
    unsigned found = 0;
    for (unsigned i = 0; i < len; i++) {
        frame_reader_push(reader, data[i]);
        while (frame_reader_next(reader, &frames[found]))
            found++;
        if (reader->count >= FRAME_MAX_BYTES)
            return 999;
    }
    return found;
}

static void test_reader_resyncs(void)
{
    struct frame_reader reader;
    struct frame frames[8];
    /* garbage, a golden NOP, a NOP with a broken CRC, a sync byte with LEN 0xFF, then a PING */
    const uint8_t stream[] = {0x00, 0x13, 0x7E, 0x04, 0x01, 0x1B, 0x12, 0x34, 0x4E, 0xEA, 0x7E, 0x04, 0x01, 0x1B,
                              0x12, 0x34, 0x4E, 0xEB, 0x7E, 0xFF, 0x7E, 0x02, 0x00, 0x02, 0x82, 0xBE};
    frame_reader_init(&reader);
    CHECK(feed(&reader, stream, sizeof stream, frames) == 2);
    CHECK(frames[0].seq == 1 && frames[0].type == MSG_NOP && frames[0].len == 2 && frames[0].payload[0] == 0x12);
    CHECK(frames[1].type == MSG_PING && frames[1].len == 0);
    CHECK(reader.stats.crc_errors == 1 && reader.stats.bad_lengths == 1 && reader.stats.frames == 2);
    CHECK(reader.count == 0);
}

static void test_sync_byte_inside_a_frame(void)
{
    struct frame_reader reader;
    struct frame frames[2];
    uint8_t data[FRAME_MAX_BYTES];
    uint8_t len = frame_encode(data, 0, MSG_NOP, (const uint8_t[]){0x7E, 0x7E}, 2);
    frame_reader_init(&reader);
    CHECK(feed(&reader, data, len, frames) == 1 && frames[0].payload[0] == 0x7E && frames[0].payload[1] == 0x7E);
}

static void test_stale_partial_is_dropped_on_idle(void)
{
    struct frame_reader reader;
    struct frame frames[4];
    /* a corrupted LEN (60) would swallow the PING after it; the line goes quiet, the reader resynchronises */
    const uint8_t stream[] = {0x7E, 0x3C, 0x01, 0x7E, 0x02, 0x00, 0x02, 0x82, 0xBE};
    frame_reader_init(&reader);
    CHECK(feed(&reader, stream, sizeof stream, frames) == 0 && reader.count == sizeof stream);
    frame_reader_idle(&reader);
    CHECK(frame_reader_next(&reader, &frames[0]) && frames[0].type == MSG_PING);
    CHECK(!frame_reader_next(&reader, &frames[1]) && reader.count == 0);
    CHECK(reader.stats.stale_partials == 1 && frame_reader_broken(&reader) == 1);
}

static void test_longest_frame(void)
{
    struct frame_reader reader;
    struct frame frames[1];
    uint8_t payload[FRAME_MAX_PAYLOAD], data[FRAME_MAX_BYTES];
    for (unsigned i = 0; i < sizeof payload; i++)
        payload[i] = (uint8_t)(i * 7);
    uint8_t len = frame_encode(data, 9, 0x42, payload, sizeof payload);
    frame_reader_init(&reader);
    CHECK(len == 64 && feed(&reader, data, len, frames) == 1 && frames[0].len == FRAME_MAX_PAYLOAD);
    CHECK(same(frames[0].payload, payload, sizeof payload));
}

/* -- the link (PROTOCOL.md §3) -------------------------------------------------------------------------------- */

static void poll_at(uint64_t now)
{
    fake.now = now;
    core_poll(now);
}

static struct frame reply(void)
{
    struct frame f = {0};
    if (!fake_reply(&f, false))
        f.type = 0;
    return f;
}

static bool is_ack(const struct frame *f, uint8_t seq, uint8_t command, uint8_t result)
{
    return f->type == MSG_ACK && f->seq == seq && f->payload[0] == command && f->payload[1] == result;
}

static bool is_nak(const struct frame *f, uint8_t expected, uint8_t reason)
{
    return f->type == MSG_NAK && f->payload[0] == expected && f->payload[1] == reason;
}

static void identify(uint16_t nonce)
{
    fake_send(0, MSG_IDENTIFY, (const uint8_t[]){1, (uint8_t)(nonce >> 8), (uint8_t)nonce}, 3);
}

static const uint8_t WALLS[4] = {34, 34, 34, 34};

static void configure(uint8_t seq, const uint8_t walls[4], uint8_t jam_tenths, uint16_t timeout_ms, bool good)
{
    uint8_t p[CONFIGURE_SIZE] = {walls[0], walls[1], walls[2], walls[3], jam_tenths,
                                 (uint8_t)(timeout_ms >> 8), (uint8_t)timeout_ms, 0, 200};
    uint32_t crc = crc32(p, 9) ^ (good ? 0 : 1);
    p[9] = (uint8_t)(crc >> 24);
    p[10] = (uint8_t)(crc >> 16);
    p[11] = (uint8_t)(crc >> 8);
    p[12] = (uint8_t)crc;
    fake_send(seq, MSG_CONFIGURE, p, sizeof p);
}

static struct frame snapshot(uint64_t now)
{
    struct frame f = {0}, last = {0};
    fake_send(0, MSG_STATUS_REQUEST, NULL, 0);
    poll_at(now);
    while (fake_reply(&f, true))
        if (f.type == MSG_SNAPSHOT)
            last = f;
    return last;
}

/* Booted, synchronised (IDENTIFY answered) and configured with 34 tiles a side, k = 3, a 1 s watchdog. */
static void ready(void)
{
    fake_reset();
    core_init(RESET_POWER_ON);
    identify(1);
    configure(1, WALLS, 30, 1000, true);
    poll_at(1000);
    fake_clear_tx();
}

static void test_boot_and_handshake(void)
{
    struct frame f;
    fake_reset();
    core_init(RESET_WATCHDOG);
    f = reply();
    CHECK(f.type == MSG_IDENTITY && f.payload[0] == 0 && f.payload[1] == 0); /* nonce 0: sent unasked at boot */
    CHECK(f.payload[34] == RESET_WATCHDOG && f.payload[35] == 0 && f.payload[40] == 1);
    CHECK(!memcmp(f.payload + 20, "UNIT-TEST", 9) && f.payload[29] == 0);
    fake_send(1, MSG_NOP, (const uint8_t[]){0, 1}, 2);
    poll_at(10);
    f = reply();
    CHECK(is_nak(&f, 0, NAK_UNSYNCED));
    identify(0xBEEF);
    poll_at(20);
    f = reply();
    CHECK(f.type == MSG_IDENTITY && f.payload[0] == 0xBE && f.payload[1] == 0xEF && f.payload[40] == 1);
    f = snapshot(30);
    CHECK(f.payload[12] == FAULT_MCU_RESET && !(f.payload[1] & FLAG_CONFIGURED)); /* a reboot latches MCU_RESET */
}

static void test_sequence_rules(void)
{
    struct frame f;
    fake_reset();
    core_init(RESET_POWER_ON);
    identify(1);
    poll_at(0);
    fake_clear_tx();
    fake_send(1, MSG_SHUFFLE, NULL, 0);
    poll_at(10);
    f = reply();
    CHECK(is_ack(&f, 1, MSG_SHUFFLE, RESULT_UNCONFIGURED));
    fake_send(2, MSG_LAMP, (const uint8_t[]){0, LAMP_BLINK, 0x01, 0xF4}, 4);
    poll_at(20);
    f = reply();
    CHECK(is_ack(&f, 2, MSG_LAMP, RESULT_OK)); /* lamps are accepted before CONFIGURE */
    configure(3, WALLS, 30, 1000, false);
    poll_at(30);
    f = reply();
    CHECK(is_ack(&f, 3, MSG_CONFIGURE, RESULT_BAD_CHECKSUM));
    configure(4, WALLS, 30, 1000, true);
    poll_at(40);
    f = reply();
    CHECK(is_ack(&f, 4, MSG_CONFIGURE, RESULT_OK));
    fake_send(5, MSG_HATCH, (const uint8_t[]){1}, 1);
    poll_at(50);
    f = reply();
    CHECK(is_ack(&f, 5, MSG_HATCH, RESULT_OK) && fake.motor[HAL_MOTOR_HATCH] == 1);
    fake_send(5, MSG_HATCH, (const uint8_t[]){1}, 1); /* its ACK was lost: re-acknowledged, not run (BUSY) again */
    poll_at(60);
    f = reply();
    CHECK(is_ack(&f, 5, MSG_HATCH, RESULT_OK));
    fake_send(9, MSG_NOP, (const uint8_t[]){0, 9}, 2);
    poll_at(70);
    f = reply();
    CHECK(is_nak(&f, 6, NAK_OUT_OF_ORDER));
    fake_send(6, MSG_LAMP, (const uint8_t[]){0, 3, 0, 0}, 4); /* pattern 3 does not decode: refused in turn */
    poll_at(80);
    f = reply();
    CHECK(is_ack(&f, 6, MSG_LAMP, RESULT_BAD_ARGUMENT));
    fake_send(0, 0x55, NULL, 0); /* not in the catalogue */
    poll_at(90);
    f = reply();
    CHECK(is_nak(&f, 7, NAK_CORRUPT));
    fake_send_raw((const uint8_t[]){0x7E, 0x04, 0x07, 0x1B, 0x00, 0x01, 0x00, 0x00}, 8); /* a broken CRC */
    poll_at(100);
    f = reply();
    CHECK(is_nak(&f, 7, NAK_CORRUPT));
    f = snapshot(110);
    CHECK((f.payload[1] & FLAG_CONFIGURED) && f.payload[19] == 6 && f.payload[8] == 34);
}

static void test_sequence_wraps_past_255(void)
{
    struct frame f;
    ready();
    for (unsigned seq = 2; seq <= 256; seq++) {
        fake_send((uint8_t)(seq % 255 ? seq % 255 : 255), MSG_NOP, (const uint8_t[]){0, 1}, 2);
        poll_at(2000 + seq);
    }
    fake_send(1, MSG_NOP, (const uint8_t[]){0, 1}, 2); /* 255 is followed by 1, never 0 */
    poll_at(3000);
    unsigned acks = 0;
    while (fake_reply(&f, false))
        acks += f.type == MSG_ACK && f.payload[1] == RESULT_OK;
    CHECK(acks == 256);
}

static void test_emergency_stop_ahead_of_everything(void)
{
    struct frame f;
    ready();
    fake_send(2, MSG_SHUFFLE, NULL, 0);
    poll_at(2000);
    CHECK(fake.motor[HAL_MOTOR_DISC] == 1);
    fake_send(0, MSG_EMERGENCY_STOP, NULL, 0);
    poll_at(3000);
    reply();
    f = reply();
    CHECK(is_ack(&f, 0, MSG_EMERGENCY_STOP, RESULT_OK) && fake.motor[HAL_MOTOR_DISC] == 0);
    fake_send(3, MSG_SHUFFLE, NULL, 0);
    poll_at(4000);
    f = reply();
    CHECK(is_ack(&f, 3, MSG_SHUFFLE, RESULT_FAULTED));
    fake_send(4, MSG_CLEAR_FAULT, NULL, 0);
    poll_at(5000);
    f = reply();
    CHECK(is_ack(&f, 4, MSG_CLEAR_FAULT, RESULT_OK));
    f = snapshot(6000);
    CHECK(f.payload[0] == PHASE_IDLE && f.payload[12] == FAULT_NONE);
}

static void test_host_silence_stops_the_motors(void)
{
    struct frame f;
    ready();
    fake_send(2, MSG_SHUFFLE, NULL, 0);
    poll_at(2000);
    poll_at(900000); /* 0.9 s of silence: the watchdog waits */
    CHECK(fake.motor[HAL_MOTOR_DISC] == 1);
    poll_at(1002001); /* more than 1 s since the last frame */
    CHECK(fake.motor[HAL_MOTOR_DISC] == 0);
    f = snapshot(1003000);
    CHECK(f.payload[12] == FAULT_HOST_SILENT && f.payload[0] == PHASE_IDLE && !(f.payload[1] & FLAG_MOTORS_ON));
}

static void test_first_fault_wins(void)
{
    struct frame f;
    ready();
    fake_send(2, MSG_SHUFFLE, NULL, 0);
    poll_at(2000);
    poll_at(1100000); /* HOST_SILENT */
    fake_send(0, MSG_EMERGENCY_STOP, NULL, 0);
    f = snapshot(1200000);
    CHECK(f.payload[12] == FAULT_HOST_SILENT);
}

/* -- the table ---------------------------------------------------------------------------------------------- */

static void pulse(uint8_t side, uint8_t tiles, uint64_t at)
{
    fake.count[side].stacks++;
    fake.count[side].tiles = (uint8_t)(fake.count[side].tiles + tiles);
    fake.count[side].edge_us = at;
    fake.sensors ^= SENSOR_COUNTER;
}

/* Shuffle and start stacking 4-tile walls at t = 10 ms (stacks of 2: two per side). */
static void start_build(void)
{
    ready();
    const uint8_t small[4] = {4, 4, 4, 4};
    configure(2, small, 30, 60000, true);
    fake_send(3, MSG_SHUFFLE, NULL, 0);
    poll_at(5000);
    fake.mixed = true;
    fake_send(4, MSG_BUILD_WALLS, NULL, 0);
    poll_at(10000);
}

static void test_walls_are_counted(void)
{
    struct frame f;
    start_build();
    CHECK(fake.motor[HAL_MOTOR_STACKER0 + 2] == 1 && fake.wall_tiles[2] == 4);
    for (uint8_t side = 0; side < 4; side++) {
        pulse(side, 2, 60000);
        pulse(side, 2, 110000);
    }
    f = snapshot(120000);
    CHECK(f.payload[0] == PHASE_WALLS_READY && f.payload[4] == 4 && f.payload[7] == 4 && f.payload[18] == 1);
    CHECK(!(f.payload[1] & FLAG_MOTORS_ON) && fake.motor[HAL_MOTOR_STACKER0] == 0);
}

static void test_a_silent_stacker_is_a_jam(void)
{
    struct frame f;
    start_build();
    for (uint8_t side = 0; side < 4; side++)
        if (side != 2)
            pulse(side, 2, 60000); /* side 2 never counts: jammed after 0 stacks */
    poll_at(60000);
    poll_at(159000); /* k x the nominal 50 ms after the start, less a millisecond: not yet */
    CHECK(fake.motor[HAL_MOTOR_STACKER0 + 2] == 1);
    f = snapshot(161000);
    CHECK(f.payload[12] == FAULT_JAM && f.payload[13] == MECH_STACKER && f.payload[14] == 2);
    CHECK(f.payload[0] == PHASE_SHUFFLING && (f.payload[1] & FLAG_MIXED) && fake.motor[HAL_MOTOR_STACKER0] == 0);
}

static void test_a_short_wall_is_a_miscount(void)
{
    struct frame f;
    start_build();
    for (uint8_t side = 0; side < 4; side++) {
        pulse(side, 2, 60000);
        pulse(side, side == 1 ? 1 : 2, 110000);
    }
    f = snapshot(120000);
    CHECK(f.payload[12] == FAULT_MISCOUNT && f.payload[13] == MECH_STACKER && f.payload[14] == 1);
}

static void test_lift_needs_the_hatch_closed_and_times_out(void)
{
    struct frame f;
    start_build();
    for (uint8_t side = 0; side < 4; side++) {
        pulse(side, 2, 60000);
        pulse(side, 2, 110000);
    }
    poll_at(120000);
    fake_send(5, MSG_HATCH, (const uint8_t[]){1}, 1);
    poll_at(130000);
    fake_send(6, MSG_LIFT_WALLS, NULL, 0);
    poll_at(140000);
    fake_clear_tx();
    fake_send(6, MSG_LIFT_WALLS, NULL, 0); /* a duplicate of the refused lift gets the same refusal */
    poll_at(141000);
    f = reply();
    CHECK(is_ack(&f, 6, MSG_LIFT_WALLS, RESULT_BUSY));
    fake.sensors |= SENSOR_HATCH_OPEN;
    poll_at(150000);
    fake_send(7, MSG_HATCH, (const uint8_t[]){0}, 1);
    poll_at(160000);
    fake.sensors |= SENSOR_HATCH_CLOSED;
    poll_at(170000);
    fake_clear_tx();
    fake_send(8, MSG_LIFT_WALLS, NULL, 0);
    poll_at(180000);
    f = reply();
    CHECK(is_ack(&f, 8, MSG_LIFT_WALLS, RESULT_OK) && fake.motor[HAL_MOTOR_LIFT0 + 3] == 1);
    fake.sensors |= SENSOR_LIFT_UP(0) | SENSOR_LIFT_UP(1) | SENSOR_LIFT_UP(3);
    poll_at(200000);
    CHECK(fake.motor[HAL_MOTOR_LIFT0] == 0 && fake.motor[HAL_MOTOR_LIFT0 + 2] == 1);
    f = snapshot(481000); /* k = 3 x the nominal 100 ms travel */
    CHECK(f.payload[12] == FAULT_TRAVEL_TIMEOUT && f.payload[13] == MECH_LIFT && f.payload[14] == 2);
    CHECK(f.payload[0] == PHASE_WALLS_READY && fake.motor[HAL_MOTOR_LIFT0 + 2] == 0);
}

static void test_dice_and_dealer(void)
{
    struct frame f;
    ready();
    fake_send(2, MSG_ROLL_DICE, NULL, 0);
    fake_send(3, MSG_DEALER, (const uint8_t[]){2, 1}, 2);
    poll_at(2000);
    CHECK(fake.motor[HAL_MOTOR_DICE] == 1 && fake.lamp[2] && !fake.lamp[0] && fake.lamp[WIND_LAMP]);
    fake.dice_ready = true;
    fake.dice[0] = 3;
    fake.dice[1] = 6;
    f = snapshot(3000);
    CHECK(f.payload[15] == 3 && f.payload[16] == 6 && f.payload[17] == 1 && fake.motor[HAL_MOTOR_DICE] == 0);
}

static void test_diagnostic_mode(void)
{
    struct frame f;
    ready();
    fake_send(2, MSG_DIAGNOSTIC, (const uint8_t[]){5}, 1);
    fake_send(3, MSG_SHUFFLE, NULL, 0);
    fake_send(4, MSG_DIAGNOSTIC, (const uint8_t[]){16}, 1);
    poll_at(2000);
    f = reply();
    CHECK(is_ack(&f, 2, MSG_DIAGNOSTIC, RESULT_OK) && !fake.lamp[0] && fake.lamp[1] && !fake.lamp[2] && fake.lamp[3]);
    f = reply();
    CHECK(is_ack(&f, 3, MSG_SHUFFLE, RESULT_DIAGNOSTIC));
    f = reply();
    CHECK(is_ack(&f, 4, MSG_DIAGNOSTIC, RESULT_BAD_ARGUMENT));
}

static void test_blinking_lamp(void)
{
    ready();
    fake_send(2, MSG_LAMP, (const uint8_t[]){4, LAMP_BLINK, 0x01, 0xF4}, 4); /* 500 ms */
    poll_at(1000000);
    CHECK(fake.lamp[4]);
    poll_at(1250000);
    CHECK(!fake.lamp[4]);
    poll_at(1500000);
    CHECK(fake.lamp[4]);
}

static void test_new_tile_count_waits_for_the_cycle(void)
{
    struct frame f;
    const uint8_t other[4] = {36, 36, 36, 36};
    ready();
    fake_send(2, MSG_SHUFFLE, NULL, 0);
    configure(3, other, 30, 1000, true);
    f = snapshot(2000);
    CHECK(f.payload[8] == 34 && (f.payload[1] & FLAG_MODE_PENDING));
}


/* -- motion limits, driver faults, clearing, safe outputs (issue 28) ------------------------------------------ */

static bool faulted_with(const struct frame *f, uint8_t kind, uint8_t mechanism, uint8_t side)
{
    return f->payload[12] == kind && f->payload[13] == mechanism && f->payload[14] == side;
}

/* Ready with a 60 s host timeout, so only the motion limits can stop a motor here. */
static void ready_patient(void)
{
    ready();
    configure(2, WALLS, 30, 60000, true);
    poll_at(1500);
    fake_clear_tx();
}

/* A motion whose sensor never answers: ``type`` sent at 10 ms, its ``motor`` still on a millisecond before its limit
 * (``limit_us``, k = 3 x the nominal time), then the snapshot a millisecond after it. */
static struct frame never_done(uint8_t type, const uint8_t *payload, uint8_t len, uint8_t motor, uint64_t limit_us)
{
    ready_patient();
    fake_send(3, type, payload, len);
    poll_at(10000);
    CHECK(fake.motor[motor] == 1);
    poll_at(limit_us - 1000);
    CHECK(fake.motor[motor] == 1);
    return snapshot(limit_us + 1000);
}

static void test_a_hatch_whose_switch_never_closes_times_out(void)
{
    struct frame f = never_done(MSG_HATCH, (const uint8_t[]){1}, 1, HAL_MOTOR_HATCH, 190000); /* k x 60 ms */
    CHECK(faulted_with(&f, FAULT_TRAVEL_TIMEOUT, MECH_HATCH, NO_SIDE) && fake.motor[HAL_MOTOR_HATCH] == 0);
    CHECK(f.payload[0] == PHASE_INTAKE_OPEN); /* a hatch stopped on its way keeps its phase */
}

static void test_a_disc_whose_index_never_counts_times_out(void)
{
    struct frame f = never_done(MSG_SHUFFLE, NULL, 0, HAL_MOTOR_DISC, 6010000); /* k x 2 s */
    CHECK(faulted_with(&f, FAULT_RUN_TIMEOUT, MECH_DISC, NO_SIDE) && fake.motor[HAL_MOTOR_DISC] == 0);
    CHECK(f.payload[0] == PHASE_IDLE);
}

static void test_dice_that_never_settle_time_out(void)
{
    struct frame f = never_done(MSG_ROLL_DICE, NULL, 0, HAL_MOTOR_DICE, 130000); /* k x 40 ms */
    CHECK(faulted_with(&f, FAULT_RUN_TIMEOUT, MECH_DICE, NO_SIDE) && fake.motor[HAL_MOTOR_DICE] == 0);
}

/* Walls of 8 tiles (4 stacks) on every side, each stack within k x the learned interval but slower each time. */
static void test_a_wall_that_takes_too_long_as_a_whole_times_out(void)
{
    struct frame f;
    const uint8_t eight[4] = {8, 8, 8, 8};
    ready();
    configure(2, eight, 30, 60000, true);
    fake_send(3, MSG_SHUFFLE, NULL, 0);
    poll_at(5000);
    fake.mixed = true;
    fake_send(4, MSG_BUILD_WALLS, NULL, 0);
    poll_at(10000); /* the wall's limit: k x 50 ms x (4 + 1) = 750 ms after the start */
    const uint64_t at[] = {150000, 350000, 630000};
    for (unsigned i = 0; i < 3; i++) {
        for (uint8_t side = 0; side < 4; side++)
            pulse(side, 2, at[i]);
        poll_at(at[i] + 1000);
    }
    poll_at(759000);
    CHECK(fake.motor[HAL_MOTOR_STACKER0] == 1);
    f = snapshot(761000);
    CHECK(faulted_with(&f, FAULT_RUN_TIMEOUT, MECH_STACKER, 0) && fake.motor[HAL_MOTOR_STACKER0 + 3] == 0);
}

/* Up to LIFTED on a configured table (4-tile walls), the plates' switches as the sim would set them. */
static void lifted(void)
{
    start_build();
    for (uint8_t side = 0; side < 4; side++) {
        pulse(side, 2, 60000);
        pulse(side, 2, 110000);
    }
    poll_at(120000);
    fake_send(5, MSG_LIFT_WALLS, NULL, 0);
    poll_at(130000);
    fake.sensors = (uint16_t)((fake.sensors & ~SENSOR_ALL_LIFT_DOWN) | SENSOR_ALL_LIFT_UP);
    poll_at(140000);
    fake_clear_tx();
}

static void test_a_lowering_whose_switch_never_closes_times_out_and_names_the_side(void)
{
    struct frame f;
    lifted();
    f = snapshot(141000);
    CHECK(f.payload[0] == PHASE_LIFTED && !(f.payload[1] & FLAG_MOTORS_ON));
    fake_send(6, MSG_LOWER_PLATFORMS, NULL, 0);
    poll_at(150000);
    fake.sensors &= (uint16_t)~SENSOR_ALL_LIFT_UP;
    CHECK(fake.motor[HAL_MOTOR_LIFT0 + 2] == -1);
    fake.sensors |= SENSOR_LIFT_DOWN(0) | SENSOR_LIFT_DOWN(1) | SENSOR_LIFT_DOWN(3);
    poll_at(200000);
    CHECK(fake.motor[HAL_MOTOR_LIFT0] == 0 && fake.motor[HAL_MOTOR_LIFT0 + 2] == -1); /* each stops at its switch */
    poll_at(389000); /* k x 80 ms after the start */
    CHECK(fake.motor[HAL_MOTOR_LIFT0 + 2] == -1);
    f = snapshot(391000);
    CHECK(faulted_with(&f, FAULT_TRAVEL_TIMEOUT, MECH_LIFT, 2) && f.payload[0] == PHASE_LIFTED);
    CHECK(fake.motor[HAL_MOTOR_LIFT0 + 2] == 0);
}

static void test_a_plate_stops_at_its_top_switch_before_the_others(void)
{
    start_build();
    for (uint8_t side = 0; side < 4; side++) {
        pulse(side, 2, 60000);
        pulse(side, 2, 110000);
    }
    poll_at(120000);
    fake_send(5, MSG_LIFT_WALLS, NULL, 0);
    poll_at(130000);
    fake.sensors = (uint16_t)((fake.sensors & ~SENSOR_ALL_LIFT_DOWN) | SENSOR_LIFT_UP(1));
    poll_at(140000);
    CHECK(fake.motor[HAL_MOTOR_LIFT0 + 1] == 0 && fake.motor[HAL_MOTOR_LIFT0] == 1);
    fake.sensors |= SENSOR_ALL_LIFT_UP;
    poll_at(150000);
    CHECK(snapshot(151000).payload[0] == PHASE_LIFTED && !table_motors_on());
}

static void test_a_stepper_at_its_step_limit_is_overtravel(void)
{
    struct frame f;
    ready_patient();
    fake_send(3, MSG_HATCH, (const uint8_t[]){1}, 1);
    poll_at(10000);
    fake.at_limit[HAL_MOTOR_HATCH] = true; /* the board stopped it: four travels of steps, the switch still open */
    f = snapshot(20000);
    CHECK(faulted_with(&f, FAULT_OVERTRAVEL, MECH_HATCH, NO_SIDE) && fake.motor[HAL_MOTOR_HATCH] == 0);
    lifted();
    fake_send(6, MSG_LOWER_PLATFORMS, NULL, 0);
    poll_at(150000);
    fake.at_limit[HAL_MOTOR_LIFT0 + 1] = true;
    f = snapshot(160000);
    CHECK(faulted_with(&f, FAULT_OVERTRAVEL, MECH_LIFT, 1));
}

static void test_a_driver_fault_at_rest_latches_and_is_not_cleared_while_it_lasts(void)
{
    struct frame f;
    ready_patient();
    unsigned stops = fake.safe_outputs;
    fake.driver_faults = 1u << MECH_LIFT;
    f = snapshot(10000);
    CHECK(faulted_with(&f, FAULT_DRIVER_FAULT, MECH_LIFT, NO_SIDE) && fake.safe_outputs == stops + 1);
    for (unsigned i = 0; i < 10; i++) /* latched once: no snapshot on every poll while the pin stays low */
        poll_at(11000 + i * 1000);
    CHECK(fake.safe_outputs == stops + 1);
    fake_send(3, MSG_CLEAR_FAULT, NULL, 0);
    poll_at(30000);
    f = reply();
    CHECK(is_ack(&f, 3, MSG_CLEAR_FAULT, RESULT_DRIVER_FAULT));
    f = snapshot(31000);
    CHECK(f.payload[12] == FAULT_DRIVER_FAULT);
    fake.driver_faults = 0;
    fake_send(4, MSG_CLEAR_FAULT, NULL, 0);
    poll_at(40000);
    f = reply();
    CHECK(is_ack(&f, 4, MSG_CLEAR_FAULT, RESULT_OK) && snapshot(41000).payload[12] == FAULT_NONE);
}

static void test_over_current_while_running_stops_everything(void)
{
    struct frame f;
    ready_patient();
    fake_send(3, MSG_SHUFFLE, NULL, 0);
    fake_send(4, MSG_ROLL_DICE, NULL, 0);
    poll_at(10000);
    fake.driver_faults = 1u << MECH_DISC | 1u << MECH_LIFT; /* the running one is named */
    f = snapshot(20000);
    CHECK(faulted_with(&f, FAULT_OVERCURRENT, MECH_DISC, NO_SIDE) && !table_motors_on());
    CHECK(fake.motor[HAL_MOTOR_DISC] == 0 && fake.motor[HAL_MOTOR_DICE] == 0 && f.payload[0] == PHASE_IDLE);
}

static void test_clearing_is_refused_while_end_switches_contradict(void)
{
    struct frame f;
    ready_patient();
    fake_send(0, MSG_EMERGENCY_STOP, NULL, 0);
    poll_at(10000);
    fake.sensors |= SENSOR_HATCH_OPEN; /* and HATCH_CLOSED: a shorted switch */
    fake_clear_tx();
    fake_send(3, MSG_CLEAR_FAULT, NULL, 0);
    poll_at(20000);
    f = reply();
    CHECK(is_ack(&f, 3, MSG_CLEAR_FAULT, RESULT_SENSOR_CONFLICT));
    fake.sensors &= (uint16_t)~SENSOR_HATCH_OPEN;
    fake.sensors |= SENSOR_LIFT_UP(3); /* plate 3 up and down at once */
    fake_send(4, MSG_CLEAR_FAULT, NULL, 0);
    poll_at(30000);
    f = reply();
    CHECK(is_ack(&f, 4, MSG_CLEAR_FAULT, RESULT_SENSOR_CONFLICT));
    fake.sensors &= (uint16_t)~SENSOR_LIFT_UP(3);
    fake_send(5, MSG_CLEAR_FAULT, NULL, 0);
    poll_at(40000);
    f = reply();
    CHECK(is_ack(&f, 5, MSG_CLEAR_FAULT, RESULT_OK));
}

static void test_boot_every_fault_and_the_stop_make_the_outputs_safe(void)
{
    fake_reset();
    core_init(RESET_POWER_ON);
    CHECK(fake.safe_outputs == 1);
    identify(1);
    configure(1, WALLS, 30, 60000, true);
    fake_send(2, MSG_SHUFFLE, NULL, 0);
    poll_at(1000);
    CHECK(fake.motor[HAL_MOTOR_DISC] == 1);
    fake_send(0, MSG_EMERGENCY_STOP, NULL, 0);
    poll_at(2000);
    CHECK(fake.safe_outputs == 2 && fake.motor[HAL_MOTOR_DISC] == 0);
}

static void test_the_poll_reads_a_bounded_number_of_bytes_and_still_kicks(void)
{
    struct frame f;
    ready_patient();
    fake_send(3, MSG_SHUFFLE, NULL, 0);
    poll_at(2000);
    configure(4, WALLS, 30, 1000, true); /* back to a 1 s host timeout, the disc turning */
    poll_at(3000);
    fake_clear_tx();
    unsigned snapshots = 0, kicks = fake.kicks;
    uint64_t now = 3000, tripped = 0;
    while (now < 1500000) { /* 1.5 s of 7E 3C, refilled as it is read: the line never goes quiet */
        while (fake.rx_len < sizeof fake.rx - 2) {
            fake.rx[fake.rx_len++] = 0x7E;
            fake.rx[fake.rx_len++] = 0x3C;
        }
        unsigned before = fake.rx_pos;
        now += 1000;
        fake.now = now;
        uint64_t wake = core_poll(now);
        CHECK(fake.rx_pos - before <= 64 && wake == now); /* more waits: poll again at once */
        if (!tripped && fake.motor[HAL_MOTOR_DISC] == 0)
            tripped = now;
        while (fake_reply(&f, true)) /* a NAK each poll too: count and drop what was sent */
            snapshots += f.type == MSG_SNAPSHOT;
        fake_clear_tx();
        memmove(fake.rx, fake.rx + fake.rx_pos, fake.rx_len - fake.rx_pos);
        fake.rx_len -= fake.rx_pos;
        fake.rx_pos = 0;
    }
    CHECK(fake.kicks - kicks == 1497);         /* every poll kicked the watchdog */
    CHECK(snapshots >= 7 && snapshots <= 12); /* every 200 ms, and at the trip */
    CHECK(tripped > 1000000 && tripped <= 1005000); /* HOST_SILENT 1 s after the last frame, not after the flood */
}

/* DIAGNOSTIC 15 stops the main loop: a poll never returns (run in a child, killed after 300 ms). */
static void test_the_watchdog_test_stops_the_main_loop(void)
{
    struct frame f;
    ready();
    fake_send(2, MSG_DIAGNOSTIC, (const uint8_t[]){DIAG_WATCHDOG}, 1);
    fflush(NULL);
    pid_t child = fork();
    if (child == 0) {
        alarm(1);
        poll_at(2000);
        _exit(fake.kicks > 0 ? 3 : 4); /* returned: not stalled */
    }
    usleep(300000);
    int status = 0;
    bool running = waitpid(child, &status, WNOHANG) == 0;
    CHECK(running);
    kill(child, SIGKILL);
    waitpid(child, &status, 0);
    ready(); /* refused while a motor runs */
    fake_send(2, MSG_ROLL_DICE, NULL, 0);
    fake_send(3, MSG_DIAGNOSTIC, (const uint8_t[]){DIAG_WATCHDOG}, 1);
    poll_at(2000);
    reply();
    f = reply();
    CHECK(is_ack(&f, 3, MSG_DIAGNOSTIC, RESULT_BUSY));
}

static unsigned ticks_until_stopped(struct stepper *s, bool at_end_after_pulses, unsigned pulses_then_end,
                                    unsigned *pulses)
{
    *pulses = 0;
    for (unsigned tick = 1; tick < 10000000; tick++) {
        bool at_end = at_end_after_pulses && *pulses >= pulses_then_end;
        enum stepper_event event = stepper_tick(s, at_end);
        *pulses += event == STEPPER_PULSE;
        if (event == STEPPER_STOPPED)
            return tick;
    }
    return 0;
}

static void test_a_stepper_stops_at_its_end_switch_or_its_step_limit(void)
{
    struct stepper s;
    unsigned pulses;
    stepper_init(&s, 10000, 200, 2000, 8000);
    stepper_start(&s, 1, 500);
    unsigned ticks = ticks_until_stopped(&s, false, 0, &pulses);
    CHECK(ticks > 0 && pulses == 500 && s.at_limit && s.direction == 0);
    CHECK(ticks > 500 * 5 && ticks < 500 * 5 + 2500); /* 2000 steps/s at 10 kHz after a 0.225 s ramp */
    CHECK(stepper_tick(&s, false) != STEPPER_PULSE && stepper_tick(&s, false) == STEPPER_NONE);
    stepper_start(&s, -1, 500);
    ticks = ticks_until_stopped(&s, true, 120, &pulses);
    CHECK(ticks > 0 && pulses == 120 && !s.at_limit && s.direction == 0);
    stepper_start(&s, 1, 500);
    stepper_stop(&s);
    CHECK(stepper_tick(&s, false) == STEPPER_NONE && !s.at_limit);
}

static void test_the_brown_out_level_is_programmed_once(void)
{
    struct flash_regs flash = {.optcr = 0x0FFFAAECu}; /* the factory option bytes (BOR off), as unlocked by the keys */
    CHECK(brownout_level(&flash, BOR_LEVEL_3) == BOR_PROGRAMMED);
    CHECK((flash.optcr & FLASH_OPTCR_BOR_MASK) == BOR_LEVEL_3 && (flash.optcr & 0x0FFFFFF0u) == 0x0FFFAAE0u);
    CHECK(flash.optkeyr == FLASH_OPTKEY2 && (flash.optcr & FLASH_OPTCR_OPTSTRT) && (flash.optcr & FLASH_OPTCR_OPTLOCK));
    struct flash_regs again = {.optcr = 0x0FFFAAE1u};
    CHECK(brownout_level(&again, BOR_LEVEL_3) == BOR_ALREADY_SET && again.optkeyr == 0 && again.optcr == 0x0FFFAAE1u);
    struct flash_regs locked = {.optcr = 0x0FFFAAEDu}; /* keys refused: OPTLOCK stays set */
    CHECK(brownout_level(&locked, BOR_LEVEL_3) == BOR_FAILED && (locked.optcr & FLASH_OPTCR_BOR_MASK) == BOR_OFF);
}

static void test_nak_corrupt_is_spaced_but_never_dropped(void)
{
    struct frame f;
    const uint8_t broken[] = {0x7E, 0x04, 0x02, 0x1B, 0x00, 0x01, 0x00, 0x00};
    unsigned naks = 0;
    ready();
    fake_send_raw(broken, sizeof broken);
    poll_at(5000);
    fake_send_raw(broken, sizeof broken);
    poll_at(5100); /* 0.1 ms later: owed, not sent */
    while (fake_reply(&f, false))
        naks += is_nak(&f, 2, NAK_CORRUPT);
    CHECK(naks == 1);
    uint64_t wake = core_poll(5100);
    CHECK(wake == 6000); /* the board is asked back when it is due */
    poll_at(6000);
    f = reply();
    CHECK(is_nak(&f, 2, NAK_CORRUPT));
    f = reply();
    CHECK(f.type == 0); /* and only one */
}

int main(void)
{
    test_check_values();
    test_golden_frames();
    test_reader_resyncs();
    test_sync_byte_inside_a_frame();
    test_stale_partial_is_dropped_on_idle();
    test_longest_frame();
    test_boot_and_handshake();
    test_sequence_rules();
    test_sequence_wraps_past_255();
    test_emergency_stop_ahead_of_everything();
    test_host_silence_stops_the_motors();
    test_first_fault_wins();
    test_walls_are_counted();
    test_a_silent_stacker_is_a_jam();
    test_a_short_wall_is_a_miscount();
    test_lift_needs_the_hatch_closed_and_times_out();
    test_dice_and_dealer();
    test_diagnostic_mode();
    test_blinking_lamp();
    test_new_tile_count_waits_for_the_cycle();
    test_a_hatch_whose_switch_never_closes_times_out();
    test_a_disc_whose_index_never_counts_times_out();
    test_dice_that_never_settle_time_out();
    test_a_wall_that_takes_too_long_as_a_whole_times_out();
    test_a_lowering_whose_switch_never_closes_times_out_and_names_the_side();
    test_a_plate_stops_at_its_top_switch_before_the_others();
    test_a_stepper_at_its_step_limit_is_overtravel();
    test_a_driver_fault_at_rest_latches_and_is_not_cleared_while_it_lasts();
    test_over_current_while_running_stops_everything();
    test_clearing_is_refused_while_end_switches_contradict();
    test_boot_every_fault_and_the_stop_make_the_outputs_safe();
    test_the_poll_reads_a_bounded_number_of_bytes_and_still_kicks();
    test_the_watchdog_test_stops_the_main_loop();
    test_a_stepper_stops_at_its_end_switch_or_its_step_limit();
    test_the_brown_out_level_is_programmed_once();
    test_nak_corrupt_is_spaced_but_never_dropped();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
