/* Changes directory to / early. A relative output file name must still
 * be resolved against the directory Valgrind started in. */
#include <stdio.h>
#include <stdint.h>
#include <unistd.h>

static uint16_t vals[30000];

int main(void)
{
    if (chdir("/") != 0) {
        puts("chdir: chdir failed");
        return 1;
    }
    uint64_t acc = 0;
    for (int i = 0; i < 30000; i++)
        vals[i] = (uint16_t)(i * 40503u);
    for (int i = 0; i < 30000; i += 5)
        acc += vals[i];
    printf("chdir: %llu\n", (unsigned long long)acc);
    return 0;
}
