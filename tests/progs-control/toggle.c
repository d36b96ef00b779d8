/* --toggle-collect fixture: hot() calls work() (directly and through a
 * pointer), cold() calls other(); main() alternates them.  work() sweeps
 * 16 KiB, which stays in a 32 KiB D1 from one round to the next, but
 * other() sweeps 64 KiB and evicts it: the misses counted inside hot()
 * are those of a full run only if the caches are also simulated while
 * cold() and main() run uncounted.  Of the functions that run (the
 * loader's included), only hot() matches 'ho*' and only cold() 'c?ld'. */
#include <stdio.h>
#include "ctl.h"

#define NA 4096
#define NB 16384

static int data_a[NA];
static int data_b[NB];
volatile long sink;

NOINLINE long work(int *a, int n, int salt)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        int v = a[i];
        if ((v ^ salt) & 4)
            s += v * 3;
        else
            s -= v >> 1;
        a[i] = (int)(s & 0xffff);
    }
    return s;
}

NOINLINE long other(const int *b, int n)
{
    unsigned long s = 1;
    for (int i = 0; i + 1 < n; i += 2)
        s = s * 31 + b[i] + (b[i + 1] > 500 ? 7 : 0);
    return (long)(s >> 8);
}

static long (*volatile work_ptr)(int *, int, int) = work;

NOINLINE long hot(int rounds)
{
    long t = 0;
    for (int r = 0; r < rounds; r++) {
        t += work(data_a, NA / 2, r);
        t += work_ptr(data_a + NA / 2, NA / 2, r + 1);
    }
    return t;
}

NOINLINE long cold(int rounds)
{
    long t = 0;
    for (int r = 0; r < rounds; r++)
        t ^= other(data_b, NB);
    return t;
}

int main(void)
{
    for (int i = 0; i < NA; i++)
        data_a[i] = (i * 7919) % 1000;
    for (int i = 0; i < NB; i++)
        data_b[i] = (i * 104729) % 997;
    long t = cold(1);
    t += hot(2);
    t += cold(2);
    t += hot(1);
    sink = t;
    printf("toggle: %ld\n", t);
    return 0;
}
