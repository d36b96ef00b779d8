/* threads.c -- data-profile fixture (tests/data.t): three threads, alive
 * at the same time, allocating in turn, each from its own function.
 *
 * Every worker makes ROUNDS blocks of 64 bytes at its own malloc line and
 * writes each block W times (W = 3, 5, 7 for workers 1, 2, 3), so the
 * three sites are three objects with
 *   blocks ROUNDS, bytes 64 * ROUNDS, Dr 0, Dw W * ROUNDS, fields 0..8(W-1)
 * Each thread also writes a 32-int array on its own stack once
 * (stack-write: Dw 32 in `thread N`, N = 2, 3, 4 for the workers in
 * creation order; main's stack is `thread 1`).  The blocks are freed by
 * main after the joins.
 *
 * The allocations interleave round by round (worker 1's first block,
 * worker 2's, worker 3's, worker 1's second, ...), each thread in its own
 * malloc arena, but in the same order in every run: the differential test
 * compares the main output file with the system Cachegrind's byte for
 * byte, and under Valgrind the cache state depends on which thread runs
 * when.  So a token goes round a ring of pipes: a worker blocks in read()
 * on its pipe, makes one block, writes the token to the next worker's pipe
 * and blocks again; only the token holder can run.  Worker 3's last token
 * goes back to main, which then ends the workers one at a time (closing a
 * worker's pipe makes its read() return 0, and main waits in
 * pthread_join() until it is gone), as in tests/progs/threads.c.  Left to
 * chance is only whether a new thread's start-up code (up to its first
 * read()) runs before or after main's pthread_create epilogue. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define ROUNDS 300

static int ring[3][2];      /* ring[k]: the token for worker k + 1 */
static int back[2];         /* the last token, for main */
static volatile long *made[3][ROUNDS];

__attribute__((noinline)) static void stack_work(void)
{
    volatile int s[32];
    int i;
    for (i = 0; i < 32; i++)
        s[i] = i; /* MARK: stack-write */
    (void)s;
}

static void wait_token(int k)
{
    char c;
    if (read(ring[k][0], &c, 1) != 1)
        abort();
}

static void pass_token(int k, int r)
{
    int to = k == 2 && r == ROUNDS - 1 ? back[1] : ring[(k + 1) % 3][1];
    if (write(to, "t", 1) != 1)
        abort();
}

/* After the last round: the stack array, then wait for main's close. */
static void finish(int k)
{
    char c;
    stack_work();
    if (read(ring[k][0], &c, 1) != 0)
        abort();
}

static void *worker1(void *arg)
{
    int r, i;
    (void)arg;
    for (r = 0; r < ROUNDS; r++) {
        volatile long *p;
        wait_token(0);
        p = malloc(64); /* MARK: worker1-malloc */
        if (p == NULL)
            abort();
        for (i = 0; i < 3; i++)
            p[i] = r; /* MARK: worker1-write */
        made[0][r] = p;
        pass_token(0, r);
    }
    finish(0);
    return NULL;
}

static void *worker2(void *arg)
{
    int r, i;
    (void)arg;
    for (r = 0; r < ROUNDS; r++) {
        volatile long *p;
        wait_token(1);
        p = malloc(64); /* MARK: worker2-malloc */
        if (p == NULL)
            abort();
        for (i = 0; i < 5; i++)
            p[i] = r; /* MARK: worker2-write */
        made[1][r] = p;
        pass_token(1, r);
    }
    finish(1);
    return NULL;
}

static void *worker3(void *arg)
{
    int r, i;
    (void)arg;
    for (r = 0; r < ROUNDS; r++) {
        volatile long *p;
        wait_token(2);
        p = malloc(64); /* MARK: worker3-malloc */
        if (p == NULL)
            abort();
        for (i = 0; i < 7; i++)
            p[i] = r; /* MARK: worker3-write */
        made[2][r] = p;
        pass_token(2, r);
    }
    finish(2);
    return NULL;
}

int main(void)
{
    pthread_t t[3];
    void *(*fn[3])(void *) = { worker1, worker2, worker3 };
    char c;
    int k, r;

    for (k = 0; k < 3; k++)
        if (pipe(ring[k]) != 0)
            return 1;
    if (pipe(back) != 0)
        return 1;
    for (k = 0; k < 3; k++)
        if (pthread_create(&t[k], NULL, fn[k], NULL) != 0)
            return 1;
    if (write(ring[0][1], "t", 1) != 1 || read(back[0], &c, 1) != 1)
        return 1;
    for (k = 0; k < 3; k++) {
        close(ring[k][1]);
        pthread_join(t[k], NULL);
    }
    for (k = 0; k < 3; k++)
        for (r = 0; r < ROUNDS; r++)
            free((void *)made[k][r]);
    printf("threads done\n");
    return 0;
}
