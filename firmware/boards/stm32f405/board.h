/* What the parts of the stm32f405 board tell each other (the core sees only hal.h). */
#ifndef STM32F405_BOARD_H
#define STM32F405_BOARD_H

#include <stdbool.h>
#include <stdint.h>

void inputs_init(void);
/* One 1 ms sample of every input (the stepper timer's interrupt calls it): debounce, count stacks and revolutions. */
void inputs_sample(uint64_t now_us);
/* The debounced level of an input bit (pins.h enum input_bit): true = active. */
bool inputs_active(unsigned bit);
void inputs_wall_started(uint8_t side);
/* Stacks counted into a side's wall since its stacker started (safe in an interrupt). */
uint8_t inputs_stacks(uint8_t side);
void inputs_disc_started(void);

void motion_init(void);

void dice_init(void);
void dice_start(uint64_t now_us);

#endif
