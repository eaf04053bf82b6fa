/* The table's switches and sensors, sampled every millisecond from the stepper timer's interrupt and debounced
 * (DEBOUNCE_MS equal samples), so the core reads settled levels and the stack counters count true edges. */
#include <string.h>

#include "board.h"
#include "hal.h"
#include "pins.h"
#include "stm32f4.h"

static volatile uint32_t stable;           /* debounced inputs, bit = pins.h enum input_bit, 1 = active */
static uint8_t agree[INPUTS];              /* samples in a row that differ from the stable level */
static volatile struct hal_count walls[4]; /* each side's stacks since its stacker started */
static volatile uint16_t counter_toggle;   /* the snapshot's COUNTER bit: flips once per stack, any side */
static volatile uint32_t revolutions;      /* disc index pulses since the disc started */

void inputs_init(void)
{
    for (unsigned i = 0; i < INPUTS; i++) {
        gpio_input_pullup(INPUT_PINS[i]);
    }
}

static void edge(unsigned bit, uint32_t now_stable, uint64_t now_us)
{
    if (bit >= IN_COUNTER && bit < IN_COUNTER + 4u) { /* a stack passed the count sensor of its side */
        volatile struct hal_count *wall = &walls[bit - IN_COUNTER];
        const bool tall = now_stable & (1u << (IN_HEIGHT + bit - IN_COUNTER));
        wall->stacks++;
        wall->tiles = (uint8_t)(wall->tiles + (tall ? 2u : 1u));
        wall->edge_us = now_us;
        counter_toggle ^= 1u << 11;
    } else if (bit == IN_DISC_INDEX) {
        revolutions++;
    }
}

void inputs_sample(uint64_t now_us)
{
    uint32_t raw = 0;
    for (unsigned i = 0; i < INPUTS; i++) {
        raw |= (uint32_t)gpio_low(INPUT_PINS[i]) << i;
    }
    uint32_t now_stable = stable;
    uint32_t rose = 0;
    for (unsigned i = 0; i < INPUTS; i++) {
        const uint32_t bit = 1u << i;
        if ((raw ^ now_stable) & bit) {
            if (++agree[i] >= DEBOUNCE_MS) {
                agree[i] = 0;
                now_stable ^= bit;
                rose |= now_stable & bit;
            }
        } else {
            agree[i] = 0;
        }
    }
    stable = now_stable; /* before the edges: the height of a counted stack is read with the same sample */
    for (unsigned i = 0; rose; i++, rose >>= 1) {
        if (rose & 1u) {
            edge(i, now_stable, now_us);
        }
    }
}

bool inputs_active(unsigned bit) { return stable & (1u << bit); }

void inputs_wall_started(uint8_t side)
{
    irq_disable();
    memset((void *)&walls[side], 0, sizeof walls[side]);
    irq_enable();
}

uint8_t inputs_stacks(uint8_t side) { return walls[side].stacks; }

void inputs_disc_started(void) { revolutions = 0; }

uint16_t hal_sensors(void)
{
    const uint32_t now = stable;
    return (uint16_t)((now & 0x7FFu) | counter_toggle | (now & (0xFu << IN_DICE_KEY)));
}

void hal_stack_counter(uint8_t side, struct hal_count *count)
{
    irq_disable();
    count->stacks = walls[side].stacks;
    count->tiles = walls[side].tiles;
    count->edge_us = walls[side].edge_us;
    irq_enable();
}

bool hal_disc_mixed(void) { return revolutions >= MIX_REVOLUTIONS; }

uint32_t hal_nominal_us(enum hal_nominal which)
{
    switch (which) {
    case HAL_NOMINAL_LIFT: return NOMINAL_LIFT_US;
    case HAL_NOMINAL_LOWER: return NOMINAL_LOWER_US;
    case HAL_NOMINAL_HATCH: return NOMINAL_HATCH_US;
    case HAL_NOMINAL_MIX: return NOMINAL_MIX_US;
    case HAL_NOMINAL_DICE: return DICE_ROLL_MS * 1000u;
    default: return NOMINAL_STACK_US;
    }
}
