/* SysTick at 1 kHz: the only time base, so the firmware runs the same under QEMU (which ties the processor clock
 * to 168 MHz whatever RCC says) and on the chip (16 MHz HSI, RCC left at its reset state). */
#include "clock.h"

#include "stm32f4.h"

static volatile uint32_t ticks;

void systick_handler(void) { ticks++; }

void clock_init(uint32_t cpu_hz)
{
    SYST_RVR = cpu_hz / 1000u - 1u;
    SYST_CVR = 0;
    SYST_CSR = SYST_CSR_CLKSOURCE | SYST_CSR_TICKINT | SYST_CSR_ENABLE;
}

uint32_t clock_ms(void) { return ticks; }
