/* Three POSIX threads, each doing independent work on its own buffer,
 * each joined.
 *
 * Determinism matters: the differential tests compare two Cachegrind runs
 * byte for byte. Valgrind runs one thread at a time and switches only
 * when the running thread blocks in a syscall or yields (it yields right
 * after creating a thread). Whenever two threads are runnable, the host
 * kernel decides which goes first, and then both the shared-cache miss
 * counts and glibc's fast paths (a pthread_join that finds its thread
 * already gone skips the futex wait) vary from run to run. So each
 * worker first blocks in read() on a pipe, and main releases it by
 * closing the write end -- close() does not give up Valgrind's lock --
 * and then blocks in pthread_join(). The worker therefore runs only while
 * main is blocked, and main wakes only once the worker has exited. What
 * is left to chance is only whether a new thread's short start-up code
 * (up to its read()) runs before or after main's pthread_create epilogue;
 * both touch little and almost nothing in common. */
#include <stdio.h>
#include <stdint.h>
#include <unistd.h>
#include <pthread.h>

#define WORDS 2048

struct job {
    int       id;
    int       gate;       /* read end of this worker's start pipe */
    uint32_t  data[WORDS];
    uint64_t  result;
};

static struct job jobs[3];
static __thread uint64_t tls_counter;

static void *worker(void *arg)
{
    struct job *j = arg;
    char c;
    /* Returns 0 (EOF) once main has closed the write end. */
    if (read(j->gate, &c, 1) != 0)
        return NULL;
    close(j->gate);
    for (int i = 0; i < WORDS; i++)
        j->data[i] = (uint32_t)(i * (j->id + 3));
    uint64_t acc = 0;
    for (int pass = 0; pass < 12; pass++)
        for (int i = j->id; i < WORDS; i += 3) {
            acc += j->data[i] ^ (uint32_t)pass;
            tls_counter++;
        }
    j->result = acc + tls_counter;
    return NULL;
}

int main(void)
{
    uint64_t total = 0;
    for (int k = 0; k < 3; k++) {
        int p[2];
        pthread_t t;
        if (pipe(p) != 0) {
            puts("threads: pipe failed");
            return 1;
        }
        jobs[k].id = k;
        jobs[k].gate = p[0];
        if (pthread_create(&t, NULL, worker, &jobs[k]) != 0) {
            puts("threads: pthread_create failed");
            return 1;
        }
        close(p[1]);            /* lets the worker go */
        pthread_join(t, NULL);
        total += jobs[k].result;
    }
    printf("threads: total=%llu main_tls=%llu\n", (unsigned long long)total,
           (unsigned long long)tls_counter);
    return 0;
}
