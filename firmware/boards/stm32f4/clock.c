/* SysTick at 1 kHz is the only time base, so the firmware runs the same under QEMU (which clocks the processor at
 * 168 MHz whatever RCC says) and on the chip (the board's own clock). */
#include "clock.h"

#include "chip.h"

#include "stm32f4.h"

static volatile uint64_t ms;
static uint32_t cycles_per_us;

void systick_handler(void)
{
    ms++;
    chip_tick();
}

void clock_init(uint32_t cpu_hz)
{
    cycles_per_us = cpu_hz / 1000000u;
    SYST_RVR = cpu_hz / 1000u - 1u;
    SYST_CVR = 0;
    SYST_CSR = SYST_CSR_CLKSOURCE | SYST_CSR_TICKINT | SYST_CSR_ENABLE;
}

uint64_t clock_us(void)
{
    uint64_t before, after;
    uint32_t count;
    do { /* a tick between the reads (its interrupt runs at once) changes ms: read again */
        before = ms;
        count = SYST_CVR;
        after = ms;
    } while (before != after);
    const uint32_t into_tick = (SYST_RVR - count) / cycles_per_us; /* the counter counts down */
    return before * 1000u + (into_tick < 1000u ? into_tick : 999u);
}
