/* Bulk memory/string routines (glibc's memcpy/memset/memmove/strlen,
 * which use wide vector accesses) plus explicit rep movsb / rep stosb. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <stdint.h>

#define BIG (192 * 1024)

static void rep_movsb(void *dst, const void *src, size_t n)
{
    __asm__ __volatile__("rep movsb"
                         : "+D"(dst), "+S"(src), "+c"(n)
                         :
                         : "memory");
}

static void rep_stosb(void *dst, unsigned char c, size_t n)
{
    __asm__ __volatile__("rep stosb"
                         : "+D"(dst), "+c"(n)
                         : "a"(c)
                         : "memory");
}

int main(void)
{
    char *a = malloc(BIG + 64);
    char *b = malloc(BIG + 64);
    if (!a || !b) {
        puts("strings: out of memory");
        return 1;
    }
    memset(a, 'x', BIG);
    a[BIG - 1] = '\0';
    size_t l1 = strlen(a);

    memcpy(b, a, BIG);
    memmove(b + 13, b, BIG / 2);          /* overlapping, forwards */
    memmove(b, b + 29, BIG / 3);          /* overlapping, backwards */
    memset(b + 1000, 'y', 5000);
    b[BIG / 4] = '\0';
    size_t l2 = strlen(b + 1);

    rep_movsb(a + 3, b + 100, 20000);
    rep_stosb(a + 30001, 'z', 12000);
    a[50000] = '\0';
    size_t l3 = strlen(a);

    unsigned long sum = 0;
    for (size_t i = 0; i < 50000; i += 97)
        sum += (unsigned char)a[i];
    int cmp = memcmp(a, b, 4096) > 0 ? 1 : (memcmp(a, b, 4096) < 0 ? -1 : 0);

    printf("strings: %zu %zu %zu %lu %d\n", l1, l2, l3, sum, cmp);
    free(a);
    free(b);
    return 0;
}
