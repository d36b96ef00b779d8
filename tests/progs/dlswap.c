/* dlopen the libraries named in argv[2] and argv[1] in turn, five times
 * (second, first, second, first, second), and call each one's function
 * through its swap_entry pointer, unloading each before loading the
 * next.  The early rounds translate every path of this program, the
 * dynamic loader and the C library that the later ones take (the
 * loader's bookkeeping takes new paths for a few rounds), so that in
 * the last round nothing but the second library's function is
 * translated after the first library's (see swaplib.c). */
#include <stdio.h>
#include <stdint.h>
#include <dlfcn.h>

typedef uint64_t (*swap_fn)(uint64_t);

static int run(const char *path, uint64_t *acc)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return 1;
    const swap_fn *entry = (const swap_fn *)dlsym(h, "swap_entry");
    if (!entry) {
        dlclose(h);
        return 1;
    }
    *acc += (*entry)(200);
    return dlclose(h) != 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        puts("usage: dlswap /path/to/libswap1.so /path/to/libswap2.so");
        return 2;
    }
    uint64_t acc = 0;
    int failed = 0;
    for (int i = 0; i < 5 && !failed; i++)
        failed = run(i % 2 == 0 ? argv[2] : argv[1], &acc);
    if (failed) {
        puts("dlswap: could not load or call a library");
        return 1;
    }
    printf("dlswap: %llu\n", (unsigned long long)acc);
    return 0;
}
