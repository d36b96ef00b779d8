/* Uses the RUNNING_ON_VALGRIND client request. Cachegrind handles no
 * client requests itself; the core answers this one. The request's
 * special instruction preamble must be counted like any instruction. */
#include <stdio.h>
#include <stdint.h>
#include <valgrind/valgrind.h>

int main(void)
{
    unsigned hits = 0;
    uint64_t acc = 0;
    for (int i = 0; i < 1000; i++) {
        if (RUNNING_ON_VALGRIND)
            hits++;
        acc += (uint64_t)i * hits;
    }
    printf("client_request: on_valgrind=%s hits=%u acc=%llu\n",
           hits ? "yes" : "no", hits, (unsigned long long)acc);
    return 0;
}
