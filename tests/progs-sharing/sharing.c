/* Threads sharing data, one pattern per mode (the first argument):
 *   packed  each thread increments its own element of one array of
 *           longs: false sharing (the elements share a cache line)
 *   padded  the same with each element on a 64-byte line of its own
 *   heap    packed, in a block from malloc (--data-profile names it)
 *   atomic  every thread adds to one counter with atomic adds: true
 *           sharing
 *   locked  every thread adds to one counter under a mutex
 *   queue   one producer and one consumer pass items through a ring
 *   table   threads only read tables: a constant one and one the main
 *           thread fills before they start (not a problem: no report)
 * The second argument is the number of threads (2 to 4; queue: 2), the
 * third the iterations per thread, the fourth (packed and padded; 0 by
 * default) makes the workers take turns, that many iterations each, in
 * order (one waits, yielding, until the one before it passes the turn):
 * the threads then alternate exactly there, whatever Valgrind's and the
 * host's schedulers do, which a test of Valgrind's schedule
 * (--caches=per-thread) needs (calling sched_yield alone was not enough:
 * on a loaded host one thread could run all its iterations first). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS 4

/* volatile: every iteration loads and stores, at -O2 too */
static volatile long counters_packed[MAX_THREADS] __attribute__((aligned(64)));
static struct { volatile long value; char pad[64 - sizeof(long)]; }
    counters_padded[MAX_THREADS] __attribute__((aligned(64)));
static volatile long* counters_heap;
static volatile long shared_total __attribute__((aligned(64)));
static pthread_mutex_t total_lock = PTHREAD_MUTEX_INITIALIZER;

#define QUEUE_SLOTS 16
static struct {
    volatile unsigned head __attribute__((aligned(64)));
    volatile unsigned tail __attribute__((aligned(64)));
    long items[QUEUE_SLOTS] __attribute__((aligned(64)));
} queue;

static const long constant_table[64] = { 1, 2, 3, 5, 8, 13, 21, 34 };
static long filled_table[64];
static long table_sums[MAX_THREADS][8] __attribute__((aligned(64)));

static long iterations;
static long turn_every;         /* 0: no turns */
static long n_workers;
static volatile long turn __attribute__((aligned(64)));

/* Before iteration i: wait for this worker's turn if one starts here */
static void wait_turn(long me, long i)
{
    if (turn_every == 0 || i % turn_every != 0)
        return;
    while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != me)
        sched_yield();
}

/* After iteration i: pass the turn on if this worker's ends here */
static void pass_turn(long me, long i)
{
    if (turn_every == 0
        || (i % turn_every != turn_every - 1 && i != iterations - 1))
        return;
    __atomic_store_n(&turn, (me + 1) % n_workers, __ATOMIC_RELEASE);
}

static void* run_packed(void* arg)
{
    long me = (long)arg;
    for (long i = 0; i < iterations; i++)
    {
        wait_turn(me, i);
        counters_packed[me]++;  /* MARK: packed */
        pass_turn(me, i);
    }
    return NULL;
}

static void* run_padded(void* arg)
{
    long me = (long)arg;
    for (long i = 0; i < iterations; i++)
    {
        wait_turn(me, i);
        counters_padded[me].value++;  /* MARK: padded */
        pass_turn(me, i);
    }
    return NULL;
}

static void* run_heap(void* arg)
{
    long me = (long)arg;
    for (long i = 0; i < iterations; i++)
        counters_heap[me]++;  /* MARK: heap */
    return NULL;
}

static void* run_atomic(void* arg)
{
    (void)arg;
    for (long i = 0; i < iterations; i++)
        __atomic_fetch_add(&shared_total, 1, __ATOMIC_RELAXED);  /* MARK: atomic */
    return NULL;
}

static void* run_locked(void* arg)
{
    (void)arg;
    for (long i = 0; i < iterations; i++) {
        pthread_mutex_lock(&total_lock);
        shared_total++;  /* MARK: locked */
        pthread_mutex_unlock(&total_lock);
    }
    return NULL;
}

static void* run_producer(void* arg)
{
    (void)arg;
    for (long i = 0; i < iterations; i++) {
        while (queue.head - queue.tail == QUEUE_SLOTS)
            sched_yield();
        queue.items[queue.head % QUEUE_SLOTS] = i;
        __atomic_thread_fence(__ATOMIC_RELEASE);
        queue.head++;  /* MARK: producer */
    }
    return NULL;
}

static void* run_consumer(void* arg)
{
    long sum = 0;
    (void)arg;
    for (long i = 0; i < iterations; i++) {
        while (queue.head == queue.tail)
            sched_yield();
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        sum += queue.items[queue.tail % QUEUE_SLOTS];
        queue.tail++;  /* MARK: consumer */
    }
    shared_total = sum;
    return NULL;
}

static void* run_table(void* arg)
{
    long me = (long)arg, sum = 0;
    for (long i = 0; i < iterations; i++)
        sum += constant_table[i % 64] + filled_table[(i * 7) % 64];
    table_sums[me][0] = sum;
    return NULL;
}

int main(int argc, char** argv)
{
    const char* mode = argc > 1 ? argv[1] : "packed";
    int n = argc > 2 ? atoi(argv[2]) : 2;
    pthread_t threads[MAX_THREADS];
    void* (*body)(void*) = NULL;
    long total = 0;

    iterations = argc > 3 ? atol(argv[3]) : 100000;
    turn_every = argc > 4 ? atol(argv[4]) : 0;
    if (n < 2 || n > MAX_THREADS) {
        fprintf(stderr, "sharing: 2 to %d threads\n", MAX_THREADS);
        return 2;
    }
    if (strcmp(mode, "packed") == 0)
        body = run_packed;
    else if (strcmp(mode, "padded") == 0)
        body = run_padded;
    else if (strcmp(mode, "heap") == 0) {
        counters_heap = aligned_alloc(64, 64);  /* MARK: alloc */
        memset((void*)counters_heap, 0, 64);
        body = run_heap;
    } else if (strcmp(mode, "atomic") == 0)
        body = run_atomic;
    else if (strcmp(mode, "locked") == 0)
        body = run_locked;
    else if (strcmp(mode, "table") == 0) {
        for (int i = 0; i < 64; i++)
            filled_table[i] = i * i;
        body = run_table;
    } else if (strcmp(mode, "queue") == 0) {
        n = 2;
    } else {
        fprintf(stderr, "sharing: unknown mode %s\n", mode);
        return 2;
    }
    n_workers = n;
    for (long t = 0; t < n; t++) {
        void* (*fn)(void*) = body != NULL ? body
                             : t == 0 ? run_producer : run_consumer;
        pthread_create(&threads[t], NULL, fn, (void*)t);
    }
    for (int t = 0; t < n; t++)
        pthread_join(threads[t], NULL);
    for (int t = 0; t < MAX_THREADS; t++)
        total += counters_packed[t] + counters_padded[t].value
                 + table_sums[t][0] + (counters_heap ? counters_heap[t] : 0);
    printf("sharing %s: %ld %ld\n", mode, total, shared_total);
    return 0;
}
