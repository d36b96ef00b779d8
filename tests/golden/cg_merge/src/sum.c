/* sum.c -- a small workload for the cg_merge golden profiles. */
#include <stdio.h>
#include <stdlib.h>

static long table[4096];

static long fill(int n)
{
    long acc = 0;
    for (int i = 0; i < n; i++) {
        table[i % 4096] = (long)i * 3 + 1;
        acc += table[i % 4096];
    }
    return acc;
}

static long stride_sum(int stride)
{
    long acc = 0;
    for (int i = 0; i < 4096; i += stride)
        acc += table[i];
    return acc;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    long total = fill(n) + stride_sum(8) + stride_sum(64);
    printf("%ld\n", total);
    return 0;
}
