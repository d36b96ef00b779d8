/* branchy.c -- golden-test program for cg_annotate.

   Branch-heavy code for --branch-sim=yes: a switch on pseudo-random
   values (conditional branches that are hard to predict), a loop with
   a predictable exit, and calls through a table of function pointers
   (indirect branches). */

#include <stdio.h>

static unsigned state = 2463534242u;

static unsigned xorshift(void)
{
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
}

static int op_add(int x, int y) { return x + y; }
static int op_sub(int x, int y) { return x - y; }
static int op_xor(int x, int y) { return x ^ y; }
static int op_mix(int x, int y) { return (x << 1) ^ (y >> 1); }

static int (*const ops[4])(int, int) = { op_add, op_sub, op_xor, op_mix };

static int classify(unsigned r)
{
    switch (r % 7) {
    case 0:
        return 3;
    case 1:
    case 2:
        return (int)(r & 15);
    case 3:
        return r & 1 ? -1 : 1;
    default:
        if (r & 256)
            return 2;
        return 0;
    }
}

int main(void)
{
    int acc = 0, odd = 0;
    for (int i = 0; i < 60000; i++) {
        unsigned r = xorshift();
        acc += classify(r);
        acc = ops[r & 3](acc, (int)(r >> 8));
        if (r & 1)
            odd++;
    }
    printf("acc=%d odd=%d\n", acc, odd);
    return 0;
}
