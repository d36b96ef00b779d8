/* A loop laid out by hand so that a small I1 notices a stale MRU mirror
 * after an instruction that straddles two lines.  Each iteration fetches
 * line L1, an instruction straddling L2 and L3, L1 again, then L5 (with
 * --I1=256,2,64, two sets of two ways: L1, L3 and L5 share a set).
 * After the straddle L3 is its set's most recently used line; a tool
 * that still believed L1 were would skip the second fetch of L1, and L5
 * would then evict the wrong line: the miss counts would differ from the
 * reference Cachegrind's.  Other architectures run a plain loop. */
#include <stdio.h>
#include "common.h"

#if defined(__x86_64__)
static long straddle_loop(long n)
{
    long value;

    __asm__ __volatile__(
        "    jmp 1f\n"
        "    .p2align 6\n"
        "    .fill 64, 1, 0x90\n"           /* L0, never executed */
        "1:  jmp 3f\n"                      /* L1 */
        "7:  jmp 5f\n"                      /* L1 again */
        "    .p2align 6\n"
        "    .fill 58, 1, 0x90\n"           /* L2, never executed */
        "3:  movabs $0x1122334455667788, %%rax\n" /* L2+58 .. L3+3 */
        "    jmp 7b\n"                      /* L3 */
        "    .p2align 6\n"
        "    .fill 64, 1, 0x90\n"           /* L4, never executed */
        "5:  dec %%rcx\n"                   /* L5 */
        "    jnz 1b\n"
        : "=a"(value), "+c"(n)
        :
        : "cc");
    return value + n;
}
#else
static long straddle_loop(long n)
{
    volatile long value = 0;

    while (n-- > 0)
        value += n;
    return value;
}
#endif

int main(void)
{
    printf("straddle_loop: %lx\n", (unsigned long)straddle_loop(1000));
    return 0;
}
