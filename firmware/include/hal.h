/* The hardware layer: everything the portable core asks of a board, and the core's entry points a board calls.
 *
 * The core (src/core) speaks PROTOCOL.md and owns the table's rules and safety; a board (boards/<name>) owns pins,
 * clocks and the UART. A board is either *real* (it drives motors and reads switches) or *simulated*: it sets
 * CONFIG_SIMULATED=1 and links src/sim, which implements the "mechanism" half of this file (motors, sensors,
 * stack counters, disc, dice, nominal timings) as the time-driven model of hw_tests/mechanism.py. A simulated
 * board then implements only the "chip" half: clock, UART, side channel, lamps, watchdog, reset reason, board id.
 *
 * Threading: the core is single-threaded and not reentrant. Interrupt handlers may only fill the board's own
 * buffers (UART rx ring, edge counters, tick counter); every function below is called from the main loop.
 */
#ifndef MJ_HAL_H
#define MJ_HAL_H

#include <stdbool.h>
#include <stdint.h>

/* ---- the core's entry points (src/core/core.c), called by the board's main ---------------------------------- */

/* Start (or restart) the core: RAM state from scratch, every motor off, the boot IDENTITY (nonce 0) sent.
 * reset_reason is a PROTOCOL.md reset reason (1 POWER_ON, 2 WATCHDOG, 3 BROWN_OUT, 4 SOFTWARE, 5 RESET_PIN);
 * any reason but POWER_ON latches fault MCU_RESET. */
void core_init(uint8_t reset_reason);

/* Do everything due at now_us (a hal_time_us() reading): read the UART, run commands, advance the mechanism,
 * the jam / travel / host-silence deadlines, blink the lamps, send snapshots, kick the watchdog.
 * Returns the time at which the core next needs a call if no byte arrives before it (never in the past);
 * a board may sleep until then or until the UART receives (the host board's select(), the MCU's WFI). */
uint64_t core_poll(uint64_t now_us);

/* ---- chip: every board ------------------------------------------------------------------------------------- */

/* Monotonic time in microseconds since the board started; never wraps in practice (64 bits). A 1 ms tick is
 * enough resolution for the core (the shortest timer it keeps is the 5 ms stalled-frame resync). */
uint64_t hal_time_us(void);

/* The next received byte (0-255) of the host link, or -1 when none is waiting. Never blocks. The board buffers
 * what arrives between two core_poll calls (at least 128 bytes); a byte lost to an overflow is as if corrupted
 * on the line, which the protocol recovers from. */
int hal_serial_getc(void);

/* Send bytes on the host link (one whole frame, at most 64 bytes). Never blocks for long: a board whose transmit
 * buffer is full drops the frame (a UART drops what it cannot send; the protocol heals a lost MCU frame). */
void hal_serial_write(const uint8_t *data, uint8_t len);

/* Lamp output: lamp 0-3 are the seats' dealer lamps, 4 the round-wind lamp. The core does the blinking. */
void hal_lamp(uint8_t lamp, bool on);

/* Feed the hardware watchdog (the independent watchdog on the stm32f405, about 250 ms; the host and qemu boards
 * emulate one of 1 s, since neither a Linux process nor QEMU has it). core_poll calls it once per call, whatever
 * the line carries, and asks to be called again within HAL_POLL_MAX_US: a core that stops polling is reset. */
void hal_watchdog_kick(void);
#define HAL_POLL_MAX_US 50000u

/* The board's identity for IDENTITY.board_id: at most 12 ASCII characters (a serial number, the chip's unique id). */
const char *hal_board_id(void);

/* Why the chip last reset, as a PROTOCOL.md reset reason (read from the reset flags once at board start). */
uint8_t hal_reset_reason(void);

/* A restart the board asks of the core: a reset reason (2-5), or 0 for none. Real boards return 0 (they reset the
 * chip itself). Simulated boards get it from src/sim: the reason of a planned reset (FaultPlan.reset, the side
 * channel's RESET); core_poll then calls core_init(reason), as a reboot of the chip would, the mechanism kept. */
uint8_t hal_reboot_requested(void);

/* ---- mechanism: real boards implement it with pins, simulated ones link src/sim ---------------------------- */

/* The motors. Direction: +1 forward (hatch open, lift up, disc/stacker/dice turning), -1 back (hatch close, lift
 * down), 0 off. Steppers (step/dir/enable) or PWM motors: the board decides, with its own speeds and ramps. */
enum hal_motor {
    HAL_MOTOR_HATCH,
    HAL_MOTOR_DISC,
    HAL_MOTOR_DICE,
    HAL_MOTOR_STACKER0, /* + side, 0-3: the ring, feeder and pusher of that side's wall, run as one */
    HAL_MOTOR_LIFT0 = HAL_MOTOR_STACKER0 + 4, /* + side, 0-3: that side's lift plate */
    HAL_MOTORS = HAL_MOTOR_LIFT0 + 4,
};

/* Run or stop a motor. Starting the stacker of a side starts a new wall: its counter (hal_stack_counter) goes back
 * to zero, and wall_tiles says how many tiles the feeder meters into that wall (ignored for other motors). */
void hal_motor(enum hal_motor motor, int8_t direction, uint8_t wall_tiles);

/* Every output to its safe state at once, as Klipper's shutdown does: every motor stopped (PWM off, no more step
 * pulses, a lift plate above its bottom switch held by its driver, the rest released). The only way the core
 * stops everything: at boot, on every fault and the emergency stop; the Cortex-M boards' hard-fault handler calls
 * it too, before the watchdog resets the chip. Safe to call from that handler (touches only outputs). */
void hal_safe_outputs(void);

/* The steppers (HAL_MOTOR_HATCH, HAL_MOTOR_LIFT0 + side) stop by themselves when a move has made the board's step
 * limit (four times the full travel) with the end switch of its direction still open: a switch or its wire that
 * never closes, a plate that slips. True when that motor's last move ended so (until it is started again). */
bool hal_step_limit_reached(enum hal_motor motor);

/* The debounced inputs, in the snapshot's sensor layout (PROTOCOL.md §4 "Sensors"): bits 0-3 LIFT_UP of sides 0-3,
 * 4-7 LIFT_DOWN, 8 HATCH_OPEN, 9 HATCH_CLOSED, 10 BELT_FULL, 11 COUNTER (toggles once per stack, any side),
 * 12-15 the seats' dice keys. */
uint16_t hal_sensors(void);

/* One side's stack counter since its stacker was last started: stacks pushed into the groove, tiles in them
 * (2 per stack, 1 for the last stack of an odd wall or a short one: the board's stack-height sensor), and the
 * hal_time_us() of the last stack's debounced edge (input capture: the jam detector learns from true intervals). */
struct hal_count {
    uint8_t stacks;
    uint8_t tiles;
    uint64_t edge_us;
};
void hal_stack_counter(uint8_t side, struct hal_count *count);

/* The disc has mixed the tiles since HAL_MOTOR_DISC was last started (its revolutions counted on its index
 * sensor; the simulated disc: its shuffle time). */
bool hal_disc_mixed(void);

/* The dice have settled since HAL_MOTOR_DICE was last started: true, with their values 1-6 in dice[0..1]. */
bool hal_dice_settled(uint8_t dice[2]);

/* The motor drivers whose fault output is asserted now (over-current, over-temperature, their supply gone), one bit
 * per PROTOCOL.md mechanism (1 << HATCH, DISC, STACKER, LIFT...); 0 when none. The core latches OVERCURRENT for a
 * mechanism whose motor runs and DRIVER_FAULT for one at rest, and refuses CLEAR_FAULT while any bit is set. */
uint8_t hal_driver_faults(void);

/* The nominal durations the core's safety timers scale by the jam factor k (PROTOCOL.md §4 "Motion limits": jam =
 * k x learned stack interval, every motion's time limit = k x its nominal duration), in microseconds. */
enum hal_nominal {
    HAL_NOMINAL_STACK_INTERVAL, /* the first interval a side's jam detector assumes, before it learns */
    HAL_NOMINAL_LIFT,           /* a lift plate's travel from its down switch to its up switch */
    HAL_NOMINAL_LOWER,          /* and back down */
    HAL_NOMINAL_HATCH,          /* the hatch from one end switch to the other */
    HAL_NOMINAL_MIX,            /* the disc mixing the tiles (its revolutions) */
    HAL_NOMINAL_DICE,           /* the dice rolling until they settle */
};
uint32_t hal_nominal_us(enum hal_nominal which);

/* The core entered a table phase (PROTOCOL.md §4 "Phases"). Real boards may show it on a status LED or ignore it;
 * the simulated mechanism uses it for FaultPlan.reset ("reboot after_s after entering phase"). */
void hal_phase_entered(uint8_t phase, uint64_t now_us);

/* ---- simulated boards only (CONFIG_SIMULATED=1): the side channel of src/sim/simchan.c ---------------------- */
#if CONFIG_SIMULATED

/* The side channel: a second byte stream next to the host link, only in simulated builds (the host board: a
 * second pty; the QEMU board: a second UART). It carries the fault plan, resets, seeds and speed in, and the
 * executed commands and watchdog trips out, framed like the host link (src/sim/simchan.c, firmware/README.md).
 * core_poll reads and answers it, and advances the simulated mechanism: the board only moves the bytes. */
int hal_sim_getc(void);
void hal_sim_write(const uint8_t *data, uint8_t len);

#endif

#endif
