/* Milliseconds since boot from SysTick on the processor clock. */
#ifndef STM32F4_CLOCK_H
#define STM32F4_CLOCK_H

#include <stdint.h>

void clock_init(uint32_t cpu_hz);
uint32_t clock_ms(void);

#endif
