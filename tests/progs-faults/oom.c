/* Running out of memory:
 *   huge-malloc   malloc() of 2^60 bytes returns NULL (deterministic)
 *   mmap-fail     an anonymous mmap() of 2^60 bytes fails with ENOMEM
 *                 (deterministic)
 *   until-null    malloc() 1 MiB blocks, each touched, until NULL (run
 *                 under a ulimit -v), then free them all and exit 0
 *   until-null-hold  the same, but keep the blocks and go on to run code
 *                 that was never translated (stdio's floating-point
 *                 formatting, qsort): Valgrind's own allocations then
 *                 compete for what is left
 *   until-null-exit  the same as until-null, but exit at once, holding
 *                 every block: the tool writes its output with the
 *                 address space full
 *   until-null-walk  malloc() 1 MiB blocks without touching them until
 *                 NULL (few memory accesses so far), then, holding them,
 *                 read one byte of every 64 in each block (a new cache
 *                 line each time: many accesses after the address space
 *                 is full), free them and exit 0 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "faults.h"

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "huge-malloc";
    uint64_t acc = faults_work(2);
    printf("oom: %s, before %llu\n", mode, (unsigned long long)acc);
    fflush(stdout);

    if (strcmp(mode, "huge-malloc") == 0) {
        void *p = malloc((size_t)1 << 60);
        printf("oom: malloc(2^60) %s\n", p ? "succeeded" : "returned NULL");
        free(p);
    } else if (strcmp(mode, "mmap-fail") == 0) {
        void *p = mmap(NULL, (size_t)1 << 60, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        printf("oom: mmap(2^60): %s\n",
               p == MAP_FAILED ? strerror(errno) : "succeeded");
        if (p != MAP_FAILED)
            munmap(p, (size_t)1 << 60);
    } else {
        /* A singly linked list through the blocks themselves. */
        void *head = NULL;
        unsigned long n = 0;
        for (;;) {
            void **b = malloc(1 << 20);
            if (!b)
                break;
            if (strcmp(mode, "until-null-walk") != 0)
                memset(b, (int)(n & 0xff), 1 << 20);
            *b = head;
            head = b;
            n++;
        }
        /* n depends on the address space left, which differs between
         * tools: it goes to stderr, not stdout. */
        fprintf(stderr, "oom: %lu blocks of 1 MiB before NULL\n", n);
        if (strcmp(mode, "until-null-exit") == 0)
            return 0;
        if (strcmp(mode, "until-null-walk") == 0) {
            unsigned long sum = 0;
            for (void **b = head; b; b = *b)
                for (size_t off = 64; off < (1 << 20); off += 64)
                    sum += ((volatile unsigned char *)b)[off];
            printf("oom: walked, sum %lu\n", sum);
        }
        if (strcmp(mode, "until-null-hold") == 0) {
            uint32_t v[512];
            for (int i = 0; i < 512; i++)
                v[i] = faults_table[(i * 13) & 8191];
            qsort(v, 512, sizeof v[0], cmp_u32);
            printf("oom: still running, %.3f %u\n", (double)acc / 7.0, v[0]);
        }
        while (head) {
            void *next = *(void **)head;
            free(head);
            head = next;
        }
        puts("oom: freed");
    }
    acc += faults_work(1);
    printf("oom: after %llu\n", (unsigned long long)acc);
    return 0;
}
