/* The electronic dice: a throw is drawn from the chip's random number generator and shown on two seven-segment
 * digits (two 74HC595). While they roll (DICE_ROLL_MS) the digits spin through random faces.
 * A table with a mechanical dice dome has no way to tell the MCU what it shows; this board's dice are electronic so
 * that the throw the host deals from is the one the players see. */
#include "board.h"
#include "clock.h"
#include "hal.h"
#include "pins.h"
#include "stm32f4.h"

static const uint8_t FACES[7] = {0x00, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D}; /* segments a-g of blank, 1-6 */

static uint32_t mix = 0x9E3779B9u; /* xorshift state, stirred with every word the RNG has ready */
static uint64_t rolled_at;
static bool rolling, settled;
static uint8_t throw_[2];
static uint32_t frame;

void dice_init(void)
{
    /* The RNG runs from the PLL's 48 MHz output: the PLL from HSI (16 MHz / 16 x 192 / 4), not the system clock.
     * Nothing waits for it to lock: until the RNG has words, the xorshift runs on the clock's jitter alone. */
    RCC_PLLCFGR = RCC_PLLCFGR_SRC_HSI | RCC_PLLCFGR_M(16) | RCC_PLLCFGR_N(192) | RCC_PLLCFGR_P2 | RCC_PLLCFGR_Q(4);
    RCC_CR |= RCC_CR_PLLON;
    RCC_AHB2ENR |= RCC_AHB2ENR_RNG;
    RNG_CR = RNG_CR_RNGEN;
    gpio_output(DICE_DATA_PIN, false);
    gpio_output(DICE_CLOCK_PIN, false);
    gpio_output(DICE_LATCH_PIN, false);
}

static uint32_t random_word(void)
{
    if (RNG_SR & RNG_SR_SEIS) { /* a seed error: restart the generator (RM0090 §24.3.2) */
        RNG_CR = 0;
        RNG_CR = RNG_CR_RNGEN;
    } else if (RNG_SR & RNG_SR_DRDY) {
        mix ^= RNG_DR;
    }
    mix ^= (uint32_t)clock_us();
    mix ^= mix << 13;
    mix ^= mix >> 17;
    mix ^= mix << 5;
    return mix;
}

static uint8_t die(void)
{
    uint32_t word;
    do { /* 2^32 - 4 is a multiple of 6: no face is favoured */
        word = random_word();
    } while (word >= 0xFFFFFFFCu);
    return (uint8_t)(word % 6u + 1u);
}

static void show(uint8_t first, uint8_t second)
{
    const uint16_t bits = (uint16_t)(FACES[second] << 8 | FACES[first]);
    for (int bit = 15; bit >= 0; bit--) {
        gpio_write(DICE_DATA_PIN, bits >> bit & 1u);
        gpio_write(DICE_CLOCK_PIN, true);
        gpio_write(DICE_CLOCK_PIN, false);
    }
    gpio_write(DICE_LATCH_PIN, true);
    gpio_write(DICE_LATCH_PIN, false);
}

void dice_start(uint64_t now_us)
{
    rolled_at = now_us;
    rolling = true;
    settled = false;
    frame = 0;
}

bool hal_dice_settled(uint8_t dice[2])
{
    if (rolling) {
        const uint64_t elapsed_ms = (clock_us() - rolled_at) / 1000u;
        if (elapsed_ms < DICE_ROLL_MS) {
            if (elapsed_ms / DICE_FRAME_MS != frame) {
                frame = (uint32_t)(elapsed_ms / DICE_FRAME_MS);
                show(die(), die());
            }
            return false;
        }
        throw_[0] = die();
        throw_[1] = die();
        show(throw_[0], throw_[1]);
        rolling = false;
        settled = true;
    }
    dice[0] = throw_[0];
    dice[1] = throw_[1];
    return settled;
}
