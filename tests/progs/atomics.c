/* Atomic read-modify-write operations: CAS loops (__atomic and __sync),
 * fetch-add, exchange, and a 16-byte cmpxchg16b done with inline asm
 * where the CPU has it (CPUID's cx16 flag; under Valgrind the virtual
 * CPU reports the host's).  CG_TEST_NO_CPU_FEATURES listing cx16 (see
 * tests/lib/CgTest.pm) makes it act as on a CPU without. */
#include <cpuid.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <strings.h>

static uint64_t counter;
static uint32_t small_counter;
static uint16_t tiny;
static uint64_t slots[64];
static _Alignas(16) uint64_t pair[2];

static void cas_increment(uint64_t *p, uint64_t by)
{
    uint64_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(p, &old, old + by, 0,
                                        __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
        ;
}

static void sync_cas_max(uint32_t *p, uint32_t v)
{
    uint32_t cur = *p;
    while (cur < v) {
        uint32_t seen = __sync_val_compare_and_swap(p, cur, v);
        if (seen == cur)
            break;
        cur = seen;
    }
}

/* 16-byte compare-and-swap; returns 1 on success. */
static int cas16(uint64_t *mem, uint64_t *exp_lo, uint64_t *exp_hi,
                 uint64_t new_lo, uint64_t new_hi)
{
    unsigned char ok;
    __asm__ __volatile__("lock cmpxchg16b %1\n\tsete %0"
                         : "=q"(ok), "+m"(*(volatile uint64_t (*)[2])mem),
                           "+a"(*exp_lo), "+d"(*exp_hi)
                         : "b"(new_lo), "c"(new_hi)
                         : "memory", "cc");
    return ok;
}

/* Whether the comma- or space-separated list names the flag. */
static int listed(const char *list, const char *flag)
{
    size_t n = 0;
    while (list && *list) {
        for (n = 0; list[n] && list[n] != ',' && list[n] != ' '; n++)
            ;
        if (n == 4 && strncasecmp(list, flag, 4) == 0)
            return 1;
        list += n;
        while (*list == ',' || *list == ' ')
            list++;
    }
    return 0;
}

static int have_cx16(void)
{
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_CMPXCHG16B))
        return 0;
    return !listed(getenv("CG_TEST_NO_CPU_FEATURES"), "cx16");
}

int main(void)
{
    for (int i = 0; i < 20000; i++) {
        cas_increment(&counter, (uint64_t)(i & 3) + 1);
        __atomic_fetch_add(&small_counter, 2, __ATOMIC_SEQ_CST);
        __atomic_fetch_add(&tiny, 1, __ATOMIC_RELAXED);
        uint64_t prev = __atomic_exchange_n(&slots[i & 63], (uint64_t)i, __ATOMIC_ACQ_REL);
        __sync_fetch_and_add(&slots[(i * 7) & 63], prev & 1);
        sync_cas_max(&small_counter, (uint32_t)i);
        __sync_fetch_and_or(&slots[(i >> 3) & 63], 1);
    }

    int cx16 = have_cx16();
    int successes = 0;
    for (int i = 0; cx16 && i < 5000; i++) {
        uint64_t lo = pair[0], hi = pair[1];
        if (cas16(pair, &lo, &hi, lo + 1, hi + 2))
            successes++;
        /* A deliberately failing attempt with a stale expectation. */
        uint64_t bad_lo = lo + 100, bad_hi = hi;
        if (cas16(pair, &bad_lo, &bad_hi, 0, 0))
            successes += 1000;
    }

    uint64_t sum = 0;
    for (int i = 0; i < 64; i++)
        sum += slots[i];
    printf("atomics: counter=%llu small=%u tiny=%u sum=%llu ",
           (unsigned long long)counter, small_counter, (unsigned)tiny,
           (unsigned long long)sum);
    if (cx16)
        printf("cas16=%d pair=%llu,%llu\n", successes, (unsigned long long)pair[0],
               (unsigned long long)pair[1]);
    else
        printf("cas16=skipped (no cmpxchg16b)\n");
    return 0;
}
