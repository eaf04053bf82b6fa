/* MT19937 (Matsumoto & Nishimura's reference, as in CPython's _randommodule.c). */
#include "sim/mt.h"

#define MT_M 397

static void init_genrand(struct mt *mt, uint32_t seed)
{
    mt->state[0] = seed;
    for (uint32_t i = 1; i < MT_N; i++)
        mt->state[i] = 1812433253u * (mt->state[i - 1] ^ (mt->state[i - 1] >> 30)) + i;
    mt->index = MT_N;
}

void mt_seed(struct mt *mt, const uint32_t *key, uint16_t words)
{
    uint32_t i = 1, j = 0;
    init_genrand(mt, 19650218u);
    for (uint32_t k = MT_N > words ? MT_N : words; k; k--) { /* init_by_array */
        mt->state[i] = (mt->state[i] ^ ((mt->state[i - 1] ^ (mt->state[i - 1] >> 30)) * 1664525u)) + key[j] + j;
        i++;
        j++;
        if (i >= MT_N) {
            mt->state[0] = mt->state[MT_N - 1];
            i = 1;
        }
        if (j >= words)
            j = 0;
    }
    for (uint32_t k = MT_N - 1; k; k--) {
        mt->state[i] = (mt->state[i] ^ ((mt->state[i - 1] ^ (mt->state[i - 1] >> 30)) * 1566083941u)) - i;
        i++;
        if (i >= MT_N) {
            mt->state[0] = mt->state[MT_N - 1];
            i = 1;
        }
    }
    mt->state[0] = 0x80000000u;
}

static uint32_t twist(uint32_t upper, uint32_t lower, uint32_t far)
{
    uint32_t y = (upper & 0x80000000u) | (lower & 0x7fffffffu);
    return far ^ (y >> 1) ^ ((y & 1) ? 0x9908b0dfu : 0);
}

uint32_t mt_next(struct mt *mt)
{
    if (mt->index >= MT_N) {
        uint32_t k;
        for (k = 0; k < MT_N - MT_M; k++)
            mt->state[k] = twist(mt->state[k], mt->state[k + 1], mt->state[k + MT_M]);
        for (; k < MT_N - 1; k++)
            mt->state[k] = twist(mt->state[k], mt->state[k + 1], mt->state[k + MT_M - MT_N]);
        mt->state[MT_N - 1] = twist(mt->state[MT_N - 1], mt->state[0], mt->state[MT_M - 1]);
        mt->index = 0;
    }
    uint32_t y = mt->state[mt->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

uint64_t mt_random53(struct mt *mt)
{
    uint64_t a = mt_next(mt) >> 5, b = mt_next(mt) >> 6;
    return a << 26 | b;
}

uint32_t mt_randint(struct mt *mt, uint32_t low, uint32_t high)
{
    uint32_t width = high - low + 1, bits = 0;
    while (bits < 32 && (width >> bits))
        bits++;
    uint32_t r;
    do
        r = mt_next(mt) >> (32 - bits);
    while (r >= width);
    return low + r;
}

uint64_t mt_scaled(struct mt *mt, uint64_t base, uint32_t lo_permille, uint32_t span_permille)
{
    uint64_t top32 = mt_random53(mt) >> 21;
    return base * lo_permille / 1000 + ((base * span_permille / 1000 * top32) >> 32);
}
