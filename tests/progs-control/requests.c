/* CACHEGRIND_STOP/START_INSTRUMENTATION: pre() runs first, then
 * instrumentation is stopped around skipped(), started for measured()
 * and stopped again for post().  With --instr-at-start=no the first STOP
 * does nothing and only the START..STOP region is counted.  Outside
 * Valgrind the requests do nothing. */
#include <stdio.h>
#include "cachegrind.h"
#include "ctl.h"

#define N 8192

static int buf[N];
volatile long sink;

NOINLINE long pre(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        buf[i % N] += i;
    for (int i = 0; i < n; i++)
        s += buf[(i * 5) % N];
    return s;
}

NOINLINE long skipped(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        buf[(i * 3) % N] ^= i;
        s += i & 7;
    }
    return s;
}

NOINLINE long measured(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        int v = buf[(i * 7) % N];
        if (v & 1)
            s += v;
        buf[i % N] = v + 1;
    }
    return s;
}

NOINLINE long post(int n)
{
    unsigned long s = 1;
    for (int i = 0; i < n; i++)
        s = s * 3 + (unsigned long)buf[i % N];
    return (long)(s >> 4);
}

int main(void)
{
    long t = pre(3000);
    CACHEGRIND_STOP_INSTRUMENTATION;
    t += skipped(5000);
    CACHEGRIND_START_INSTRUMENTATION;
    t += measured(6000);
    CACHEGRIND_STOP_INSTRUMENTATION;
    t += post(2000);
    sink = t;
    printf("requests: %ld\n", t);
    return 0;
}
