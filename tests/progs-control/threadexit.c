/* --toggle-collect and a thread that ends inside the toggled function:
 * quitter() ends its thread with a raw exit system call, so no return,
 * longjmp or unwinding ever leaves it.  Then a second thread runs later()
 * on a stack of its own in .bss, below the first thread's.  Valgrind
 * gives it the first thread's id again; it must not inherit the dead
 * thread's activation of quitter(): nothing of it is counted.  Linux
 * only. */
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "ctl.h"

static char stack2[1 << 20] __attribute__((aligned(4096)));
static long result1, result2;

NOINLINE long churn(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += (i * 5) ^ n;
    return s;
}

NOINLINE void quitter(void)
{
    result1 = churn(200);
    syscall(SYS_exit, 0);
}

NOINLINE long later(int n)
{
    long s = 1;
    for (int i = 0; i < n; i++)
        s += (i & 3) ? i : -i;
    return s;
}

static void *start1(void *arg)
{
    (void)arg;
    quitter();
    return NULL;
}

static void *start2(void *arg)
{
    (void)arg;
    result2 = later(3000);
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_attr_t attr;

    if (pthread_create(&t, NULL, start1, NULL) != 0 || pthread_join(t, NULL) != 0)
        return 1;
    if (pthread_attr_init(&attr) != 0
        || pthread_attr_setstack(&attr, stack2, sizeof stack2) != 0
        || pthread_create(&t, &attr, start2, NULL) != 0 || pthread_join(t, NULL) != 0)
        return 1;
    printf("threadexit: %ld %ld\n", result1, result2);
    return 0;
}
