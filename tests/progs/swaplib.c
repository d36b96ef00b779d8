/* Built twice, as libswap1.so and (with -DSWAP_OTHER) libswap2.so, and
 * without start files, so that loading or unloading either runs none of
 * its code.  dlswap loads them in turn at the same address.  Where the
 * first library has one long function, the second has two short ones,
 * the second called from the first: after the first library's function
 * was the last code translated, the second library's two functions are
 * the next.  Each must be named from the second library's own symbols,
 * never from anything remembered about the first library's function
 * (whose address range covers both). */
#include <stdint.h>

static uint32_t cells[512];

#ifdef SWAP_OTHER

__attribute__((noinline)) uint64_t swap_step(uint64_t acc, uint32_t i,
                                             uint64_t r)
{
    cells[i] += (uint32_t)(r + i);
    return acc + (cells[i] ^ (acc >> 5));
}

uint64_t swap_other(uint64_t rounds)
{
    uint64_t acc = 0;
    for (uint64_t r = 0; r < rounds; r++)
        for (uint32_t i = 0; i < 512; i += 8)
            acc = swap_step(acc, i, r);
    return acc;
}

uint64_t (*const swap_entry)(uint64_t) = swap_other;

#else

/* Longer than the second library's two functions together. */
uint64_t swap_first(uint64_t rounds)
{
    uint64_t acc = 0, odd = 0, mixed = 1;
    for (uint64_t r = 0; r < rounds; r++) {
        for (uint32_t i = 0; i < 512; i += 8) {
            cells[i] += (uint32_t)(r + i);
            acc += cells[i] ^ (acc >> 5);
            if (cells[i] & 1)
                odd += cells[i] >> 3;
            else
                mixed = mixed * 31 + (cells[i] ^ (uint32_t)r);
        }
        for (uint32_t i = 4; i < 512; i += 16)
            cells[i] ^= (uint32_t)(acc >> (i & 31)) + (uint32_t)odd;
        mixed ^= odd * 0x9E3779B97F4A7C15ull + (mixed >> 7);
    }
    return acc + odd + mixed;
}

uint64_t (*const swap_entry)(uint64_t) = swap_first;

#endif
