/* The motors: step/dir/enable steppers for the lift plates and the hatch, paced by TIM2 at STEP_TICK_HZ with a
 * linear ramp; PWM DC motors for the stackers and the disc on TIM3 / TIM4 with a soft start. A stepper never
 * drives into a closed end switch of its travel, and a side's stacker stops by itself when its wall has all its
 * stacks, whatever the core does; the core still decides every start and stop. */
#include "board.h"
#include "clock.h"
#include "hal.h"
#include "pins.h"
#include "stm32f4.h"

#define Q 256u /* step rates are in steps/s x Q */
#define RATE_START (200u * Q)
#define ACCEL_PER_TICK (STEP_ACCEL_PER_S2 * Q / STEP_TICK_HZ)
#define PWM_TOP (CPU_HZ / PWM_HZ)
#define PWM_RUN (PWM_TOP * PWM_DUTY_PERCENT / 100u)
#define PWM_RAMP_PER_MS (PWM_RUN / PWM_RAMP_MS + 1u)

struct stepper {
    volatile int8_t direction; /* written by hal_motor, cleared by the interrupt at an end switch */
    bool pulse_high;
    uint32_t rate, top, acc;
};

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
        steppers[i].top = (i == STEPPER_HATCH ? HATCH_STEPS_PER_S : LIFT_STEPS_PER_S) * Q;
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
    if (s->pulse_high) {
        gpio_write(STEPPER_PINS[i].step, false);
        s->pulse_high = false;
        return;
    }
    const int8_t direction = s->direction;
    if (!direction) {
        return;
    }
    if (at_end(i, direction)) {
        s->direction = 0;
        stepper_release(i);
        return;
    }
    s->rate = s->rate + ACCEL_PER_TICK < s->top ? s->rate + ACCEL_PER_TICK : s->top;
    s->acc += s->rate;
    if (s->acc >= STEP_TICK_HZ * Q) {
        s->acc -= STEP_TICK_HZ * Q;
        gpio_write(STEPPER_PINS[i].step, true);
        s->pulse_high = true;
    }
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
        pwm_ms();
    }
}

static void stepper_run(unsigned i, int8_t direction)
{
    struct stepper *s = &steppers[i];
    if (!direction) {
        s->direction = 0;
        stepper_release(i);
        return;
    }
    irq_disable();
    gpio_write(STEPPER_PINS[i].dir, direction > 0);
    gpio_write(STEPPER_PINS[i].enable, false);
    s->rate = RATE_START;
    s->acc = 0;
    s->direction = direction;
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

uint8_t hal_motor_fault(void)
{
    static const struct {
        uint8_t input, mechanism; /* PROTOCOL.md mechanisms: HATCH 1, DISC 2, STACKER 4, LIFT 6 */
    } faults[] = {{IN_FAULT_HATCH, 1}, {IN_FAULT_DISC, 2}, {IN_FAULT_STACKER, 4}, {IN_FAULT_LIFT, 6}};
    for (unsigned i = 0; i < sizeof faults / sizeof faults[0]; i++) {
        if (inputs_active(faults[i].input)) {
            return faults[i].mechanism;
        }
    }
    return 0;
}
