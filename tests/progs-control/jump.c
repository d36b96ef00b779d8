/* --toggle-collect and longjmp: jumper() calls inner(), which longjmps
 * back to main().  The activation of jumper() ends there: landed(),
 * which runs after setjmp() has returned the second time, is not
 * counted.  A second call of jumper() returns normally. */
#include <setjmp.h>
#include <stdio.h>
#include "ctl.h"

static jmp_buf env;
volatile long sink;

NOINLINE long inner(int n)
{
    long s = 0;
    for (int i = 0; i < 300; i++)
        s += (i * 13) ^ n;
    sink = s;
    if (n > 0)
        longjmp(env, n);
    return s;
}

NOINLINE long jumper(int n)
{
    long s = 0;
    for (int i = 0; i < 100; i++)
        s += i & n;
    return s + inner(n);
}

NOINLINE long landed(int n)
{
    long s = 0;
    for (int i = 0; i < 700; i++)
        s += (i * 3) % (n + 2);
    return s;
}

int main(void)
{
    volatile int got = setjmp(env);
    long t = 0;
    if (got == 0) {
        t = jumper(3);
        puts("jump: not reached");
    } else {
        t = landed(got);
    }
    t += jumper(0);
    sink = t;
    printf("jump: %ld (got %d)\n", t, got);
    return 0;
}
