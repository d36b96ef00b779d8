/* heap.c -- data-profile fixture (tests/data.t): three heap allocation
 * sites, one of them in a helper called from two places, a global array
 * and a stack array.  Every access to them is a volatile access in one
 * of the loops below, on a line of its own tagged with a MARK comment
 * that data.t looks up, so the counts are known by construction:
 *
 *   site-a   malloc(4096) in main: 512 longs, each written once and
 *            read twice                        Dr 1024  Dw 512
 *   helper   helper_alloc(96) from helper-call-1: 12 longs, each
 *            written 3 times, read once        Dr 12    Dw 36
 *   helper   helper_alloc(200) from helper-call-2: 25 longs, each
 *            written once, read 5 times        Dr 125   Dw 25
 *   garray   global, 1000 ints, written once, read 3 times
 *                                              Dr 3000  Dw 1000
 *   sarr     stack array of main (thread 1): 64 ints written 4 times
 *                                              Dw 256 on its line
 * The blocks are never freed (free's own accesses would be `other`
 * anyway).  */
#include <stdio.h>
#include <stdlib.h>

#define A_LONGS 512
#define B_LONGS 12
#define C_LONGS 25
#define G_INTS  1000
#define S_INTS  64

volatile int garray[G_INTS];

/* Not a tail call (the check after the call), not inlined, not cloned:
 * the helper's frame is the first of both blocks' sites. */
__attribute__((noinline, noclone)) static void *helper_alloc(size_t n)
{
    void *p = malloc(n); /* MARK: helper-malloc */
    if (p == NULL)
        abort();
    return p;
}

int main(void)
{
    volatile long *a = malloc(A_LONGS * sizeof(long)); /* MARK: site-a */
    volatile long *b = helper_alloc(B_LONGS * sizeof(long)); /* MARK: helper-call-1 */
    volatile long *c = helper_alloc(C_LONGS * sizeof(long)); /* MARK: helper-call-2 */
    volatile int sarr[S_INTS];
    long sum = 0;
    int i, r;

    if (a == NULL)
        return 1;
    for (i = 0; i < A_LONGS; i++)
        a[i] = i; /* MARK: a-write */
    for (r = 0; r < 2; r++)
        for (i = 0; i < A_LONGS; i++)
            sum += a[i]; /* MARK: a-read */

    for (r = 0; r < 3; r++)
        for (i = 0; i < B_LONGS; i++)
            b[i] = i + r; /* MARK: b-write */
    for (i = 0; i < B_LONGS; i++)
        sum += b[i]; /* MARK: b-read */

    for (i = 0; i < C_LONGS; i++)
        c[i] = 2 * i; /* MARK: c-write */
    for (r = 0; r < 5; r++)
        for (i = 0; i < C_LONGS; i++)
            sum += c[i]; /* MARK: c-read */

    for (i = 0; i < G_INTS; i++)
        garray[i] = i; /* MARK: g-write */
    for (r = 0; r < 3; r++)
        for (i = 0; i < G_INTS; i++)
            sum += garray[i]; /* MARK: g-read */

    for (r = 0; r < 4; r++)
        for (i = 0; i < S_INTS; i++)
            sarr[i] = i + r; /* MARK: s-write */

    printf("heap %ld\n", sum);
    return 0;
}
