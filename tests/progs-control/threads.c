/* --toggle-collect with threads: two threads run worker(); only thread
 * A's start routine goes through solo(), the toggled function.  solo()
 * does half its work, then hands over to thread B through a pipe and
 * blocks until B has done all of its own work, then does the other half:
 * B runs entirely while A's activation of solo() is active, and none of
 * it may be counted.  With the argument "alone" B does the same
 * hand-over but skips worker(), which gives the reference counts of A's
 * work alone. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "ctl.h"

#define M 20000

static unsigned data_a[M];
static unsigned data_b[M];
static int a2b[2], b2a[2];
static int b_works = 1;
static long result_a, result_b;

NOINLINE long worker(unsigned *d, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        unsigned v = d[i] * 2654435761u;
        if (v & 0x100)
            s += v >> 7;
        else
            s ^= v;
        d[i] = v;
    }
    return s;
}

NOINLINE long solo(void)
{
    char c = 'a';
    long s = worker(data_a, M / 2);
    if (write(a2b[1], &c, 1) != 1 || read(b2a[0], &c, 1) != 1)
        return -1;
    s += worker(data_a + M / 2, M / 2);
    return s;
}

static void *start_a(void *arg)
{
    (void)arg;
    result_a = solo();
    return NULL;
}

static void *start_b(void *arg)
{
    char c = 'b';
    (void)arg;
    if (read(a2b[0], &c, 1) != 1)
        return NULL;
    if (b_works)
        result_b = worker(data_b, M);
    if (write(b2a[1], &c, 1) != 1)
        result_b = -1;
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t ta, tb;

    if (argc > 1 && strcmp(argv[1], "alone") == 0)
        b_works = 0;
    for (int i = 0; i < M; i++) {
        data_a[i] = (unsigned)i * 7u + 1u;
        data_b[i] = (unsigned)i * 11u + 3u;
    }
    if (pipe(a2b) != 0 || pipe(b2a) != 0)
        return 1;
    if (pthread_create(&tb, NULL, start_b, NULL) != 0
        || pthread_create(&ta, NULL, start_a, NULL) != 0)
        return 1;
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    printf("threads: %ld %ld\n", result_a, result_b);
    return 0;
}
