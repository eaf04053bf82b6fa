/* Stepper moves (see stepper.h). */
#include "core/stepper.h"

void stepper_init(struct stepper *s, uint32_t tick_hz, uint32_t start_rate, uint32_t top_rate, uint32_t accel)
{
    *s = (struct stepper){.tick_hz = tick_hz, .start_rate = start_rate * STEPPER_Q, .top_rate = top_rate * STEPPER_Q};
    s->accel_per_tick = accel * STEPPER_Q / tick_hz;
}

void stepper_start(struct stepper *s, int8_t direction, uint32_t limit)
{
    s->rate = s->start_rate;
    s->acc = 0;
    s->steps = 0;
    s->limit = limit;
    s->at_limit = false;
    s->direction = direction;
}

void stepper_stop(struct stepper *s)
{
    s->direction = 0;
}

enum stepper_event stepper_tick(struct stepper *s, bool at_end)
{
    if (s->pulse_high) {
        s->pulse_high = false;
        return STEPPER_PULSE_END;
    }
    if (!s->direction)
        return STEPPER_NONE;
    if (at_end) {
        s->direction = 0;
        return STEPPER_STOPPED;
    }
    s->rate = s->rate + s->accel_per_tick < s->top_rate ? s->rate + s->accel_per_tick : s->top_rate;
    s->acc += s->rate;
    if (s->acc < s->tick_hz * STEPPER_Q)
        return STEPPER_NONE;
    s->acc -= s->tick_hz * STEPPER_Q;
    if (s->steps >= s->limit) { /* the whole budget stepped and the switch still open: stop here */
        s->direction = 0;
        s->at_limit = true;
        return STEPPER_STOPPED;
    }
    s->steps++;
    s->pulse_high = true;
    return STEPPER_PULSE;
}
