/* USART driver: RXNE and TXE interrupts feed and drain the rings (RM0090 §30.6). */
#include "uart.h"

#include "stm32f4.h"

struct uart uart1, uart2; /* in .bss: uart_init names their base */

static void pin_af7(uint32_t pin)
{
    const uint32_t port = 0; /* GPIOA */
    GPIO_MODER(port) = (GPIO_MODER(port) & ~(3u << (2 * pin))) | (GPIO_MODE_AF << (2 * pin));
    volatile uint32_t *afr = pin < 8 ? &GPIO_AFRL(port) : &GPIO_AFRH(port);
    const uint32_t shift = 4u * (pin % 8u);
    *afr = (*afr & ~(0xFu << shift)) | (7u << shift);
}

void uart_init(struct uart *uart, uint32_t pclk, uint32_t baud)
{
    uart->base = uart == &uart1 ? USART1_BASE : USART2_BASE;
    RCC_AHB1ENR |= RCC_AHB1ENR_GPIO(0);
    if (uart->base == USART1_BASE) {
        RCC_APB2ENR |= RCC_APB2ENR_USART1;
        pin_af7(9);
        pin_af7(10);
    } else {
        RCC_APB1ENR |= RCC_APB1ENR_USART2;
        pin_af7(2);
        pin_af7(3);
    }
    GPIO_PUPDR(0) |= GPIO_PULL_UP << (2 * (uart->base == USART1_BASE ? 10u : 3u)); /* an unplugged RX idles high */
    USART_BRR(uart->base) = (pclk + baud / 2u) / baud; /* oversampling by 16: mantissa.fraction in one word */
    USART_CR2(uart->base) = 0;
    USART_CR3(uart->base) = 0;
    USART_CR1(uart->base) = USART_CR1_UE | USART_CR1_TE | USART_CR1_RE | USART_CR1_RXNEIE;
    nvic_enable(uart->base == USART1_BASE ? USART1_IRQ : USART2_IRQ);
}

size_t uart_read(struct uart *uart, uint8_t *out, size_t size)
{
    size_t n = 0;
    uint16_t tail = uart->rx_tail;
    while (n < size && tail != uart->rx_head) {
        out[n++] = uart->rx[tail];
        tail = (uint16_t)((tail + 1u) & (UART_RX_SIZE - 1u));
    }
    uart->rx_tail = tail;
    return n;
}

size_t uart_write(struct uart *uart, const uint8_t *data, size_t size)
{
    size_t n = 0;
    uint16_t head = uart->tx_head;
    while (n < size) {
        const uint16_t next = (uint16_t)((head + 1u) & (UART_TX_SIZE - 1u));
        if (next == uart->tx_tail) {
            break;
        }
        uart->tx[head] = data[n++];
        head = next;
    }
    uart->tx_head = head;
    if (n) {
        /* The TXE interrupt drains the ring, then masks itself. QEMU raises no TXE interrupt (its transmitter is
         * always empty), so the interrupt is also made pending here: it sends whatever TXE allows at once. */
        USART_CR1(uart->base) |= USART_CR1_TXEIE;
        nvic_pend(uart->base == USART1_BASE ? USART1_IRQ : USART2_IRQ);
    }
    return n;
}

static void uart_irq(struct uart *uart)
{
    const uint32_t base = uart->base;
    uint32_t sr = USART_SR(base);
    if (sr & (USART_SR_RXNE | USART_SR_ORE)) {
        const uint8_t byte = (uint8_t)USART_DR(base); /* reading DR clears RXNE and ORE */
        const uint16_t next = (uint16_t)((uart->rx_head + 1u) & (UART_RX_SIZE - 1u));
        if (sr & USART_SR_ORE) {
            uart->rx_overruns++;
        }
        if (next == uart->rx_tail) {
            uart->rx_overruns++;
        } else {
            uart->rx[uart->rx_head] = byte;
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
