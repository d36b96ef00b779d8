/* dlopen a shared library (path in argv[1]), call its hot loop many
 * times through dlsym, dlclose it, then do the same a second time with
 * the library in argv[2] (or argv[1] again).  The unload discards
 * translations of the library's code and its debug info. */
#include <stdio.h>
#include <stdint.h>
#include <dlfcn.h>

typedef uint64_t (*hot_fn)(uint32_t);
typedef const char *(*name_fn)(void);

static int use_library(const char *path, int round, uint64_t *out)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        printf("dlopen_main: round %d: dlopen failed\n", round);
        return 1;
    }
    hot_fn hot = (hot_fn)dlsym(h, "hot_loop");
    name_fn name = (name_fn)dlsym(h, "hot_name");
    if (!hot || !name) {
        printf("dlopen_main: round %d: dlsym failed\n", round);
        dlclose(h);
        return 1;
    }
    uint64_t acc = 0;
    for (int i = 0; i < 40; i++)
        acc += hot((uint32_t)(i % 5) + 1);
    printf("dlopen_main: round %d: %s %llu\n", round, name(), (unsigned long long)acc);
    *out += acc;
    return dlclose(h) != 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        puts("usage: dlopen_main /path/to/libhot.so [/path/to/second.so]");
        return 2;
    }
    uint64_t total = 0;
    const char *second = argc > 2 ? argv[2] : argv[1];
    if (use_library(argv[1], 1, &total) || use_library(second, 2, &total))
        return 1;
    printf("dlopen_main: total %llu\n", (unsigned long long)total);
    return 0;
}
