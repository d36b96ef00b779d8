/* Built without -g and stripped: every cost lands on file ??? line 0,
 * with function names only where the dynamic symbol table has them. */
#include <stdio.h>
#include <stdint.h>

static uint32_t buf[20000];

static __attribute__((noinline)) uint64_t stage_one(void)
{
    for (int i = 0; i < 20000; i++)
        buf[i] = (uint32_t)(i * 2654435761u);
    return buf[19999];
}

static __attribute__((noinline)) uint64_t stage_two(uint64_t seed)
{
    uint64_t acc = seed;
    for (int i = 0; i < 20000; i += 7)
        acc = (acc << 5) - acc + buf[i];
    return acc;
}

int main(void)
{
    uint64_t a = stage_one();
    uint64_t b = stage_two(a);
    printf("nodebug: %llu\n", (unsigned long long)b);
    return 0;
}
