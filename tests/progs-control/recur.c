/* --toggle-collect on a recursive function: rec() recurses (not in tail
 * position, so the recursion stays) and, after each inner activation has
 * returned, calls step().  The outer activations are still running then,
 * so step() must be counted at every level: collection ends only when the
 * outermost rec() returns.  outside() runs between two top-level calls
 * and is not counted. */
#include <stdio.h>
#include "ctl.h"

volatile long sink;

NOINLINE long leaf(int n)
{
    long s = 0;
    for (int i = 0; i < 40 + n; i++)
        s += (long)i * (n + 3);
    return s;
}

NOINLINE long step(int n, long acc)
{
    unsigned long s = (unsigned long)acc;
    for (int i = 0; i < 10 * n; i++)
        s = s * 5 + (unsigned long)(i ^ n);
    return (long)(s >> 4);
}

NOINLINE long rec(int n)
{
    if (n <= 0)
        return leaf(n);
    long a = rec(n - 1);
    long b = step(n, a);
    if (n % 4 == 0)
        b ^= rec(n / 4 - 1);
    return a ^ b;
}

NOINLINE long outside(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += i % 7;
    return s;
}

int main(void)
{
    long t = rec(24);
    t += outside(5000);
    t += rec(9);
    sink = t;
    printf("recur: %ld\n", t);
    return 0;
}
