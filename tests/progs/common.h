/* Small helpers shared by the Cachegrind differential-test fixtures.
 * Everything here is deterministic: no time, no addresses, no rand(). */
#ifndef CG_FIXTURE_COMMON_H
#define CG_FIXTURE_COMMON_H

#include <stdint.h>

/* A 64-bit linear congruential generator (Knuth's MMIX constants). */
typedef struct { uint64_t s; } lcg_t;

static inline void lcg_seed(lcg_t *g, uint64_t seed) { g->s = seed; }

static inline uint32_t lcg_next(lcg_t *g)
{
    g->s = g->s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(g->s >> 33);
}

/* Uniform-ish value in [0, n). n must be > 0. */
static inline uint32_t lcg_below(lcg_t *g, uint32_t n)
{
    return lcg_next(g) % n;
}

/* Fold a value into a running checksum. */
static inline uint64_t mix64(uint64_t acc, uint64_t v)
{
    acc ^= v + 0x9e3779b97f4a7c15ULL + (acc << 6) + (acc >> 2);
    return acc;
}

#endif
