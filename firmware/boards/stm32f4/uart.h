/* Interrupt-driven USART with bounded ring buffers, for USART1 (the host link) and USART2 (the qemu board's
 * fault-injection channel). RX is taken in the interrupt so a busy main loop never overruns the receiver. */
#ifndef STM32F4_UART_H
#define STM32F4_UART_H

#include <stddef.h>
#include <stdint.h>

#define UART_RX_SIZE 256u /* powers of two: the indices wrap by masking */
#define UART_TX_SIZE 512u

struct uart {
    uint32_t base;
    volatile uint8_t rx[UART_RX_SIZE];
    volatile uint16_t rx_head, rx_tail; /* head written by the interrupt, tail by the main loop */
    volatile uint8_t tx[UART_TX_SIZE];
    volatile uint16_t tx_head, tx_tail; /* head written by the main loop, tail by the interrupt */
    volatile uint32_t rx_overruns;       /* bytes lost: the ring was full or the receiver overran */
};

extern struct uart uart1, uart2;

/* Clocks, pins (PA9/PA10 for USART1, PA2/PA3 for USART2, AF7), 8N1 at ``baud`` from an APB clock of ``pclk``. */
void uart_init(struct uart *uart, uint32_t pclk, uint32_t baud);
/* Bytes received so far, up to ``size``; never blocks. */
size_t uart_read(struct uart *uart, uint8_t *out, size_t size);
/* Queue ``size`` bytes; returns how many fitted (a UART with nobody listening drops what it cannot send). */
size_t uart_write(struct uart *uart, const uint8_t *data, size_t size);

#endif
