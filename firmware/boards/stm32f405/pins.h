/* The stm32f405 board's pin map (STM32F405VGT6, LQFP100) and the table's mechanical constants.
 * firmware/README.md "Pin map" is the same table for the person wiring it: change both together. */
#ifndef STM32F405_PINS_H
#define STM32F405_PINS_H

#include "gpio.h"

enum { PA, PB, PC, PD, PE };

/* Step/dir/enable stepper drivers (A4988, DRV8825, TMC2209 in step/dir mode): the four lift plates and the hatch.
 * ENABLE is active low (the drivers' nEN, pulled up on the driver board so that a resetting MCU disables them). */
enum { STEPPER_LIFT0 = 0, STEPPER_HATCH = 4, STEPPERS = 5 };
struct stepper_pins {
    struct pin step, dir, enable;
};
static const struct stepper_pins STEPPER_PINS[STEPPERS] = {
    {{PE, 0}, {PE, 1}, {PE, 2}},   {{PE, 3}, {PE, 4}, {PE, 5}},    {{PE, 6}, {PE, 7}, {PE, 8}},
    {{PE, 9}, {PE, 10}, {PE, 11}}, {{PE, 12}, {PE, 13}, {PE, 14}},
};

/* PWM motors (a DC motor behind a low-side MOSFET or one input of an H-bridge, one direction): the stackers of
 * sides 0-3 (ring, feeder and pusher of that wall as one) on TIM3 CH1-4, the shuffling disc on TIM4 CH1; AF2. */
static const struct pin PWM_STACKER_PINS[4] = {{PC, 6}, {PC, 7}, {PC, 8}, {PC, 9}};
static const struct pin PWM_DISC_PIN = {PD, 12};

/* Inputs, in the bit order of the sampled input word: every one pulled up inside the chip and active low (a switch
 * or an open-collector sensor to ground). Bits 0-10 and 12-15 are the snapshot's sensor bits as they are. */
enum input_bit {
    IN_LIFT_UP = 0,   /* + side: the limit switch at the top of the plate's travel */
    IN_LIFT_DOWN = 4, /* + side: at the bottom */
    IN_HATCH_OPEN = 8,
    IN_HATCH_CLOSED = 9,
    IN_BELT_FULL = 10,
    IN_DISC_INDEX = 11, /* one pulse per revolution of the disc (the snapshot's bit 11 is COUNTER instead) */
    IN_DICE_KEY = 12,   /* + seat */
    IN_COUNTER = 16,    /* + side: the stack count photo sensor, blocked while a stack passes */
    IN_HEIGHT = 20,     /* + side: blocked when the stack being counted is two tiles high */
    IN_FAULT_HATCH = 24, /* the drivers' nFAULT outputs (open drain, those of one mechanism wired together) */
    IN_FAULT_LIFT = 25,
    IN_FAULT_DISC = 26,
    IN_FAULT_STACKER = 27,
    INPUTS = 28,
};
static const struct pin INPUT_PINS[INPUTS] = {
    {PD, 0},  {PD, 1},  {PD, 2},  {PD, 3},  {PD, 4},  {PD, 5},  {PD, 6},  {PD, 7}, {PD, 8}, {PD, 9},
    {PD, 10}, {PD, 11}, {PC, 0},  {PC, 1},  {PC, 2},  {PC, 3},  {PB, 12}, {PB, 13}, {PB, 14}, {PB, 15},
    {PB, 8},  {PB, 9},  {PB, 10}, {PB, 11}, {PC, 4},  {PC, 5},  {PB, 0},  {PB, 1},
};

/* Lamps (active high, to a MOSFET or an LED driver): the dealer lamps of seats 0-3, then the round-wind lamp. */
static const struct pin LAMP_PINS[5] = {{PA, 0}, {PA, 1}, {PA, 2}, {PA, 3}, {PA, 4}};

/* The electronic dice: two seven-segment digits (common cathode) behind two chained 74HC595 shift registers,
 * segments a-g on QA-QG; the first byte shifted out ends in the far register (the second die). */
static const struct pin DICE_DATA_PIN = {PA, 5}, DICE_CLOCK_PIN = {PA, 6}, DICE_LATCH_PIN = {PA, 7};

/* Clocks, and the timing of this table's mechanics (measure them on the table and set them here). */
#define CPU_HZ 16000000u          /* HSI, RCC left at its reset state: the system clock, APB1 and APB2 */
#define BAUD 115200u
#define STEP_TICK_HZ 10000u       /* the stepper timer (TIM2); a step pulse is high for one tick */
#define LIFT_STEPS_PER_S 2000u    /* full speed of a lift plate */
#define HATCH_STEPS_PER_S 1500u   /* full speed of the hatch */
#define STEP_ACCEL_PER_S2 8000u   /* the ramp from standstill to full speed */
#define PWM_HZ 20000u             /* above hearing */
#define PWM_DUTY_PERCENT 80u      /* the DC motors' running duty; tune to the table's gearing */
#define PWM_RAMP_MS 200u          /* soft start of the DC motors */
#define DEBOUNCE_MS 4u            /* an input changes after this many equal 1 ms samples */
#define MIX_REVOLUTIONS 12u       /* disc revolutions that mix the tiles */
#define DICE_ROLL_MS 1200u        /* the digits spin this long, then show the throw */
#define DICE_FRAME_MS 60u         /* one spinning face per frame */
#define NOMINAL_STACK_US 1200000u /* one stack per side every 1.2 s: the jam detector's first guess */
#define NOMINAL_LIFT_US 2500000u  /* a lift plate's travel from bottom to top */
#define NOMINAL_LOWER_US 2500000u /* and back down, at the same rate */
#define NOMINAL_HATCH_US 1500000u /* the hatch from one end switch to the other */
#define NOMINAL_MIX_US 8000000u   /* the disc's MIX_REVOLUTIONS */
/* Every motion's time limit is the host's jam factor k x its nominal time above (PROTOCOL.md §4 "Motion limits"). The
 * steppers also stop by themselves after STEP_LIMIT_TRAVELS full travels' steps in one move, k or not. */
#define STEP_LIMIT_TRAVELS 4u
#define LIFT_TRAVEL_STEPS (LIFT_STEPS_PER_S * (NOMINAL_LIFT_US / 1000u) / 1000u)
#define HATCH_TRAVEL_STEPS (HATCH_STEPS_PER_S * (NOMINAL_HATCH_US / 1000u) / 1000u)
#define WATCHDOG_MS 250u          /* the independent watchdog resets a core that stopped polling this long */
#define BOR_LEVEL BOR_LEVEL_3     /* brown-out reset below about 2.65 V (a 3.3 V supply): option_bytes.h */

#endif
