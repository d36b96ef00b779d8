/* --toggle-collect on a function whose loop jumps back to its own first
 * instruction.  spin() is written in assembly so that the layout does
 * not depend on the compiler: the loop starts at the entry point, so the
 * entry is executed once per iteration without any new call.  That is
 * still a single activation; the tool must not need memory for every
 * pass.  x86-64 only. */
#include <stdio.h>
#include <stdlib.h>
#include "ctl.h"

void spin(volatile int *counter, long n);

__asm__(".text\n"
        ".globl spin\n"
        ".type spin, @function\n"
        "spin:\n"
        "    addl $1, (%rdi)\n"
        "    subq $1, %rsi\n"
        "    jne spin\n"
        "    ret\n"
        ".size spin, .-spin\n");

NOINLINE int run(long n)
{
    volatile int counter = 0;
    spin(&counter, n);
    return counter;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    printf("reentry: %d\n", run(n > 0 ? n : 1));
    return 0;
}
