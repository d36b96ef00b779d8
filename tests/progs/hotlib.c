/* Built as libhot.so and, with -DHOT_OTHER, as libhot2.so; dlopen_main
 * loads one, unloads it, then loads the other at the same place.  The
 * two differ only in the names of their helper and of the library, and
 * the names have the same lengths, so the second library's debug info
 * tends to reuse the first one's memory: names cached by string address
 * from the first must not be reported for the second. */
#include <stdint.h>

#ifdef HOT_OTHER
#  define HOT_MIX   mix_other
#  define HOT_LABEL "libhot2"
#else
#  define HOT_MIX   mix_first
#  define HOT_LABEL "libhot1"
#endif

static uint32_t state[1024];

__attribute__((noinline)) static uint64_t HOT_MIX(uint64_t acc, uint32_t v)
{
    return v ^ (acc >> 3);
}

uint64_t hot_loop(uint32_t rounds)
{
    uint64_t acc = 0;
    for (uint32_t r = 0; r < rounds; r++)
        for (uint32_t i = 0; i < 1024; i += 4) {
            state[i] += r + i;
            acc += HOT_MIX(acc, state[i]);
        }
    return acc;
}

const char *hot_name(void)
{
    return HOT_LABEL;
}
