/* realloc.c -- data-profile fixture (tests/data.t): a block that realloc
 * moves, and a block freed and its address reused by another site.
 *
 * Part 1, realloc: malloc(1024) at old-malloc (128 longs, each written
 * once and read twice: Dr 256 Dw 128), a guard block right after it so
 * that realloc cannot grow it in place, then realloc to 64 KiB at
 * realloc-site: the block moves (the program says so), and the 8192
 * longs of the new block are each written once and read 3 times there:
 * Dr 24576 Dw 8192.  The copy realloc makes counts as `other`.
 *
 * Part 2, reuse: malloc(200) at reuse-a, its 25 longs written twice
 * (Dw 50), freed; malloc(200) at reuse-b returns the same address (the
 * program says so: glibc's tcache is last in, first out), its longs
 * written once and read 4 times (Dr 100 Dw 25).
 *
 * Part 3, one site, many blocks: REPEAT times malloc(48) at loop-site,
 * 6 longs written once each, freed: blocks REPEAT, Dw 6 * REPEAT. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define OLD_LONGS   128
#define NEW_LONGS   8192
#define REUSE_LONGS 25
#define LOOP_LONGS  6
#define REPEAT      40

int main(void)
{
    volatile long *p, *q, *a, *b;
    void *guard;
    uintptr_t old, freed;
    long sum = 0;
    int i, r;

    /* Part 1 */
    p = malloc(OLD_LONGS * sizeof(long)); /* MARK: old-malloc */
    guard = malloc(64); /* MARK: guard-malloc */
    if (p == NULL || guard == NULL)
        return 1;
    for (i = 0; i < OLD_LONGS; i++)
        p[i] = i; /* MARK: old-write */
    for (r = 0; r < 2; r++)
        for (i = 0; i < OLD_LONGS; i++)
            sum += p[i]; /* MARK: old-read */
    old = (uintptr_t)p;
    q = realloc((void *)p, NEW_LONGS * sizeof(long)); /* MARK: realloc-site */
    if (q == NULL)
        return 1;
    printf("realloc %s\n", (uintptr_t)q != old ? "moved" : "in place");
    for (i = 0; i < NEW_LONGS; i++)
        q[i] = i; /* MARK: new-write */
    for (r = 0; r < 3; r++)
        for (i = 0; i < NEW_LONGS; i++)
            sum += q[i]; /* MARK: new-read */

    /* Part 2 */
    a = malloc(REUSE_LONGS * sizeof(long)); /* MARK: reuse-a */
    if (a == NULL)
        return 1;
    for (r = 0; r < 2; r++)
        for (i = 0; i < REUSE_LONGS; i++)
            a[i] = i; /* MARK: a-write */
    freed = (uintptr_t)a;
    free((void *)a);
    b = malloc(REUSE_LONGS * sizeof(long)); /* MARK: reuse-b */
    if (b == NULL)
        return 1;
    printf("reuse %s\n", (uintptr_t)b == freed ? "same address" : "other address");
    for (i = 0; i < REUSE_LONGS; i++)
        b[i] = i; /* MARK: b-write */
    for (r = 0; r < 4; r++)
        for (i = 0; i < REUSE_LONGS; i++)
            sum += b[i]; /* MARK: b-read */

    /* Part 3 */
    for (r = 0; r < REPEAT; r++) {
        volatile long *c = malloc(LOOP_LONGS * sizeof(long)); /* MARK: loop-site */
        if (c == NULL)
            return 1;
        for (i = 0; i < LOOP_LONGS; i++)
            c[i] = r; /* MARK: c-write */
        free((void *)c);
    }

    free((void *)b);
    free((void *)q);
    free(guard);
    printf("sum %ld\n", sum);
    return 0;
}
