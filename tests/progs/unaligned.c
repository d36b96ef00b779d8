/* Unaligned 2/4/8/16-byte loads and stores, many of which straddle a
 * 64-byte cache line, done through memcpy at odd offsets and through
 * packed structures. */
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include "common.h"

#define BUFSZ 8192

static _Alignas(64) unsigned char src[BUFSZ];
static _Alignas(64) unsigned char dst[BUFSZ];

struct __attribute__((packed)) rec {
    uint8_t  tag;
    uint64_t wide;    /* offset 1 */
    uint32_t mid;     /* offset 9 */
    uint16_t narrow;  /* offset 13 */
    uint8_t  tail;    /* offset 15: sizeof == 16 */
};

struct __attribute__((packed)) odd_rec {
    uint8_t  a[3];
    uint64_t b;       /* offset 3 */
    uint8_t  c[2];    /* sizeof == 13: records drift across lines */
};

static struct rec recs[300];
static struct odd_rec odds[500];

typedef struct { uint64_t lo, hi; } u128;

static uint64_t straddle_memcpy(void)
{
    uint64_t acc = 0;
    /* For every line boundary, touch offsets just below it so the
     * access crosses into the next line. */
    for (size_t line = 64; line + 64 < BUFSZ; line += 64) {
        for (size_t back = 1; back <= 15; back += 2) {
            size_t off = line - back;
            uint16_t v2;
            uint32_t v4;
            uint64_t v8;
            u128 v16;
            memcpy(&v2, src + off, sizeof v2);
            memcpy(&v4, src + off, sizeof v4);
            memcpy(&v8, src + off, sizeof v8);
            memcpy(&v16, src + off, sizeof v16);
            acc = mix64(acc, v2 ^ v4 ^ v8 ^ v16.lo ^ v16.hi);
            v8 += back;
            memcpy(dst + off, &v8, sizeof v8);
            v4 ^= (uint32_t)line;
            memcpy(dst + off + 1, &v4, sizeof v4);
            v2 += 1;
            memcpy(dst + off + 3, &v2, sizeof v2);
            v16.lo ^= acc;
            memcpy(dst + off + 5, &v16, sizeof v16);
        }
    }
    return acc;
}

static uint64_t packed_structs(void)
{
    uint64_t acc = 0;
    for (int i = 0; i < 300; i++) {
        recs[i].tag = (uint8_t)i;
        recs[i].wide = (uint64_t)i * 0x0101010101ULL;
        recs[i].mid = (uint32_t)(i * 7);
        recs[i].narrow = (uint16_t)(i * 3);
        recs[i].tail = (uint8_t)(i ^ 0x5a);
    }
    for (int i = 0; i < 500; i++) {
        odds[i].a[0] = (uint8_t)i;
        odds[i].b = (uint64_t)i << 20 | 0xabc;
        odds[i].c[1] = (uint8_t)(i >> 1);
    }
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < 300; i++)
            acc = mix64(acc, recs[i].wide + recs[i].mid + recs[i].narrow + recs[i].tail);
        for (int i = 0; i < 500; i++) {
            odds[i].b += round;
            acc = mix64(acc, odds[i].b);
        }
    }
    return acc;
}

int main(void)
{
    for (size_t i = 0; i < BUFSZ; i++)
        src[i] = (unsigned char)(i * 131 + 7);
    uint64_t a = straddle_memcpy();
    uint64_t b = packed_structs();
    uint64_t c = 0;
    for (size_t i = 0; i < BUFSZ; i += 8)
        c += dst[i];
    printf("unaligned: %llu %llu %llu\n", (unsigned long long)a,
           (unsigned long long)b, (unsigned long long)c);
    return 0;
}
