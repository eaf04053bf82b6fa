/* Why the chip last reset, from its reset flags (RCC_CSR). */
#ifndef STM32F4_RESET_H
#define STM32F4_RESET_H

#include <stdint.h>

/* The PROTOCOL.md reset reason of the flags RCC_CSR holds (0 when it holds none, as under QEMU, which does not
 * model RCC), and the flags cleared so that the next reset reports its own cause only. */
uint8_t reset_reason_take(void);

#endif
