/* The brown-out reset level in the option bytes of an STM32F405 (RM0090 §3.6, FLASH_OPTCR.BOR_LEV). The option bytes
 * keep it through power cycles; the chip loads it at power-on. Unset, BOR is off and the chip runs on down to 1.8 V,
 * where its flash reads and its outputs are no longer to be trusted, instead of resetting (reset reason BROWN_OUT). */
#ifndef STM32F4_OPTION_BYTES_H
#define STM32F4_OPTION_BYTES_H

#include <stdint.h>

/* The flash interface registers, in order from 0x40023C00 (passed in, so a host test can run this on plain RAM). */
struct flash_regs {
    volatile uint32_t acr, keyr, optkeyr, sr, cr, optcr;
};
#define FLASH_REGS ((struct flash_regs *)(uintptr_t)0x40023C00u)
#define FLASH_SR_BSY (1u << 16)
#define FLASH_OPTCR_OPTLOCK (1u << 0)
#define FLASH_OPTCR_OPTSTRT (1u << 1)
#define FLASH_OPTCR_BOR_MASK (3u << 2)
#define FLASH_OPTKEY1 0x08192A3Bu
#define FLASH_OPTKEY2 0x4C5D6E7Fu
/* BOR_LEV values: the reset threshold on a falling supply (datasheet DS8626 table 20) */
#define BOR_LEVEL_3 (0u << 2) /* 2.70-3.60 V supplies: about 2.65 V; what a 3.3 V board wants */
#define BOR_LEVEL_2 (1u << 2) /* about 2.35 V */
#define BOR_LEVEL_1 (2u << 2) /* about 2.05 V */
#define BOR_OFF (3u << 2)     /* the factory setting */

enum bor_result { BOR_ALREADY_SET, BOR_PROGRAMMED, BOR_FAILED };

/* BOR_LEV set to ``level`` (one of the BOR_ values): nothing written when it holds it already (every boot after the
 * first), else the option bytes unlocked, BOR_LEV changed, programmed (OPTSTRT) and locked again. Call it before the
 * independent watchdog starts: programming takes a few milliseconds with the core waiting. */
enum bor_result brownout_level(struct flash_regs *flash, uint32_t level);

#endif
