/* Scattered accesses (many D1 misses, so many log entries) before a
 * fork, in the child, and in the parent after the child exits.  The
 * simulator thread is started before the fork, the child starts its
 * own, and both processes write their own counts.  (No client threads:
 * when a joining thread resumes is up to the host kernel, and the
 * instruction counts of glibc's join path with it, for both tools.) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define WORDS (1u << 20)   /* 8 MB: far beyond D1 */

static uint64_t *table;

static uint64_t scatter(uint64_t seed, unsigned steps)
{
    uint64_t acc = 0, x = seed;
    for (unsigned i = 0; i < steps; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        uint64_t *p = &table[(x >> 33) & (WORDS - 1)];
        acc += *p;
        *p = acc ^ i;
    }
    return acc;
}

int main(void)
{
    table = calloc(WORDS, sizeof *table);
    if (table == NULL)
        return 1;
    uint64_t before = scatter(1, 300000);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        printf("logfork child: %llu %llu\n", (unsigned long long)before,
               (unsigned long long)scatter(2, 200000));
        exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    uint64_t after = scatter(3, 200000);

    printf("logfork parent: %llu %llu child_status=%d\n",
           (unsigned long long)before, (unsigned long long)after,
           WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}
