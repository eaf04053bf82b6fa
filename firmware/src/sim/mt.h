/* MT19937 drawn exactly as CPython's random.Random(seed) draws it, so the simulated mechanism's dice and timing
 * jitter are those of hw_tests/mechanism.py for the same seed (the twin test compares them byte for byte). */
#ifndef MJ_MT_H
#define MJ_MT_H

#include <stdint.h>

#define MT_N 624

struct mt {
    uint32_t state[MT_N];
    uint16_t index;
};

/* random.Random(seed): CPython's init_by_array over the 32-bit words of abs(seed), least significant first (a str
 * seed is first made an int from its bytes and their SHA-512; hw_tests/firmware.py does that). words >= 1. */
void mt_seed(struct mt *mt, const uint32_t *key, uint16_t words);
uint32_t mt_next(struct mt *mt);
/* random.random() as its 53-bit numerator: the float is this / 2**53. */
uint64_t mt_random53(struct mt *mt);
/* random.randint(low, high) for high - low < 2**31 (CPython's _randbelow: getrandbits(k) until below the width). */
uint32_t mt_randint(struct mt *mt, uint32_t low, uint32_t high);
/* base × random.uniform(lo/1000, (lo+span)/1000), in integers: the same draw, the product to within a unit. */
uint64_t mt_scaled(struct mt *mt, uint64_t base, uint32_t lo_permille, uint32_t span_permille);

#endif
