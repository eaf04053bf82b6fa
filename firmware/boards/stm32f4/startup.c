/* Reset handler and vector table of the STM32F405 (16 core exceptions + 82 interrupts, RM0090 table 61):
 * copy .data, zero .bss (not .noinit), enable the FPU, call main. A hard fault, and every interrupt this firmware
 * does not enable, goes to a handler that first drives every output to its safe state (hal_safe_outputs, as Klipper
 * does on a shutdown) and then waits for the watchdog's reset (chip_halt): a motor never runs on through the
 * 250 ms the independent watchdog takes. */
#include <stdint.h>

#include "chip.h"
#include "hal.h"
#include "stm32f4.h"

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _estack;
extern int main(void);

void reset_handler(void);
void default_handler(void);
void systick_handler(void) __attribute__((weak, alias("default_handler")));
void tim2_handler(void) __attribute__((weak, alias("default_handler")));
void usart1_handler(void) __attribute__((weak, alias("default_handler")));
void usart2_handler(void) __attribute__((weak, alias("default_handler")));

void default_handler(void)
{
    irq_disable();
    hal_safe_outputs();
    chip_halt();
}

void reset_handler(void)
{
    uint32_t *src = &_sidata;
    for (uint32_t *dst = &_sdata; dst < &_edata;) {
        *dst++ = *src++;
    }
    for (uint32_t *dst = &_sbss; dst < &_ebss;) {
        *dst++ = 0;
    }
    SCB_CPACR |= 0xFu << 20; /* CP10 and CP11: the FPU, full access */
    __asm__ volatile("dsb\n isb" ::: "memory");
    main();
    for (;;) {
    }
}

#define VECTORS (16u + 82u)
typedef void (*handler_t)(void);

/* The IRQ rows below hold 8 entries each; TIM2 is IRQ 28, USART1 IRQ 37, USART2 IRQ 38. */
#define D default_handler
__attribute__((section(".isr_vector"), used)) static const handler_t vectors[VECTORS] = {
    (handler_t)(uintptr_t)&_estack, reset_handler, D, D, D, D, D, 0, 0, 0, 0, D, D, 0, D, systick_handler,
    /* IRQ 0-7 */ D, D, D, D, D, D, D, D,
    /* IRQ 8-15 */ D, D, D, D, D, D, D, D,
    /* IRQ 16-23 */ D, D, D, D, D, D, D, D,
    /* IRQ 24-31 */ D, D, D, D, tim2_handler, D, D, D,
    /* IRQ 32-39 */ D, D, D, D, D, usart1_handler, usart2_handler, D,
    /* IRQ 40-47 */ D, D, D, D, D, D, D, D,
    /* IRQ 48-55 */ D, D, D, D, D, D, D, D,
    /* IRQ 56-63 */ D, D, D, D, D, D, D, D,
    /* IRQ 64-71 */ D, D, D, D, D, D, D, D,
    /* IRQ 72-79 */ D, D, D, D, D, D, D, D,
    /* IRQ 80-81 */ D, D,
};
