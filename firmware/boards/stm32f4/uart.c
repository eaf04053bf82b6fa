/* USART driver: RXNE and TXE interrupts feed and drain the rings (RM0090 §30.6). */
#include "uart.h"

#include "gpio.h"
#include "stm32f4.h"

struct uart uart1, uart2; /* in .bss: uart_init names their base */

static uint32_t irq_of(const struct uart *uart) { return uart->base == USART1_BASE ? USART1_IRQ : USART2_IRQ; }

void uart_init(struct uart *uart, uint32_t pclk, uint32_t baud)
{
    const bool first = uart == &uart1;
    uart->base = first ? USART1_BASE : USART2_BASE;
    if (first) {
        RCC_APB2ENR |= RCC_APB2ENR_USART1;
    } else {
        RCC_APB1ENR |= RCC_APB1ENR_USART2;
    }
    const struct pin tx = {0, first ? 9u : 2u}, rx = {0, first ? 10u : 3u}; /* PA9/PA10, PA2/PA3 */
    gpio_input_pullup(rx); /* an unplugged RX idles high rather than reading noise */
    gpio_alternate(tx, 7);
    gpio_alternate(rx, 7);
    USART_BRR(uart->base) = (pclk + baud / 2u) / baud; /* oversampling by 16: mantissa.fraction in one word */
    USART_CR2(uart->base) = 0;
    USART_CR3(uart->base) = 0;
    USART_CR1(uart->base) = USART_CR1_UE | USART_CR1_TE | USART_CR1_RE | USART_CR1_RXNEIE;
    nvic_enable(irq_of(uart));
}

int uart_getc(struct uart *uart)
{
    const uint16_t tail = uart->rx_tail;
    if (tail == uart->rx_head) {
        return -1;
    }
    const uint8_t byte = uart->rx[tail];
    uart->rx_tail = (uint16_t)((tail + 1u) & (UART_RX_SIZE - 1u));
    USART_CR1(uart->base) |= USART_CR1_RXNEIE; /* room again: see the full ring in uart_irq */
    return byte;
}

bool uart_write(struct uart *uart, const uint8_t *data, uint16_t len)
{
    uint16_t head = uart->tx_head;
    const uint16_t used = (uint16_t)((head - uart->tx_tail) & (UART_TX_SIZE - 1u));
    if (len > UART_TX_SIZE - 1u - used) {
        return false;
    }
    for (uint16_t i = 0; i < len; i++) {
        uart->tx[head] = data[i];
        head = (uint16_t)((head + 1u) & (UART_TX_SIZE - 1u));
    }
    uart->tx_head = head;
    /* The TXE interrupt drains the ring, then masks itself. QEMU raises no TXE interrupt (its transmitter is always
     * empty), so the interrupt is also made pending here: it sends whatever TXE allows at once. */
    USART_CR1(uart->base) |= USART_CR1_TXEIE;
    nvic_pend(irq_of(uart));
    return true;
}

static void uart_irq(struct uart *uart)
{
    const uint32_t base = uart->base;
    if ((USART_CR1(base) & USART_CR1_RXNEIE) && (USART_SR(base) & (USART_SR_RXNE | USART_SR_ORE))) {
        const uint16_t next = (uint16_t)((uart->rx_head + 1u) & (UART_RX_SIZE - 1u));
        if (next == uart->rx_tail) {
            /* Ring full: leave the byte in DR and stop listening until uart_getc makes room. The chip overruns on
             * the next byte (lost, as on a noisy line); QEMU holds its input back, so nothing is lost there. */
            USART_CR1(base) &= ~USART_CR1_RXNEIE;
        } else {
            uart->rx[uart->rx_head] = (uint8_t)USART_DR(base); /* reading DR clears RXNE and ORE */
            uart->rx_head = next;
        }
    }
    while ((USART_CR1(base) & USART_CR1_TXEIE) && (USART_SR(base) & USART_SR_TXE)) {
        if (uart->tx_tail == uart->tx_head) {
            USART_CR1(base) &= ~USART_CR1_TXEIE;
            break;
        }
        USART_DR(base) = uart->tx[uart->tx_tail];
        uart->tx_tail = (uint16_t)((uart->tx_tail + 1u) & (UART_TX_SIZE - 1u));
    }
}

void usart1_handler(void) { uart_irq(&uart1); }
void usart2_handler(void) { uart_irq(&uart2); }
