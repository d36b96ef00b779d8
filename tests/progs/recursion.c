/* Deep and branchy recursion: naive Fibonacci and a small Ackermann. */
#include <stdio.h>

static __attribute__((noinline)) unsigned fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static __attribute__((noinline)) unsigned ack(unsigned m, unsigned n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

int main(void)
{
    unsigned f = fib(21);
    unsigned a = ack(2, 40);
    unsigned b = ack(3, 4);
    printf("recursion: fib(21)=%u ack(2,40)=%u ack(3,4)=%u\n", f, a, b);
    return 0;
}
