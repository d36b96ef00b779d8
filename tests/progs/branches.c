/* Conditional branches with outcomes driven by an LCG (unpredictable),
 * mixed with regular patterns the predictor can learn. An empty asm with
 * a memory clobber in each arm keeps -O2 from turning them into cmov. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include "common.h"

#define BARRIER() __asm__ __volatile__("" ::: "memory")

static uint32_t counts[8];

static void random_branches(lcg_t *g, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t r = lcg_next(g);
        if (r & 1) {
            counts[0]++;
            BARRIER();
        } else {
            counts[1] += 3;
            BARRIER();
        }
        if ((r >> 5) % 3 == 0) {
            counts[2]++;
            BARRIER();
        }
        if ((r >> 9) & 4) {
            counts[3] ^= r;
            BARRIER();
        } else if ((r >> 12) & 1) {
            counts[4]++;
            BARRIER();
        }
    }
}

static void patterned_branches(int n)
{
    for (int i = 0; i < n; i++) {
        if ((i & 7) == 7) {          /* taken 1 in 8 */
            counts[5]++;
            BARRIER();
        }
        if (i & 1) {                 /* alternating */
            counts[6] += 2;
            BARRIER();
        }
        if ((i % 5) < 2) {           /* period 5 */
            counts[7]++;
            BARRIER();
        }
    }
}

/* An optional argument repeats the loops (the benchmark sizes it). */
int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 1;
    lcg_t g;
    lcg_seed(&g, 77);
    for (int rep = 0; rep < reps; rep++) {
        random_branches(&g, 40000);
        patterned_branches(40000);
    }
    uint64_t acc = 0;
    for (int i = 0; i < 8; i++)
        acc = acc * 31 + counts[i];
    printf("branches: %llu\n", (unsigned long long)acc);
    return 0;
}
