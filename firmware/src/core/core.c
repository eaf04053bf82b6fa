/* The link side of the MCU (PROTOCOL.md §2, §3, §5): frames in, sequence / duplicate / NAK rules, the handshake,
 * CONFIGURE, the emergency stop ahead of everything, the host-silence watchdog, snapshots; the table's rules are
 * in table.c. The same rules, in the same order within one poll, as the simulator of hw_tests/simulator.py. */
#include <string.h>

#include "core/core.h"
#include "core/crc.h"
#include "core/frame.h"
#include "core/table.h"
#include "hal.h"
#if CONFIG_SIMULATED
#include "sim/sim.h"
#endif

#define FIRMWARE_NAME "mjtable-fw 1.0"
#define CAPABILITIES (CAP_TWO_SETS | CAP_DICE | CAP_LAMPS | CAP_DIAGNOSTIC | CAP_TILE_COUNT | CAP_JAM_DETECT)
#define IDLE_RESYNC_US 5000u /* a partial frame that has not grown for this long had a corrupted LEN */
/* Bytes of the host link one poll reads at most, so the timers, the snapshots and the watchdog kick run whatever the
 * line carries: a flood of 7E 3C costs a 61-byte CRC every two bytes, more on a 16 MHz chip than the two bytes take
 * to arrive at 115200 baud, and an unbounded read loop never let the rest of the poll run. What does not fit waits
 * in the UART ring (or overflows it: lost bytes, as on a noisy line). */
#define RX_BUDGET 64u
/* At most one NAK CORRUPT a millisecond; one that falls due sooner is owed and sent when the millisecond is over. A
 * frame takes at least half a millisecond at 115200 baud, so a real line never waits for it, but under a flood a
 * board that polls in microseconds (the host board) answered every 64 bytes and buried its snapshots in NAKs. */
#define NAK_SPACING_US 1000u
#define DEFAULT_SNAPSHOT_US 200000u
#define DEFAULT_HOST_TIMEOUT_US 1000000u

static struct {
    struct frame_reader reader;
    uint8_t reset_reason;
    bool configured;
    uint32_t config_checksum;
    bool synced;
    uint8_t expected;  /* the next sequence number */
    uint8_t last_seq;  /* the last one executed, with its type and result, for a retransmission */
    bool has_last;
    uint8_t last_type, last_result;
    uint64_t last_host_rx;  /* a valid frame from the host: feeds the watchdog */
    uint64_t last_rx_byte;  /* any byte: a partial frame older than IDLE_RESYNC_US is stale */
    uint64_t last_corrupt_nak;
    bool nak_owed;          /* frames broke since the last NAK CORRUPT */
    uint16_t snapshot_serial;
    uint64_t last_snapshot, last_poll;
    uint32_t sent_version;
    uint64_t next_snapshot;
    uint32_t snapshot_us;
    uint32_t host_timeout_us;
    struct core_stats stats;
} c;

static void put16(uint8_t *out, uint16_t value)
{
    out[0] = (uint8_t)(value >> 8);
    out[1] = (uint8_t)value;
}

static void put32(uint8_t *out, uint32_t value)
{
    put16(out, (uint16_t)(value >> 16));
    put16(out + 2, (uint16_t)value);
}

static uint32_t get32(const uint8_t *in)
{
    return (uint32_t)in[0] << 24 | (uint32_t)in[1] << 16 | (uint32_t)in[2] << 8 | in[3];
}

static void send(uint8_t seq, uint8_t type, const uint8_t *payload, uint8_t len)
{
    uint8_t out[FRAME_MAX_BYTES];
    hal_serial_write(out, frame_encode(out, seq, type, payload, len));
}

static void send_ack(uint8_t seq, uint8_t type, uint8_t result)
{
    uint8_t payload[2] = {type, result};
    send(seq, MSG_ACK, payload, sizeof payload);
}

static void send_nak(uint8_t reason)
{
    uint8_t payload[2] = {c.synced ? c.expected : 0, c.synced ? reason : (uint8_t)NAK_UNSYNCED};
    c.stats.naks_sent++;
    send(0, MSG_NAK, payload, sizeof payload);
}

static void send_identity(uint16_t nonce)
{
    uint8_t p[IDENTITY_SIZE] = {0};
    const char *board = hal_board_id();
    put16(p, nonce);
    p[2] = PROTO_MAJOR;
    p[3] = PROTO_MINOR;
    memcpy(p + 4, FIRMWARE_NAME, sizeof FIRMWARE_NAME - 1);
    for (uint8_t i = 0; i < BOARD_ID_SIZE && board[i]; i++)
        p[20 + i] = (uint8_t)board[i];
    put16(p + 32, CAPABILITIES);
    p[34] = c.reset_reason;
    p[35] = c.configured;
    put32(p + 36, c.configured ? c.config_checksum : 0);
    p[40] = c.expected;
    send(0, MSG_IDENTITY, p, sizeof p);
}

static uint32_t longest(uint32_t longest_us, uint64_t since, uint64_t now)
{
    uint64_t gap = now - since;
    return gap > longest_us ? (gap > UINT32_MAX ? UINT32_MAX : (uint32_t)gap) : longest_us;
}

static void send_snapshot(void)
{
    struct table_view view;
    uint8_t p[SNAPSHOT_SIZE];
    uint64_t now = hal_time_us();
    c.stats.max_snapshot_gap_us = longest(c.stats.max_snapshot_gap_us, c.last_snapshot, now);
    c.last_snapshot = now;
    table_view(&view);
    c.snapshot_serial++;
    p[0] = view.phase;
    p[1] = (uint8_t)(view.flags | (c.configured ? FLAG_CONFIGURED : 0));
    put16(p + 2, view.sensors);
    memcpy(p + 4, view.counts, SEATS);
    memcpy(p + 8, view.targets, SEATS);
    p[12] = view.fault.kind;
    p[13] = view.fault.mechanism;
    p[14] = view.fault.side;
    memcpy(p + 15, view.dice, 2);
    p[17] = view.dice_serial;
    p[18] = view.built_set;
    p[19] = c.last_seq;
    put16(p + 20, c.snapshot_serial);
    put32(p + 22, c.configured ? c.config_checksum : 0);
    send(0, MSG_SNAPSHOT, p, sizeof p);
}

void core_init(uint8_t reset_reason)
{
    struct core_stats stats = c.stats; /* counters for the tests survive a simulated reboot */
    uint64_t now = hal_time_us();
#if CONFIG_SIMULATED
    sim_start();
#endif
    memset(&c, 0, sizeof c);
    c.stats = stats;
    frame_reader_init(&c.reader);
    c.reset_reason = reset_reason;
    c.expected = 1;
    c.last_host_rx = c.last_rx_byte = c.next_snapshot = c.last_snapshot = c.last_poll = now;
    c.last_corrupt_nak = now - NAK_SPACING_US; /* the first one goes at once */
    c.snapshot_us = DEFAULT_SNAPSHOT_US;
    c.host_timeout_us = DEFAULT_HOST_TIMEOUT_US;
    table_init(now);
    c.sent_version = table_version() - 1;
    if (reset_reason != RESET_POWER_ON)
        table_stop_all(FAULT_MCU_RESET, MECH_NONE, NO_SIDE); /* whatever was moving stopped */
    send_identity(0);
}

/* The payload size a host → MCU type must have; -1: not a type the catalogue knows. */
static int payload_size(uint8_t type)
{
    switch (type) {
    case MSG_IDENTIFY: return IDENTIFY_SIZE;
    case MSG_PING: case MSG_EMERGENCY_STOP: case MSG_STATUS_REQUEST: return 0;
    case MSG_CONFIGURE: return CONFIGURE_SIZE;
    case MSG_CLEAR_FAULT: case MSG_SHUFFLE: case MSG_BUILD_WALLS: case MSG_LIFT_WALLS: return 0;
    case MSG_LOWER_PLATFORMS: case MSG_ROLL_DICE: return 0;
    case MSG_HATCH: case MSG_DIAGNOSTIC: return 1;
    case MSG_LAMP: return LAMP_SIZE;
    case MSG_DEALER: return DEALER_SIZE;
    case MSG_NOP: return 2;
    case MSG_ACK: case MSG_NAK: return 2;
    case MSG_IDENTITY: return IDENTITY_SIZE;
    case MSG_SNAPSHOT: return SNAPSHOT_SIZE;
    default: return -1;
    }
}

static bool sequenced_type(uint8_t type)
{
    return type >= MSG_CONFIGURE && type <= MSG_NOP;
}

/* The frame decodes as its catalogue entry: the right size and every enum field in range (as messages.py). */
static bool decodes(const struct frame *f)
{
    if (payload_size(f->type) != f->len)
        return false;
    const uint8_t *p = f->payload;
    switch (f->type) {
    case MSG_LAMP: return p[1] <= LAMP_BLINK;
    case MSG_ACK: return payload_size(p[0]) >= 0 && p[1] <= RESULT_SENSOR_CONFLICT;
    case MSG_NAK: return p[1] <= NAK_UNSYNCED;
    case MSG_IDENTITY: return p[34] <= RESET_PIN;
    case MSG_SNAPSHOT: return p[0] <= PHASE_LOWERING && p[12] <= FAULT_DRIVER_FAULT && p[13] <= MECH_DICE;
    default: return true;
    }
}

static uint8_t run_command(const struct frame *f, uint64_t now)
{
#if CONFIG_SIMULATED
    sim_executed(f->seq, f->type, f->type == MSG_NOP ? (uint16_t)(f->payload[0] << 8 | f->payload[1]) : 0);
#endif
    if (f->type == MSG_CONFIGURE) {
        const uint8_t *p = f->payload;
        uint32_t checksum = get32(p + 9);
        if (crc32(p, 9) != checksum)
            return RESULT_BAD_CHECKSUM;
        uint16_t host_timeout_ms = (uint16_t)(p[5] << 8 | p[6]), snapshot_ms = (uint16_t)(p[7] << 8 | p[8]);
        /* Ranges of firmware_bridge.config.McuConfig: a 0 ms snapshot period would flood the line. */
        if (host_timeout_ms < 50 || snapshot_ms < 10)
            return RESULT_BAD_ARGUMENT;
        uint8_t result = table_configure(p, !c.configured, now);
        if (result == RESULT_OK) {
            c.configured = true;
            c.config_checksum = checksum;
            c.snapshot_us = snapshot_ms * 1000u;
            c.host_timeout_us = host_timeout_ms * 1000u;
        }
        return result;
    }
    if (!c.configured && f->type != MSG_NOP && f->type != MSG_LAMP && f->type != MSG_DEALER)
        return RESULT_UNCONFIGURED;
    return table_execute(f->type, f->payload, now);
}

/* PROTOCOL.md §3: run the expected number once, re-acknowledge the last one, NAK anything else. */
static void sequenced(const struct frame *f, bool valid, uint64_t now)
{
    if (!c.synced) {
        send_nak(NAK_UNSYNCED);
    } else if (c.has_last && f->seq == c.last_seq && f->type == c.last_type) {
        c.stats.duplicates_dropped++;
        send_ack(f->seq, c.last_type, c.last_result);
    } else if (f->seq != c.expected) {
        send_nak(NAK_OUT_OF_ORDER);
    } else {
        uint8_t result = valid ? run_command(f, now) : RESULT_BAD_ARGUMENT;
        c.last_seq = f->seq;
        c.expected = (uint8_t)(f->seq % 255 + 1);
        c.has_last = true;
        c.last_type = f->type;
        c.last_result = result;
        send_ack(f->seq, f->type, result);
    }
}

static void handle(const struct frame *f, uint64_t now)
{
    c.last_host_rx = now;
    if (!decodes(f)) {
        /* a good CRC but a bad payload: a sequenced command is answered BAD_ARGUMENT, in order */
        if (f->seq && sequenced_type(f->type))
            sequenced(f, false, now);
        else
            send_nak(NAK_CORRUPT);
        return;
    }
    switch (f->type) {
    case MSG_EMERGENCY_STOP:
        table_stop_all(FAULT_EMERGENCY_STOP, MECH_NONE, NO_SIDE);
        send_ack(0, MSG_EMERGENCY_STOP, RESULT_OK);
        break;
    case MSG_IDENTIFY:
        if (!c.synced) {
            c.synced = true;
            c.expected = 1;
            c.last_seq = 0;
        }
        send_identity((uint16_t)(f->payload[1] << 8 | f->payload[2]));
        break;
    case MSG_STATUS_REQUEST: send_snapshot(); break;
    default:
        if (sequenced_type(f->type))
            sequenced(f, true, now);
        break; /* PING only feeds the watchdog; MCU → host types are ignored */
    }
}

/* The bytes the host sent since the last poll, RX_BUDGET at most; one NAK for the frames broken in them. True when
 * the budget ran out (more may be waiting: the board polls again at once). */
static bool receive(uint64_t now)
{
    struct frame f;
    uint32_t broken = frame_reader_broken(&c.reader);
    bool got = false;
    unsigned taken = 0;
    int byte;
    while (taken < RX_BUDGET && (byte = hal_serial_getc()) >= 0) {
        taken++;
        got = true;
        c.last_rx_byte = now;
        frame_reader_push(&c.reader, (uint8_t)byte);
        while (frame_reader_next(&c.reader, &f))
            handle(&f, now);
    }
    if (!got && c.reader.count && now - c.last_rx_byte >= IDLE_RESYNC_US) {
        frame_reader_idle(&c.reader);
        while (frame_reader_next(&c.reader, &f))
            handle(&f, now);
    }
    if (frame_reader_broken(&c.reader) != broken)
        c.nak_owed = true;
    if (c.nak_owed && now - c.last_corrupt_nak >= NAK_SPACING_US) {
        c.nak_owed = false;
        c.last_corrupt_nak = now;
        send_nak(NAK_CORRUPT);
    }
    return taken == RX_BUDGET;
}

/* DIAGNOSTIC 15: the main loop stops here, as a core stuck in a loop would. Nothing kicks the watchdog any more: the
 * chip resets (reset reason WATCHDOG) and latches MCU_RESET, which is what the test checks. Interrupts still run, so
 * the ACK already queued goes out. */
static void stall(void)
{
    volatile uint32_t spins = 0;
    for (;;)
        spins++;
}

/* No valid frame from the host for host_timeout while a motor runs: stop everything. */
static void watchdog(uint64_t now)
{
    if (now - c.last_host_rx > c.host_timeout_us && table_motors_on()) {
        c.stats.watchdog_trips++;
#if CONFIG_SIMULATED
        sim_watchdog_tripped((uint32_t)(now - c.last_host_rx));
#endif
        table_stop_all(FAULT_HOST_SILENT, MECH_NONE, NO_SIDE);
    }
}

static uint64_t earliest(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

uint64_t core_poll(uint64_t now)
{
    uint8_t reboot;
    c.stats.max_poll_gap_us = longest(c.stats.max_poll_gap_us, c.last_poll, now);
    c.last_poll = now;
#if CONFIG_SIMULATED
    sim_poll(now);
#endif
    if ((reboot = hal_reboot_requested()) != 0)
        core_init(reboot);
    bool more = receive(now);
#if CONFIG_SIMULATED
    /* The simulated mechanism's events in time order, the table following each at its own time, as the Python
     * model steps through them: a late poll counts no stack that came after a jam's deadline. */
    uint64_t due, at = now;
    for (unsigned steps = 0; steps < 4096 && (due = earliest(sim_next_due(), table_next_due(at))) < now; steps++) {
        at = due;
        sim_advance(due);
        if ((reboot = hal_reboot_requested()) != 0)
            core_init(reboot);
        table_update(due);
    }
    sim_advance(now);
#endif
    if ((reboot = hal_reboot_requested()) != 0)
        core_init(reboot);
    table_update(now);
    watchdog(now);
    if (table_version() != c.sent_version || now >= c.next_snapshot) {
        c.sent_version = table_version();
        c.next_snapshot = now + c.snapshot_us;
        send_snapshot();
    }
    if (table_watchdog_test())
        stall();
    hal_watchdog_kick();
    if (more)
        return now;
    uint64_t wake = earliest(earliest(c.next_snapshot, table_next_due(now)), now + HAL_POLL_MAX_US);
    if (table_motors_on())
        wake = earliest(wake, c.last_host_rx + c.host_timeout_us + 1);
    if (c.reader.count)
        wake = earliest(wake, c.last_rx_byte + IDLE_RESYNC_US);
    if (c.nak_owed)
        wake = earliest(wake, c.last_corrupt_nak + NAK_SPACING_US);
#if CONFIG_SIMULATED
    wake = earliest(wake, sim_next_due());
#endif
    return wake < now ? now : wake;
}

void core_reset_gaps(void)
{
    c.stats.max_snapshot_gap_us = c.stats.max_poll_gap_us = 0;
}

const struct core_stats *core_stats(void)
{
    return &c.stats;
}

const struct frame_stats *core_frame_stats(void)
{
    return &c.reader.stats;
}
