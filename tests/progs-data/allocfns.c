/* allocfns.c -- data-profile fixture (tests/data.t): every allocation
 * function the profile recognises, and an anonymous mapping.  Each block
 * is touched only by the volatile accesses on its own MARK lines, a
 * different number of times for each, so every object's Dr and Dw are
 * known by construction (`W` writes, `R` reads):
 *
 *   calloc-site         calloc(32, 8)         W 7   R 32 (checks zero)
 *   memalign-site       memalign(64, 512)     W 11  R 0
 *   aligned-alloc-site  aligned_alloc(64, 512) W 13 R 0
 *   posix-memalign-site posix_memalign(64, 512) W 17 R 0
 *   valloc-site         valloc(4096)          W 19  R 0
 *   reallocarray-site   reallocarray(NULL, 40, 8) W 23 R 0
 *   mmap-site           mmap(65536, anonymous) W 29 R 31
 *   dirty-site          8 x malloc(256), each written 32 times, freed
 *                       (so that calloc gets a dirty chunk back and must
 *                       clear it: the clearing is `other`)  W 256 R 0
 * The checks of alignment are made on the pointers, not through them. */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

int main(void)
{
    volatile long *dirty[8];
    volatile long *c, *m, *al, *pm, *v, *ra;
    volatile char *mm;
    void *guard, *tmp = NULL;
    uintptr_t last_dirty;
    long sum = 0;
    int i, k, zero = 1;

    for (k = 0; k < 8; k++) {
        dirty[k] = malloc(256); /* MARK: dirty-site */
        if (dirty[k] == NULL)
            return 1;
        for (i = 0; i < 32; i++)
            dirty[k][i] = -1; /* MARK: dirty-write */
    }
    guard = malloc(16); /* MARK: guard-site */
    last_dirty = (uintptr_t)dirty[7];
    for (k = 0; k < 8; k++)
        free((void *)dirty[k]);

    c = calloc(32, 8); /* MARK: calloc-site */
    if (c == NULL)
        return 1;
    printf("calloc %s\n", (uintptr_t)c == last_dirty ? "reused a dirty chunk" : "fresh");
    for (i = 0; i < 32; i++)
        if (c[i] != 0) /* MARK: calloc-read */
            zero = 0;
    printf("calloc zeroed: %s\n", zero ? "yes" : "no");
    for (i = 0; i < 7; i++)
        c[i] = i; /* MARK: calloc-write */

    m = memalign(64, 512); /* MARK: memalign-site */
    if (m == NULL)
        return 1;
    for (i = 0; i < 11; i++)
        m[i] = i; /* MARK: memalign-write */

    al = aligned_alloc(64, 512); /* MARK: aligned-alloc-site */
    if (al == NULL)
        return 1;
    for (i = 0; i < 13; i++)
        al[i] = i; /* MARK: aligned-alloc-write */

    if (posix_memalign(&tmp, 64, 512) != 0) /* MARK: posix-memalign-site */
        return 1;
    pm = tmp;
    for (i = 0; i < 17; i++)
        pm[i] = i; /* MARK: posix-memalign-write */

    v = valloc(4096); /* MARK: valloc-site */
    if (v == NULL)
        return 1;
    for (i = 0; i < 19; i++)
        v[i] = i; /* MARK: valloc-write */

    ra = reallocarray(NULL, 40, 8); /* MARK: reallocarray-site */
    if (ra == NULL)
        return 1;
    for (i = 0; i < 23; i++)
        ra[i] = i; /* MARK: reallocarray-write */

    mm = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); /* MARK: mmap-site */
    if (mm == MAP_FAILED)
        return 1;
    for (i = 0; i < 29; i++)
        mm[i * 2048] = (char)i; /* MARK: mmap-write */
    for (i = 0; i < 31; i++)
        sum += mm[i * 2048]; /* MARK: mmap-read */

    printf("aligned: %d %d %d %d\n", (int)((uintptr_t)m % 64), (int)((uintptr_t)al % 64),
           (int)((uintptr_t)pm % 64), (int)((uintptr_t)v % 4096));
    munmap((void *)mm, 65536);
    free((void *)ra);
    free((void *)v);
    free((void *)pm);
    free((void *)al);
    free((void *)m);
    free((void *)c);
    free(guard);
    printf("allocfns %ld\n", sum);
    return 0;
}
