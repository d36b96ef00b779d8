/* Does some work, then dies by SIGSEGV from a NULL store. Cachegrind must
 * still write its output file and summary. */
#include <stdio.h>
#include <stdint.h>

static uint32_t data[10000];

int main(void)
{
    uint64_t acc = 0;
    for (int i = 0; i < 10000; i++)
        data[i] = (uint32_t)(i * 3 + 1);
    for (int i = 0; i < 10000; i += 2)
        acc += data[i];
    printf("segv: about to crash after %llu\n", (unsigned long long)acc);
    fflush(stdout);
    volatile int *volatile p = NULL;
    *p = 42;
    puts("segv: still alive?!");
    return 0;
}
