/* SysTick at 1 kHz is the only time base, so the firmware runs the same under QEMU (which clocks the processor at
 * 168 MHz whatever RCC says) and on the chip (the board's own clock). */
#include "clock.h"

#include <stdbool.h>

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

/* Never backwards: a tick whose interrupt is pending but not yet taken (inside another interrupt, such as the stepper
 * timer's, or late under QEMU) has reloaded the counter without counting its millisecond; it is counted here. Without
 * that, time stepped back a millisecond and unsigned differences (the host-silence watchdog's) wrapped. */
uint64_t clock_us(void)
{
    uint64_t ticks;
    uint32_t count;
    for (;;) { /* a tick taken between the reads changes ms: read again */
        const uint64_t before = ms;
        count = SYST_CVR;
        const bool pending = (SCB_ICSR & SCB_ICSR_PENDSTSET) != 0;
        if (pending) {
            count = SYST_CVR; /* certainly after the reload */
        }
        if (ms == before) {
            ticks = before + (pending ? 1u : 0u);
            break;
        }
    }
    const uint32_t into_tick = (SYST_RVR - count) / cycles_per_us; /* the counter counts down */
    return ticks * 1000u + (into_tick < 1000u ? into_tick : 999u);
}
