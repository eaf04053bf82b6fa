/* The stm32f405 board: the core driving a real table (pins.h). The chip half of hal.h is here; the mechanism half
 * is in motion.c (motors), inputs.c (switches, sensors, stack counters) and dice.c. The system clock is the 16 MHz
 * HSI as the chip starts (no PLL wait, no crystal): plenty for one 115200-baud link and 10 kHz step pacing. */
#include "board.h"
#include "chip.h"
#include "clock.h"
#include "hal.h"
#include "option_bytes.h"
#include "pins.h"
#include "reset.h"
#include "stm32f4.h"
#include "uart.h"

static uint8_t reset_reason;

uint64_t hal_time_us(void) { return clock_us(); }
int hal_serial_getc(void) { return uart_getc(&uart1); }
void hal_serial_write(const uint8_t *data, uint8_t len) { (void)uart_write(&uart1, data, len); }
void hal_lamp(uint8_t lamp, bool on)
{
    if (lamp < sizeof LAMP_PINS / sizeof LAMP_PINS[0]) {
        gpio_write(LAMP_PINS[lamp], on);
    }
}
void hal_watchdog_kick(void) { IWDG_KR = IWDG_KEY_FEED; }
uint8_t hal_reset_reason(void) { return reset_reason; }

/* Twelve hex digits of the chip's 96-bit unique ID (FNV-1a folded to 48 bits): the same board, the same name. */
const char *hal_board_id(void)
{
    static char id[13];
    if (!id[0]) {
        uint64_t hash = 0xCBF29CE484222325u;
        for (unsigned i = 0; i < 12u; i++) {
            hash = (hash ^ *(const volatile uint8_t *)(uintptr_t)(UID_BASE + i)) * 0x100000001B3u;
        }
        for (unsigned i = 0; i < 12u; i++) {
            id[i] = "0123456789ABCDEF"[(hash >> (44u - 4u * i)) & 0xFu];
        }
    }
    return id;
}
uint8_t hal_reboot_requested(void) { return 0; } /* a real chip resets itself (the watchdog) */
void chip_tick(void) {}
void chip_halt(void)
{
    for (;;) { /* the independent watchdog resets the chip */
    }
}
void hal_phase_entered(uint8_t phase, uint64_t now_us)
{
    (void)phase;
    (void)now_us;
}

/* The independent watchdog on the LSI (about 32 kHz, /32 = 1 ms per count). Once started it cannot be stopped. */
static void watchdog_start(void)
{
    DBGMCU_APB1_FZ |= DBGMCU_APB1_FZ_IWDG_STOP; /* a debugger's halt does not reset the chip */
    IWDG_KR = IWDG_KEY_UNLOCK;
    IWDG_PR = 3; /* /32 */
    IWDG_RLR = WATCHDOG_MS;
    IWDG_KR = IWDG_KEY_FEED;
    IWDG_KR = IWDG_KEY_START;
}

int main(void)
{
    reset_reason = reset_reason_take();
    if (!reset_reason) {
        reset_reason = 1; /* no flag at all: take it as a power-on */
    }
    (void)brownout_level(FLASH_REGS, BOR_LEVEL); /* once per chip; later boots find it set */
    clock_init(CPU_HZ);
    for (unsigned i = 0; i < sizeof LAMP_PINS / sizeof LAMP_PINS[0]; i++) {
        gpio_output(LAMP_PINS[i], false);
    }
    inputs_init();
    motion_init();
    dice_init();
    uart_init(&uart1, CPU_HZ, BAUD);
    watchdog_start();
    irq_enable();
    core_init(reset_reason);
    for (;;) {
        const uint64_t wake = core_poll(clock_us());
        if (wake > clock_us()) {
            wait_for_interrupt(); /* the next SysTick (1 ms), a step tick or a received byte */
        }
    }
}
