/* What the shared chip layer asks of each Cortex-M board: the safe stop of a hard fault and a tick hook. */
#ifndef STM32F4_CHIP_H
#define STM32F4_CHIP_H

/* Called by the hard-fault handler (every unexpected exception, interrupts off) once hal_safe_outputs() has stopped
 * every motor: wait for the independent watchdog's reset. The stm32f405 board spins (its IWDG resets the chip in
 * about 250 ms); the qemu board, whose QEMU has no IWDG, counts the time on SysTick's flag and resets the chip. */
__attribute__((noreturn)) void chip_halt(void);

/* Called from the SysTick interrupt, every millisecond (the qemu board's emulated watchdog counts here). */
void chip_tick(void);

#endif
