/* Interrupt-driven USART with bounded ring buffers, for USART1 (the host link) and USART2 (the qemu board's side
 * channel). RX is taken in the interrupt so a busy main loop never overruns the receiver. */
#ifndef STM32F4_UART_H
#define STM32F4_UART_H

#include <stdbool.h>
#include <stdint.h>

#define UART_RX_SIZE 256u /* powers of two: the indices wrap by masking */
#define UART_TX_SIZE 256u

struct uart {
    uint32_t base;
    volatile uint8_t rx[UART_RX_SIZE];
    volatile uint16_t rx_head, rx_tail; /* head written by the interrupt, tail by the main loop */
    volatile uint8_t tx[UART_TX_SIZE];
    volatile uint16_t tx_head, tx_tail; /* head written by the main loop, tail by the interrupt */
};

extern struct uart uart1, uart2;

/* Clocks, pins (PA9/PA10 for USART1, PA2/PA3 for USART2, AF7), 8N1 at ``baud`` from an APB clock of ``pclk``. */
void uart_init(struct uart *uart, uint32_t pclk, uint32_t baud);
/* The next received byte, or -1 when none is waiting; never blocks. */
int uart_getc(struct uart *uart);
/* Queue all ``len`` bytes, or none when they do not fit (a UART drops what it cannot send: a whole frame). */
bool uart_write(struct uart *uart, const uint8_t *data, uint16_t len);

#endif
