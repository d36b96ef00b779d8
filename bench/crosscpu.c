/* crosscpu.c -- how far apart two CPUs are: the mean round trip of one
   cache line passed back and forth between a thread pinned to each.

   Why bench/run measures it: our tool hands its access log from the
   client's CPU to the simulator thread's, so its times depend on this
   distance, which a virtual machine's host may change from one minute
   to the next (56-76 ns or 317-351 ns on an AMD EPYC family 25 model
   17 with 2 CPUs, 2026-11-24); the single-threaded system Cachegrind does not care.

   usage: crosscpu [CPU_A CPU_B]   (default 0 1); prints "<ns>" or,
   when the two CPUs cannot be used, a one-line reason on stderr and
   exits 1. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ROUND_TRIPS 300000L

/* The one line the two threads pass between them: the first thread
   writes odd values, the second answers with the next even one. */
static volatile long token __attribute__((aligned(64)));

static int pin_to(int cpu)
{
   cpu_set_t set;

   CPU_ZERO(&set);
   CPU_SET(cpu, &set);
   return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* 1 once the answerer is pinned, -1 if it cannot be (two spinning
   threads on one CPU would take turns once per time slice). */
static volatile int answerer_state;

static void* answerer(void* cpu)
{
   long i;

   if (pin_to(*(int*)cpu) != 0) {
      answerer_state = -1;
      return NULL;
   }
   answerer_state = 1;
   for (i = 0; i < ROUND_TRIPS; i++) {
      while (token != 2 * i + 1)
         ;
      token = 2 * i + 2;
   }
   return NULL;
}

static double seconds_between(const struct timespec* a,
                              const struct timespec* b)
{
   return (double)(b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

int main(int argc, char** argv)
{
   int cpu_a = argc > 2 ? atoi(argv[1]) : 0;
   int cpu_b = argc > 2 ? atoi(argv[2]) : 1;
   struct timespec start, end;
   pthread_t thread;
   long i;

   if (pin_to(cpu_a) != 0) {
      fprintf(stderr, "crosscpu: cannot run on CPU %d\n", cpu_a);
      return 1;
   }
   if (pthread_create(&thread, NULL, answerer, &cpu_b) != 0) {
      fprintf(stderr, "crosscpu: cannot start a thread\n");
      return 1;
   }
   while (answerer_state == 0)
      ;
   if (answerer_state < 0) {
      pthread_join(thread, NULL);
      fprintf(stderr, "crosscpu: cannot run on CPU %d\n", cpu_b);
      return 1;
   }
   clock_gettime(CLOCK_MONOTONIC, &start);
   for (i = 0; i < ROUND_TRIPS; i++) {
      token = 2 * i + 1;
      while (token != 2 * i + 2)
         ;
   }
   clock_gettime(CLOCK_MONOTONIC, &end);
   pthread_join(thread, NULL);
   printf("%.0f\n", seconds_between(&start, &end) * 1e9 / ROUND_TRIPS);
   return 0;
}
