/* Pin helpers: a pin is (port, number), port 0 = A ... 4 = E. */
#ifndef STM32F4_GPIO_H
#define STM32F4_GPIO_H

#include <stdbool.h>
#include <stdint.h>

#include "stm32f4.h"

struct pin {
    uint8_t port, number;
};

static inline void gpio_mode(struct pin pin, uint32_t mode)
{
    RCC_AHB1ENR |= RCC_AHB1ENR_GPIO(pin.port);
    const uint32_t shift = 2u * pin.number;
    GPIO_MODER(pin.port) = (GPIO_MODER(pin.port) & ~(3u << shift)) | (mode << shift);
}

/* Push-pull output, driven to ``on`` before it is switched to output (no glitch at start). */
static inline void gpio_output(struct pin pin, bool on)
{
    GPIO_BSRR(pin.port) = on ? 1u << pin.number : 1u << (pin.number + 16u);
    gpio_mode(pin, GPIO_MODE_OUTPUT);
}

/* Input with the internal pull-up: switches and open-collector sensors pull it to ground when active. */
static inline void gpio_input_pullup(struct pin pin)
{
    gpio_mode(pin, GPIO_MODE_INPUT);
    const uint32_t shift = 2u * pin.number;
    GPIO_PUPDR(pin.port) = (GPIO_PUPDR(pin.port) & ~(3u << shift)) | (GPIO_PULL_UP << shift);
}

/* Alternate function ``af`` (a timer channel, a UART). */
static inline void gpio_alternate(struct pin pin, uint32_t af)
{
    volatile uint32_t *afr = pin.number < 8u ? &GPIO_AFRL(pin.port) : &GPIO_AFRH(pin.port);
    const uint32_t shift = 4u * (pin.number % 8u);
    *afr = (*afr & ~(0xFu << shift)) | (af << shift);
    gpio_mode(pin, GPIO_MODE_AF);
}

static inline void gpio_write(struct pin pin, bool on)
{
    GPIO_BSRR(pin.port) = on ? 1u << pin.number : 1u << (pin.number + 16u);
}

/* The pin reads low: the active level of every input of the table (pulled up, switched to ground). */
static inline bool gpio_low(struct pin pin) { return !(GPIO_IDR(pin.port) & (1u << pin.number)); }

#endif
