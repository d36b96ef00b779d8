/* Pointer chasing over a randomly permuted singly linked ring.
 * The permutation comes from a fixed-seed LCG, so runs are repeatable. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include "common.h"

#define NODES 32768

struct node {
    struct node *next;
    uint64_t     value;
    char         pad[48];   /* one node per 64-byte line */
};

/* An optional argument multiplies the laps (the benchmark sizes it). */
int main(int argc, char **argv)
{
    int laps = 2 * (argc > 1 ? atoi(argv[1]) : 1);
    struct node *pool = malloc(sizeof(struct node) * NODES);
    uint32_t *order = malloc(sizeof(uint32_t) * NODES);
    if (!pool || !order) {
        puts("pointer_chase: out of memory");
        return 1;
    }

    lcg_t g;
    lcg_seed(&g, 20240229u);
    for (uint32_t i = 0; i < NODES; i++)
        order[i] = i;
    /* Fisher-Yates shuffle. */
    for (uint32_t i = NODES - 1; i > 0; i--) {
        uint32_t j = lcg_below(&g, i + 1);
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (uint32_t i = 0; i < NODES; i++) {
        struct node *n = &pool[order[i]];
        n->next = &pool[order[(i + 1) % NODES]];
        n->value = order[i] * 3u + 1u;
    }

    uint64_t acc = 0;
    struct node *p = &pool[order[0]];
    for (int lap = 0; lap < laps; lap++)
        for (uint32_t i = 0; i < NODES; i++) {
            acc = mix64(acc, p->value);
            p = p->next;
        }

    printf("pointer_chase: checksum=%llu\n", (unsigned long long)acc);
    free(order);
    free(pool);
    return 0;
}
