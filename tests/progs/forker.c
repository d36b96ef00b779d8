/* fork(): the child and the parent do different work; the parent waits
 * for the child and then prints, so stdout order is fixed. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/wait.h>

static uint32_t table[8192];

static uint64_t child_work(void)
{
    uint64_t acc = 0;
    for (int i = 0; i < 8192; i++)
        table[i] = (uint32_t)(i * i);
    for (int i = 8191; i >= 0; i -= 3)
        acc += table[i];
    return acc;
}

static uint64_t parent_work(void)
{
    uint64_t acc = 1;
    for (int i = 0; i < 30000; i++)
        acc = acc * 2862933555777941757ULL + (uint64_t)i;
    return acc;
}

int main(void)
{
    uint64_t shared = 0;
    for (int i = 0; i < 1000; i++)
        shared += (uint64_t)i * 7;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        puts("forker: fork failed");
        return 1;
    }
    if (pid == 0) {
        printf("forker child: %llu %llu\n", (unsigned long long)shared,
               (unsigned long long)child_work());
        exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    printf("forker parent: %llu %llu child_status=%d\n",
           (unsigned long long)shared, (unsigned long long)parent_work(),
           WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}
