/* sites.c -- data-profile fixture (tests/data.t): many allocation sites
 * at once.  make() holds N distinct calls of malloc(16) (one macro, so
 * all on the MARK line: their sites differ in their addresses only), and
 * main calls it twice from one place, so every site makes two blocks.
 * Each block is written once.  So there must be exactly N heap objects
 * whose first site frame is the sites line, each with
 *   blocks 2, bytes 32, Dr 0, Dw 2, field 0: Dw 2
 * With N objects (and the program's other objects) in the profile's
 * tables, sites share hash buckets: an object that is not found again
 * at its site's second allocation shows up as two objects of one block. */
#include <stdio.h>
#include <stdlib.h>

#define N 128

static volatile char *blocks[2][N];

#define S1(k)   blocks[r][k] = malloc(16); blocks[r][k][0] = 1;
#define S2(k)   S1(k) S1((k) + 1)
#define S4(k)   S2(k) S2((k) + 2)
#define S8(k)   S4(k) S4((k) + 4)
#define S16(k)  S8(k) S8((k) + 8)
#define S32(k)  S16(k) S16((k) + 16)
#define S64(k)  S32(k) S32((k) + 32)
#define S128(k) S64(k) S64((k) + 64)

__attribute__((noinline, noclone)) static void make(int r)
{
    S128(0) /* MARK: sites */
}

int main(void)
{
    volatile int rounds = 2;
    int r, k, null = 0;

    for (r = 0; r < rounds; r++)
        make(r); /* MARK: make-call */
    for (r = 0; r < 2; r++)
        for (k = 0; k < N; k++)
            null += blocks[r][k] == NULL;
    printf("sites %d %d\n", N, null);
    return 0;
}
