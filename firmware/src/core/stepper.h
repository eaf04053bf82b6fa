/* One step/dir stepper's moves, ticked at a fixed rate by a board's timer interrupt. Portable, as Klipper keeps its
 * step timing out of the board code, so that the unit tests run the same code the chip does: a linear ramp from a
 * start rate to the top rate, never a step into the closed end switch of the move's direction, and never more than
 * the move's step limit (a switch or its wire that never closes, a plate that slips: the board stops the motor by
 * itself and says so, whatever the core's timers do). No floating point; rates are steps/s x STEPPER_Q. */
#ifndef MJ_STEPPER_H
#define MJ_STEPPER_H

#include <stdbool.h>
#include <stdint.h>

#define STEPPER_Q 256u

struct stepper {
    volatile int8_t direction; /* +1, -1; 0 stopped (stepper_stop, its end switch or its step limit) */
    volatile bool at_limit;    /* the last move stopped at its step limit with its end switch still open */
    bool pulse_high;
    uint32_t tick_hz, start_rate, top_rate, accel_per_tick;
    uint32_t rate, acc;
    uint32_t steps, limit;
};

/* What one tick asks of the pins. */
enum stepper_event {
    STEPPER_NONE,
    STEPPER_PULSE,     /* STEP high (for one tick) */
    STEPPER_PULSE_END, /* STEP low */
    STEPPER_STOPPED,   /* the move ended by itself this tick (end switch or step limit): release or hold the driver */
};

/* Rates in steps/s, the ramp in steps/s^2; the stepper starts stopped. */
void stepper_init(struct stepper *s, uint32_t tick_hz, uint32_t start_rate, uint32_t top_rate, uint32_t accel);

/* A new move in ``direction`` of at most ``limit`` steps (with the timer's interrupt masked by the caller). */
void stepper_start(struct stepper *s, int8_t direction, uint32_t limit);
void stepper_stop(struct stepper *s);

/* One timer tick; ``at_end``: the end switch of the move's direction is closed now. */
enum stepper_event stepper_tick(struct stepper *s, bool at_end);

#endif
