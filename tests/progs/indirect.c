/* Indirect control flow: a dense switch (compiled to a jump table) and
 * calls through a table of function pointers, with targets chosen both
 * pseudo-randomly and in a repeating pattern. */
#include <stdio.h>
#include <stdint.h>
#include "common.h"

typedef uint64_t (*op_fn)(uint64_t);

static __attribute__((noinline)) uint64_t op_add(uint64_t x) { return x + 11; }
static __attribute__((noinline)) uint64_t op_mul(uint64_t x) { return x * 3; }
static __attribute__((noinline)) uint64_t op_xor(uint64_t x) { return x ^ 0x5555; }
static __attribute__((noinline)) uint64_t op_rot(uint64_t x) { return (x << 7) | (x >> 57); }
static __attribute__((noinline)) uint64_t op_neg(uint64_t x) { return ~x; }
static __attribute__((noinline)) uint64_t op_half(uint64_t x) { return x >> 1; }

static op_fn const table[6] = { op_add, op_mul, op_xor, op_rot, op_neg, op_half };

static __attribute__((noinline)) uint64_t dispatch(unsigned sel, uint64_t x)
{
    switch (sel) {
    case 0: x += 1; break;
    case 1: x *= 5; break;
    case 2: x ^= x >> 3; break;
    case 3: x -= 17; break;
    case 4: x = (x << 1) | 1; break;
    case 5: x += x >> 4; break;
    case 6: x ^= 0xdeadbeef; break;
    case 7: x = x * 9 + 2; break;
    case 8: x >>= 2; break;
    case 9: x += 1000003; break;
    case 10: x ^= x << 13; break;
    case 11: x = ~x + 3; break;
    default: x = 0; break;
    }
    return x;
}

int main(void)
{
    lcg_t g;
    lcg_seed(&g, 4242);
    uint64_t x = 1;
    for (int i = 0; i < 20000; i++)
        x = dispatch(lcg_below(&g, 12), x);
    for (int i = 0; i < 20000; i++)
        x = dispatch((unsigned)(i % 4), x);           /* learnable */
    for (int i = 0; i < 20000; i++)
        x = table[lcg_below(&g, 6)](x);
    for (int i = 0; i < 20000; i++)
        x = table[(i / 3) % 6](x);                    /* runs of three */
    printf("indirect: %llu\n", (unsigned long long)x);
    return 0;
}
