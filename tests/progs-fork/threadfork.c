/* threadfork: a second thread runs and then waits while the main thread
 * forks.  The child has only the main thread; it does a little work and
 * exits.  The parent waits for the child, then lets the second thread
 * finish and joins it. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <pthread.h>
#include <sys/wait.h>

static int started[2];    /* the thread says it has done its work */
static int release[2];    /* main lets it finish */
static volatile uint64_t sink;

static uint64_t spin(uint64_t n, uint64_t seed)
{
    uint64_t acc = seed;
    for (uint64_t i = 0; i < n; i++)
        acc = acc * 2862933555777941757ULL + i;
    return acc;
}

static void* worker(void* arg)
{
    char c = 'x';
    sink = spin(50000, 7);
    if (write(started[1], &c, 1) != 1 || read(release[0], &c, 1) != 1)
        return NULL;
    sink = spin(20000, 9);
    return arg;
}

int main(void)
{
    pthread_t thread;
    char c;

    if (pipe(started) != 0 || pipe(release) != 0)
        return 1;
    if (pthread_create(&thread, NULL, worker, NULL) != 0)
        return 1;
    if (read(started[0], &c, 1) != 1)
        return 1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        sink = spin(30000, 3);
        printf("threadfork child: done\n");
        exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (write(release[1], "x", 1) != 1)
        return 1;
    pthread_join(thread, NULL);
    printf("threadfork parent: child status %d\n",
           WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}
