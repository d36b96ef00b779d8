/* phases.c -- a program whose phases are known by construction, for
   tests/phases.t: a streaming phase (sequential reads, one D1 miss per
   64-byte line), a pointer-chasing phase (a linked list laid out in
   order, same miss rate, different code), a compute phase (no misses),
   and in the middle of the compute phase one planted spike (random
   reads over 64 MiB, nearly every one a miss). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define STREAM_WORDS (1u << 19)          /* 4 MiB of 8-byte words */
#define CHASE_NODES  (1u << 19)
#define SPIKE_WORDS  (1u << 23)          /* 64 MiB */
#define SPIKE_READS  20000u

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t stream(const uint64_t* a, unsigned n)
{
    uint64_t sum = 0;
    for (unsigned i = 0; i < n; i++)
        sum += a[i];
    return sum;
}

struct node { struct node* next; };

__attribute__((noinline)) static uint64_t chase(const struct node* p)
{
    uint64_t steps = 0;
    while (p != NULL) {
        p = p->next;
        steps++;
    }
    return steps;
}

__attribute__((noinline)) static uint64_t compute(unsigned rounds)
{
    uint64_t x = 88172645463325252ull;
    for (unsigned i = 0; i < rounds; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    return x;
}

__attribute__((noinline)) static uint64_t spike(const uint64_t* big)
{
    uint64_t sum = 0, r = 12345;
    for (unsigned i = 0; i < SPIKE_READS; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        sum += big[(r >> 33) & (SPIKE_WORDS - 1)];
    }
    return sum;
}

int main(void)
{
    uint64_t* words = calloc(STREAM_WORDS, sizeof *words);
    struct node* nodes = calloc(CHASE_NODES, sizeof *nodes);
    uint64_t* big = calloc(SPIKE_WORDS, sizeof *big);

    if (words == NULL || nodes == NULL || big == NULL)
        return 1;
    for (unsigned i = 0; i + 1 < CHASE_NODES; i++)
        nodes[i].next = &nodes[i + 1];

    sink = stream(words, STREAM_WORDS);
    sink = stream(words, STREAM_WORDS);
    sink = chase(nodes);
    sink = chase(nodes);
    sink = compute(250000);
    sink = spike(big);
    sink = compute(250001);   /* another argument: not merged with the first */
    printf("done\n");
    free(words);
    free(nodes);
    free(big);
    return 0;
}
