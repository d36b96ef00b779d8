/* Ten-byte x87 loads and stores (long double), most of them D1 misses
 * at scattered offsets: accesses of a size with no sized helper, which
 * take the generic path of the simulator and of the group checkers. */
#include <stdio.h>
#include "common.h"

#define N 6000

static long double table[N];

int main(void)
{
    lcg_t g;
    long double sum = 0;
    uint64_t acc = 0;
    int round, i;

    lcg_seed(&g, 87);
    for (i = 0; i < N; i++)
        table[i] = (long double)lcg_below(&g, 1000) / 7;
    for (round = 0; round < 20; round++) {
        for (i = 0; i < N; i++) {
            uint32_t j = lcg_below(&g, N);
            sum += table[j] * 1.25L;
            table[(i * 37) % N] = sum / (round + 2);
        }
        acc = mix64(acc, (uint64_t)sum);
    }
    printf("x87 checksum %llu\n", (unsigned long long)acc);
    return 0;
}
