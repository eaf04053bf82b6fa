/* Time since boot from SysTick on the processor clock: a 1 kHz interrupt and the counter between two ticks. */
#ifndef STM32F4_CLOCK_H
#define STM32F4_CLOCK_H

#include <stdint.h>

void clock_init(uint32_t cpu_hz);
uint64_t clock_us(void);

#endif
