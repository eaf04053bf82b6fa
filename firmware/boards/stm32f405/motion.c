/* The motors: step/dir/enable steppers for the lift plates and the hatch, paced by TIM2 at STEP_TICK_HZ with a
 * linear ramp (src/core/stepper.c); PWM DC motors for the stackers and the disc on TIM3 / TIM4 with a soft start.
 * Whatever the core does: a stepper never drives into a closed end switch of its travel and stops after
 * STEP_LIMIT_TRAVELS full travels' worth of steps in one move, a side's stacker stops when its wall has all its
 * stacks, and a driver that asserts its fault output cuts every output within the millisecond (the core, polling,
 * then latches the fault by name). The core still decides every start and stop. */
#include "board.h"
#include "clock.h"
#include "core/stepper.h"
#include "hal.h"
#include "pins.h"
#include "stm32f4.h"

#define RATE_START 200u /* steps/s from standstill */
#define PWM_TOP (CPU_HZ / PWM_HZ)
#define PWM_RUN (PWM_TOP * PWM_DUTY_PERCENT / 100u)
#define PWM_RAMP_PER_MS (PWM_RUN / PWM_RAMP_MS + 1u)

static struct stepper steppers[STEPPERS];
static volatile uint32_t pwm_target[5]; /* compare values the soft start ramps to: stackers 0-3, then the disc */
static volatile uint8_t wall_tiles[4];
static unsigned ms_divider;

static volatile uint32_t *pwm_ccr(unsigned motor)
{
    return motor < 4u ? &TIM_CCR(TIM3_BASE, motor + 1u) : &TIM_CCR(TIM4_BASE, 1u);
}

static void pwm_timer_init(uint32_t base, unsigned channels)
{
    TIM_PSC(base) = 0;
    TIM_ARR(base) = PWM_TOP - 1u;
    const uint32_t mode = TIM_CCMR_PWM1 | TIM_CCMR_OCPE;
    TIM_CCMR1(base) = mode | (channels > 1u ? mode << 8 : 0u);
    TIM_CCMR2(base) = channels > 2u ? mode | mode << 8 : 0u;
    for (unsigned ch = 0; ch < channels; ch++) {
        TIM_CCR(base, ch + 1u) = 0;
        TIM_CCER(base) |= 1u << (4u * ch);
    }
    TIM_EGR(base) = TIM_EGR_UG;
    TIM_CR1(base) = TIM_CR1_ARPE | TIM_CR1_CEN;
}

void motion_init(void)
{
    for (unsigned i = 0; i < STEPPERS; i++) {
        gpio_output(STEPPER_PINS[i].enable, true); /* disabled (nEN high) before anything else */
        gpio_output(STEPPER_PINS[i].step, false);
        gpio_output(STEPPER_PINS[i].dir, false);
        stepper_init(&steppers[i], STEP_TICK_HZ, RATE_START, i == STEPPER_HATCH ? HATCH_STEPS_PER_S : LIFT_STEPS_PER_S,
                     STEP_ACCEL_PER_S2);
    }
    RCC_APB1ENR |= RCC_APB1ENR_TIM2 | RCC_APB1ENR_TIM3 | RCC_APB1ENR_TIM4;
    pwm_timer_init(TIM3_BASE, 4);
    pwm_timer_init(TIM4_BASE, 1);
    for (unsigned i = 0; i < 4u; i++) {
        gpio_alternate(PWM_STACKER_PINS[i], 2);
    }
    gpio_alternate(PWM_DISC_PIN, 2);
    TIM_PSC(TIM2_BASE) = 0;
    TIM_ARR(TIM2_BASE) = CPU_HZ / STEP_TICK_HZ - 1u;
    TIM_DIER(TIM2_BASE) = TIM_DIER_UIE;
    TIM_CR1(TIM2_BASE) = TIM_CR1_CEN;
    nvic_enable(TIM2_IRQ);
}

/* The end switch a stepper moving in ``direction`` closes at the end of its travel. */
static bool at_end(unsigned i, int8_t direction)
{
    if (i == STEPPER_HATCH) {
        return inputs_active(direction > 0 ? IN_HATCH_OPEN : IN_HATCH_CLOSED);
    }
    return inputs_active((direction > 0 ? IN_LIFT_UP : IN_LIFT_DOWN) + i);
}

/* A stopped lift plate above its bottom switch keeps its driver enabled (holding torque keeps the walls up); the
 * hatch and a plate at rest on its bottom switch are released. */
static void stepper_release(unsigned i)
{
    const bool hold = i != STEPPER_HATCH && !inputs_active(IN_LIFT_DOWN + i);
    gpio_write(STEPPER_PINS[i].enable, !hold);
}

static void step_tick(unsigned i)
{
    struct stepper *s = &steppers[i];
    const int8_t direction = s->direction;
    switch (stepper_tick(s, direction && at_end(i, direction))) {
    case STEPPER_PULSE: gpio_write(STEPPER_PINS[i].step, true); break;
    case STEPPER_PULSE_END: gpio_write(STEPPER_PINS[i].step, false); break;
    case STEPPER_STOPPED: stepper_release(i); break;
    case STEPPER_NONE: break;
    }
}

static bool driver_fault_pin(void)
{
    return inputs_active(IN_FAULT_HATCH) || inputs_active(IN_FAULT_LIFT) || inputs_active(IN_FAULT_DISC)
           || inputs_active(IN_FAULT_STACKER);
}

static void pwm_ms(void)
{
    for (unsigned m = 0; m < 5u; m++) {
        if (m < 4u && pwm_target[m] && inputs_stacks((uint8_t)m) >= (wall_tiles[m] + 1u) / 2u) { /* wall complete */
            pwm_target[m] = 0;
        }
        volatile uint32_t *ccr = pwm_ccr(m);
        const uint32_t now = *ccr, target = pwm_target[m];
        *ccr = target <= now ? target : (now + PWM_RAMP_PER_MS < target ? now + PWM_RAMP_PER_MS : target);
    }
}

void tim2_handler(void)
{
    TIM_SR(TIM2_BASE) = ~TIM_SR_UIF;
    for (unsigned i = 0; i < STEPPERS; i++) {
        step_tick(i);
    }
    if (++ms_divider >= STEP_TICK_HZ / 1000u) {
        ms_divider = 0;
        inputs_sample(clock_us());
        if (driver_fault_pin()) { /* at once, not at the core's next poll */
            hal_safe_outputs();
        }
        pwm_ms();
    }
}

static void stepper_run(unsigned i, int8_t direction)
{
    struct stepper *s = &steppers[i];
    if (!direction) {
        stepper_stop(s);
        stepper_release(i);
        return;
    }
    irq_disable();
    gpio_write(STEPPER_PINS[i].dir, direction > 0);
    gpio_write(STEPPER_PINS[i].enable, false);
    stepper_start(s, direction, STEP_LIMIT_TRAVELS * (i == STEPPER_HATCH ? HATCH_TRAVEL_STEPS : LIFT_TRAVEL_STEPS));
    irq_enable();
}

void hal_motor(enum hal_motor motor, int8_t direction, uint8_t tiles)
{
    if (motor >= HAL_MOTOR_LIFT0 && motor < HAL_MOTOR_LIFT0 + 4) {
        stepper_run(STEPPER_LIFT0 + (unsigned)(motor - HAL_MOTOR_LIFT0), direction);
    } else if (motor == HAL_MOTOR_HATCH) {
        stepper_run(STEPPER_HATCH, direction);
    } else if (motor >= HAL_MOTOR_STACKER0 && motor < HAL_MOTOR_STACKER0 + 4) {
        const unsigned side = (unsigned)(motor - HAL_MOTOR_STACKER0);
        if (direction) {
            wall_tiles[side] = tiles;
            inputs_wall_started((uint8_t)side);
        }
        pwm_target[side] = direction ? PWM_RUN : 0u;
    } else if (motor == HAL_MOTOR_DISC) {
        if (direction) {
            inputs_disc_started();
        }
        pwm_target[4] = direction ? PWM_RUN : 0u;
    } else if (motor == HAL_MOTOR_DICE && direction) {
        dice_start(clock_us());
    }
}

/* Every output safe, from the main loop, the timer interrupt or the hard-fault handler: no more step pulses (a
 * plate above its bottom switch keeps its holding torque, the rest released), every PWM compare at 0 at once. */
void hal_safe_outputs(void)
{
    for (unsigned i = 0; i < STEPPERS; i++) {
        stepper_stop(&steppers[i]);
        gpio_write(STEPPER_PINS[i].step, false);
        stepper_release(i);
    }
    for (unsigned m = 0; m < 5u; m++) {
        pwm_target[m] = 0;
        *pwm_ccr(m) = 0;
    }
}

bool hal_step_limit_reached(enum hal_motor motor)
{
    if (motor == HAL_MOTOR_HATCH) {
        return steppers[STEPPER_HATCH].at_limit;
    }
    return motor >= HAL_MOTOR_LIFT0 && motor < HAL_MOTORS && steppers[motor - HAL_MOTOR_LIFT0].at_limit;
}

uint8_t hal_driver_faults(void)
{
    static const struct {
        uint8_t input, mechanism; /* PROTOCOL.md mechanisms: HATCH 1, DISC 2, STACKER 4, LIFT 6 */
    } faults[] = {{IN_FAULT_HATCH, 1}, {IN_FAULT_DISC, 2}, {IN_FAULT_STACKER, 4}, {IN_FAULT_LIFT, 6}};
    uint8_t asserted = 0;
    for (unsigned i = 0; i < sizeof faults / sizeof faults[0]; i++) {
        if (inputs_active(faults[i].input)) {
            asserted |= (uint8_t)(1u << faults[i].mechanism);
        }
    }
    return asserted;
}
