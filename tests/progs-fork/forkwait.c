/* forkwait [N]: forks N children (default 1) one after another; each
 * child does its own work and exits, and the parent waits for it before
 * forking the next one and, at the end, doing work of its own.  So the
 * processes finish (and write their files) in a fixed order: the
 * children in the order they were forked, then the parent. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/wait.h>

static uint32_t table[4096];

/* Different work for each child, so that their profiles differ. */
static uint64_t child_work(int which)
{
    uint64_t acc = 0;
    for (int i = 0; i < 4096; i++)
        table[i] = (uint32_t)(i * (which + 3));
    for (int round = 0; round <= which; round++)
        for (int i = 4095; i >= 0; i -= 5)
            acc += table[i];
    return acc;
}

static uint64_t parent_work(void)
{
    uint64_t acc = 1;
    for (int i = 0; i < 20000; i++)
        acc = acc * 6364136223846793005ULL + (uint64_t)i;
    return acc;
}

int main(int argc, char** argv)
{
    int children = argc > 1 ? atoi(argv[1]) : 1;

    for (int which = 0; which < children; which++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) {
            puts("forkwait: fork failed");
            return 1;
        }
        if (pid == 0) {
            printf("forkwait child %d: %llu\n", which,
                   (unsigned long long)child_work(which));
            exit(0);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        printf("forkwait child %d status %d\n", which,
               WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    printf("forkwait parent: %llu\n", (unsigned long long)parent_work());
    return 0;
}
