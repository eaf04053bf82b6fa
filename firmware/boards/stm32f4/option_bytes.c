/* The brown-out level in the option bytes (see option_bytes.h), RM0090 §3.6.2 "Programming user option bytes". */
#include "option_bytes.h"

#define BUSY_SPINS 2000000u /* far more than the chip's option byte programming time at 16 MHz: a fault ends the wait */

static int wait_ready(struct flash_regs *flash)
{
    for (uint32_t spins = 0; spins < BUSY_SPINS; spins++)
        if (!(flash->sr & FLASH_SR_BSY))
            return 1;
    return 0;
}

enum bor_result brownout_level(struct flash_regs *flash, uint32_t level)
{
    if ((flash->optcr & FLASH_OPTCR_BOR_MASK) == level)
        return BOR_ALREADY_SET;
    if (!wait_ready(flash))
        return BOR_FAILED;
    flash->optkeyr = FLASH_OPTKEY1;
    flash->optkeyr = FLASH_OPTKEY2;
    if (flash->optcr & FLASH_OPTCR_OPTLOCK)
        return BOR_FAILED; /* the keys were refused (written once already since reset) */
    flash->optcr = (flash->optcr & ~FLASH_OPTCR_BOR_MASK) | level;
    flash->optcr |= FLASH_OPTCR_OPTSTRT;
    int done = wait_ready(flash);
    flash->optcr |= FLASH_OPTCR_OPTLOCK;
    return done && (flash->optcr & FLASH_OPTCR_BOR_MASK) == level ? BOR_PROGRAMMED : BOR_FAILED;
}
