/* RCC_CSR reset flags (RM0090 §7.3.21) to PROTOCOL.md reset reasons. */
#include "reset.h"

#include "stm32f4.h"

enum { REASON_POWER_ON = 1, REASON_WATCHDOG = 2, REASON_BROWN_OUT = 3, REASON_SOFTWARE = 4, REASON_RESET_PIN = 5 };

uint8_t reset_reason_take(void)
{
    const uint32_t csr = RCC_CSR;
    RCC_CSR = csr | RCC_CSR_RMVF;
    /* Order matters: every reset also pulls NRST (PINRSTF), and a power-on also sets BORRSTF. */
    if (csr & (RCC_CSR_IWDGRSTF | RCC_CSR_WWDGRSTF)) {
        return REASON_WATCHDOG;
    }
    if (csr & RCC_CSR_SFTRSTF) {
        return REASON_SOFTWARE;
    }
    if (csr & RCC_CSR_PORRSTF) {
        return REASON_POWER_ON;
    }
    if (csr & RCC_CSR_BORRSTF) {
        return REASON_BROWN_OUT;
    }
    if (csr & (RCC_CSR_PINRSTF | RCC_CSR_LPWRRSTF)) {
        return REASON_RESET_PIN;
    }
    return 0;
}
