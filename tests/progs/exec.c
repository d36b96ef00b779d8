/* Does some work, then replaces itself with /bin/true. Without
 * --trace-children=yes only the pre-exec image is simulated and it
 * writes no output; with it, /bin/true is simulated too. */
#include <stdio.h>
#include <stdint.h>
#include <unistd.h>

int main(void)
{
    uint64_t acc = 0;
    for (int i = 0; i < 50000; i++)
        acc += (uint64_t)i * (uint64_t)(i & 0xff);
    printf("exec: before exec %llu\n", (unsigned long long)acc);
    fflush(stdout);
    execl("/bin/true", "true", (char *)NULL);
    puts("exec: execl failed");
    return 1;
}
