/* A second thread calls _exit(5) while the main thread is still alive:
 *   blocked   the main thread waits in read() on a pipe nobody writes;
 *             the thread first sleeps for a second, so that both threads
 *             run all their code before it whichever of them the
 *             scheduler runs first after pthread_create (the counts do
 *             not depend on timing)
 *   exit      as blocked, but the thread calls exit(5) (atexit handlers
 *             and stdio flushing run in the thread)
 *   spinning  the main thread runs a busy loop meanwhile (how far it gets
 *             depends on the scheduler) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "faults.h"

static int pipe_fds[2];
static int use_exit;
static volatile int thread_started;

static void *worker(void *arg)
{
    (void)arg;
    thread_started = 1;
    struct timespec second = { 1, 0 };
    while (nanosleep(&second, &second) != 0)
        ;
    uint64_t acc = faults_work(3);
    printf("thread_exit: worker %llu\n", (unsigned long long)acc);
    if (use_exit)
        exit(5);
    fflush(stdout);
    _exit(5);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "blocked";
    use_exit = strcmp(mode, "exit") == 0;
    if (pipe(pipe_fds) != 0)
        return 1;
    printf("thread_exit: %s, main %llu\n", mode,
           (unsigned long long)faults_work(2));
    fflush(stdout);

    pthread_t t;
    if (pthread_create(&t, NULL, worker, NULL) != 0)
        return 1;
    if (strcmp(mode, "spinning") == 0) {
        volatile uint64_t spins = 0;
        for (;;)
            spins++;
    }
    char c;
    ssize_t n = read(pipe_fds[0], &c, 1);
    printf("thread_exit: read returned %zd\n", n);
    return 1;
}
