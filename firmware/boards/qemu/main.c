/* The qemu board: the chip half of hal.h on an emulated STM32F405, the mechanism simulated by src/sim.
 * QEMU 7.2 models neither RCC (it reads 0) nor the independent watchdog, so nothing here waits on their flags, and
 * the watchdog is emulated: SysTick counts the milliseconds since the last kick and, past WATCHDOG_MS (or once the
 * hard-fault handler has waited that long), the board resets the chip with SYSRESETREQ, which QEMU honours by
 * restarting the firmware with RAM kept. The cause is left in .noinit for the next boot to report (RCC_CSR reads 0
 * under QEMU), and the simulated table lives there too, so a reset does not move it. The emulated watchdog is longer
 * than the chip's 250 ms: QEMU's SysTick catches up in bursts after the host descheduled it. */
#include "chip.h"
#include "clock.h"
#include "hal.h"
#include "reset.h"
#include "stm32f4.h"
#include "uart.h"

#define CPU_HZ 168000000u /* QEMU's netduinoplus2 clocks SysTick from a fixed 168 MHz system clock */
#define PCLK_HZ 84000000u /* only for the baud divisor, which QEMU ignores */
#define BAUD 115200u
#define WATCHDOG_MS 1000u
#define CAUSE_WATCHDOG 0x57444F47u /* "WDOG" */

uint64_t hal_time_us(void) { return clock_us(); }
int hal_serial_getc(void) { return uart_getc(&uart1); }
void hal_serial_write(const uint8_t *data, uint8_t len) { (void)uart_write(&uart1, data, len); }
int hal_sim_getc(void) { return uart_getc(&uart2); }
void hal_sim_write(const uint8_t *data, uint8_t len) { (void)uart_write(&uart2, data, len); }

/* The lamps are the simulated mechanism's business (the side channel reports them); no pins to drive here. */
void hal_lamp(uint8_t lamp, bool on)
{
    (void)lamp;
    (void)on;
}

static volatile uint32_t since_kick; /* SysTick milliseconds */
static uint32_t reset_cause __attribute__((section(".noinit")));

void hal_watchdog_kick(void) { since_kick = 0; }

__attribute__((noreturn)) static void watchdog_reset(void)
{
    reset_cause = CAUSE_WATCHDOG;
    __asm__ volatile("dsb" ::: "memory");
    SCB_AIRCR = SCB_AIRCR_SYSRESETREQ;
    for (;;) {
    }
}

void chip_tick(void)
{
    if (++since_kick >= WATCHDOG_MS) {
        watchdog_reset();
    }
}

/* The hard-fault handler's wait, interrupts off: SysTick's COUNTFLAG still marks each millisecond. */
void chip_halt(void)
{
    for (uint32_t ms = 0; ms < WATCHDOG_MS;) {
        if (SYST_CSR & SYST_CSR_COUNTFLAG) {
            ms++;
        }
    }
    watchdog_reset();
}

/* QEMU does not map the chip's unique-ID words (reading them faults): a fixed name, like the simulator's. */
const char *hal_board_id(void) { return "QEMU-F405"; }

static uint8_t reset_reason;

/* A fresh QEMU machine is a power-on, the emulated watchdog's reset a watchdog one; reset flags are honoured in case a
 * later QEMU models them. */
uint8_t hal_reset_reason(void) { return reset_reason ? reset_reason : 1; }

int main(void)
{
    reset_reason = reset_reason_take();
    if (reset_cause == CAUSE_WATCHDOG) {
        reset_reason = 2;
    }
    reset_cause = 0;
    clock_init(CPU_HZ);
    uart_init(&uart1, PCLK_HZ, BAUD);
    uart_init(&uart2, PCLK_HZ, BAUD);
    irq_enable();
    core_init(hal_reset_reason());
    for (;;) {
        const uint64_t wake = core_poll(clock_us());
        if (wake > clock_us()) {
            wait_for_interrupt(); /* the next SysTick (1 ms) or a received byte */
        }
    }
}
