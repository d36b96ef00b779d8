/* work.c -- a small program profiled to make the cg_diff golden inputs.
 * Two variants are built from it, differing in ROUNDS (the number of
 * passes over the data), so their Cachegrind profiles differ in a few
 * functions and agree in the rest. */
#include <stdio.h>
#include <stdlib.h>

#ifndef ROUNDS
#define ROUNDS 3
#endif

#define N 4096

static int data[N];
static char big[ROUNDS * 32768];

static void fill(unsigned seed)
{
    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        data[i] = (int)(seed >> 16) % 1000;
    }
}

static long sum_all(void)
{
    long s = 0;
    for (int i = 0; i < N; i++)
        s += data[i];
    return s;
}

static int count_big(int limit)
{
    int n = 0;
    for (int i = 0; i < N; i++)
        if (data[i] > limit)
            n++;
    return n;
}

static long stride_walk(int stride)
{
    long s = 0;
    for (int k = 0; k < stride; k++)
        for (int i = k; i < N; i += stride)
            s += data[i] * 3;
    return s;
}

static long touch(void)
{
    long s = 0;
    for (unsigned i = 0; i < sizeof big; i += 64)
        big[i] = (char)i;
    for (unsigned i = 0; i < sizeof big; i += 64)
        s += big[i];
    return s;
}

static unsigned fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(void)
{
    long total = 0;
    fill(42);
    for (int r = 0; r < ROUNDS; r++) {
        total += sum_all();
        total += count_big(500 + r);
    }
    total += stride_walk(ROUNDS * 8);
    total += touch();
    total += fib(12 + ROUNDS);
    printf("%ld\n", total);
    return 0;
}
