/* Built as libhot.so and loaded with dlopen by dlopen_main. */
#include <stdint.h>

static uint32_t state[1024];

uint64_t hot_loop(uint32_t rounds)
{
    uint64_t acc = 0;
    for (uint32_t r = 0; r < rounds; r++)
        for (uint32_t i = 0; i < 1024; i += 4) {
            state[i] += r + i;
            acc += state[i] ^ (acc >> 3);
        }
    return acc;
}

const char *hot_name(void)
{
    return "libhot";
}
