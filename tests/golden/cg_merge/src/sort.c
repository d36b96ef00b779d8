/* sort.c -- a branchy workload for the cg_merge golden profiles. */
#include <stdio.h>
#include <stdlib.h>

static unsigned next_random(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return (*state >> 16) & 0x7fff;
}

static void insertion_sort(int *a, int n)
{
    for (int i = 1; i < n; i++) {
        int v = a[i], j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

static int (*pick(int i))(int)
{
    extern int twice(int), halve(int);
    return (i & 1) ? twice : halve;
}

int twice(int x) { return 2 * x; }
int halve(int x) { return x / 2; }

int main(int argc, char **argv)
{
    unsigned seed = argc > 1 ? (unsigned)atoi(argv[1]) : 1u;
    int a[300];
    long acc = 0;
    for (int i = 0; i < 300; i++)
        a[i] = (int)next_random(&seed);
    insertion_sort(a, 300);
    for (int i = 0; i < 300; i++)
        acc += pick(i)(a[i]);
    printf("%ld\n", acc);
    return 0;
}
