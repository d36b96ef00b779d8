/* Generated code, as a JIT compiler makes it: a small summing function
 * is written into fresh executable memory, run and unmapped, many times
 * over (translations discarded by munmap); then one copy is rewritten
 * in place before each call (translations discarded by Valgrind's
 * self-modifying-code check).  x86-64 only: elsewhere it only prints
 * that it did nothing. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include "common.h"

#define ROUNDS 600

typedef int64_t (*sum_fn)(const int64_t *a, int64_t n);

#if defined(__x86_64__)
/* s = imm; for (i = 0; i < n; i++) s += a[i]; return s; */
static const unsigned char sum_code[] = {
    0x48, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0,   /* movabs $imm,%rax       */
    0x48, 0x85, 0xF6,                     /* test %rsi,%rsi         */
    0x7E, 0x0E,                           /* jle done               */
    0x31, 0xC9,                           /* xor %ecx,%ecx          */
    0x48, 0x03, 0x04, 0xCF,               /* loop: add (%rdi,%rcx,8),%rax */
    0x48, 0xFF, 0xC1,                     /* inc %rcx               */
    0x48, 0x39, 0xCE,                     /* cmp %rcx,%rsi          */
    0x75, 0xF4,                           /* jne loop               */
    0xC3,                                 /* done: ret              */
};
#define IMM_OFFSET 2

static unsigned char *new_code_page(void)
{
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void emit(unsigned char *page, int64_t imm)
{
    memcpy(page, sum_code, sizeof sum_code);
    memcpy(page + IMM_OFFSET, &imm, sizeof imm);
    __builtin___clear_cache((char *)page, (char *)page + sizeof sum_code);
}

int main(void)
{
    static int64_t data[64];
    lcg_t g;
    uint64_t acc = 0;
    unsigned char *page;
    int i;

    lcg_seed(&g, 77);
    for (i = 0; i < 64; i++)
        data[i] = lcg_below(&g, 1000);

    /* Fresh code every round: map, write, run, unmap. */
    for (i = 0; i < ROUNDS; i++) {
        page = new_code_page();
        if (page == NULL) {
            perror("mmap");
            return 1;
        }
        emit(page, i);
        acc = mix64(acc, (uint64_t)((sum_fn)page)(data, 1 + i % 64));
        acc = mix64(acc, (uint64_t)((sum_fn)page)(data + i % 8, 8));
        munmap(page, 4096);
    }

    /* One page rewritten in place before every call. */
    page = new_code_page();
    if (page == NULL) {
        perror("mmap");
        return 1;
    }
    for (i = 0; i < ROUNDS; i++) {
        emit(page, 3 * i + 1);
        acc = mix64(acc, (uint64_t)((sum_fn)page)(data, 1 + (i * 7) % 64));
    }
    munmap(page, 4096);

    printf("jitcode: %d rounds, checksum %016llx\n", ROUNDS,
           (unsigned long long)acc);
    return 0;
}
#else
int main(void)
{
    printf("jitcode: not an x86-64 build, nothing generated\n");
    return 0;
}
#endif
