/* cg_log.c -- the access log: from compiled code to the simulator
   thread.

   Owns: the log compiled code appends to, its hand-over to the thread
   that simulates it, and that thread.
   Must not: simulate (cg_sim.c does) or emit IR (cg_deliver.c does).

   Why: compiled code keeps a copy of each L1 set's most recently used
   line (the MRU filter) and settles every access that hits it inline.
   Whether one of the others hits, and in which way, depends on the
   data: simulating it costs branch mispredictions, about 15 ns each.
   The client need not wait for that.  After any access its line IS the
   most recently used one of its set, so the helper compiled code calls
   for such an access can keep the filter exact by itself, with a few
   stores and no data-dependent branch, and append the access to this
   log.  The full simulation of the logged accesses, in program order,
   runs later: on another core while the client goes on, or (with
   --sim-thread=no, or when only one CPU is allowed) in the client's
   thread whenever a chunk is full.  The counts are the same either
   way: the simulator sees the same accesses in the same order.

   The log is a ring of n_chunks chunks (--log-chunks).  The helpers
   fill the current one; when it is full it is handed over and they go
   on in the next free one.  The ring is long (64 chunks, 16 MiB, by
   default) not for speed when both threads run undisturbed (4 chunks
   did as well) but for when the simulator thread is paused: on a
   shared or virtual machine its CPU can be taken away for
   milliseconds, and the client thread only waits once the whole ring
   is full.  With a CPU-bound process beside ours (busy 20 ms, idle
   20 ms), sqlite3 took 3.79 s with 4 chunks, 3.26 with 16, 2.84 with
   32 and 2.51 with 64.  Chunks are allocated when first needed, and
   without a simulator thread the log stays in its first chunk.
   Anything that reads the miss counts (the end of the run, a fork)
   first calls cg_log_drain, which waits until everything logged is
   simulated.

   Entries are two words (see cg_log_entry.h) and never
   point at memory that can be freed (cost centres live until exit), so
   discarding translations needs no drain.  With --data-profile=yes the
   data profile (cg_data.c) writes the log instead of compiled code, with
   entries of its own, and simulates them (cg_log_set_data_profile). */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_options.h"
#include "pub_tool_libcsignal.h"
#include "pub_tool_vki.h"
#include "pub_tool_mallocfree.h"
#include "cg_log.h"
#include "cg_cache.h"
#include "cg_log_entry.h"
#include "cg_options.h"
#include "cg_sim.h"
#include "cg_tool.h"
#include "cg_vgcompat.h"

#define CHUNK_WORDS    (1 << 15)        /* 256 KiB: 16384 entries */
/* Without a simulator thread the client simulates its entries as soon
   as this many words are logged, in the first chunk: the entries are
   still in the host's L1 and L2 when they are read back, and so are the
   tags of the sets they last touched.  pointer_chase 600 laps,
   --sim-thread=no, medians of 7: see design.md 2.4. */
#define PIECE_WORDS    (1 << 12)        /* 32 KiB: 2048 entries */

/* The two threads share only the hand-over words below, each on a
   cache line of its own (CG_OWN_LINE): a word the simulator polls must
   not sit next to one the client thread writes at every access (false
   sharing made every logged access wait for the other core). */

/* Client thread only.  Read and written at every logged access. */
static struct {
   UWord* cursor;   /* next free entry */
   UWord* limit;    /* end of the current chunk */
} log CG_OWN_LINE;

/* Client thread only. */
static Bool   log_enabled;
/* Entries are stored around the host's caches (non-temporally): with a
   simulator thread only (emit_append in cg_checkers.c says why) */
static Bool   stores_around_caches;
static Bool   use_thread;        /* --sim-thread */
static Bool   thread_running;
/* For --stats=yes: whether there is a simulator thread, or why not. */
static const HChar* thread_status = "not needed (the log never filled)";
static UInt   n_chunks;
static UWord* chunk_start[CG_LOG_MAX_CHUNKS];
static UInt   current_chunk;
static ULong  n_handovers, n_waits_for_room, n_client_staged;
/* --sim-split=yes: the hand-over number of the last chunk handed whole
   (while the simulator has not done it, the L1s are its), and how often
   the client waited for such chunks before staging one */
static ULong  last_whole_handover, n_waits_for_whole;
static Bool   split_always;       /* --sim-split=always */
/* --sim-split=yes: time stamp counter cycles per chunk, moving
   averages: the client thread's own work (the program and its log),
   its L1 stage, and (written by the simulator thread) the simulator's
   stage below the L1s; and when the client last went back to the
   program */
static ULong  client_work_cycles, l1_stage_cycles, client_resumed_at;
static volatile ULong below_stage_cycles, whole_chunk_cycles;
static Bool   ring_shares_memory; /* a chunk could not be allocated */
static UInt   chunks_allocated, chunks_allowed; /* --log-alloc-limit */
/* --data-profile=yes: what simulates a chunk instead of
   cg_sim_log_entries, and what the client thread runs before each
   hand-over and while it waits (cg_data.c). */
static void (*simulate_entries)(const UWord* from, const UWord* to)
   = cg_sim_log_entries;
static void (*client_service)(void);
/* --sim-split=yes (cg_log_set_split): what the client thread runs over
   a chunk before it hands it over (it returns the end of what is left),
   and what the simulator thread then runs instead of simulate_entries */
static UWord* (*client_stage)(UWord* from, const UWord* to);
static void (*thread_stage)(const UWord* from, const UWord* to);

/* Per chunk: 0 while free; else the end of the entries handed over
   (set by the client thread, cleared by the simulator when done), and
   whether the client thread made its L1 stage (--sim-split), written
   before `end`. */
static struct {
   volatile UWord end;
   Bool staged;
   UChar pad[CG_CACHE_LINE - sizeof(UWord) - sizeof(Bool)];
} handed_over[CG_LOG_MAX_CHUNKS] CG_OWN_LINE;

/* Futex words: bumped after a hand-over / after a chunk is freed; and
   whether the other side may be asleep on them.  Each side sets its
   flag, then looks again before it sleeps; the other bumps the word,
   then looks at the flag (both with full barriers), so a hand-over is
   never missed. */
/* Chunks simulated so far, by either thread (read by the client). */
static volatile ULong chunks_simulated CG_OWN_LINE;
static volatile UInt work_seq CG_OWN_LINE;
static volatile UInt simulator_sleeping;
static volatile UInt free_seq CG_OWN_LINE;
static volatile UInt client_waiting;
static volatile UInt client_waiting_at;   /* free_seq when it began */
/* For --stats=yes: the simulator's sleeps, the client's wake-ups of it */
static volatile ULong simulator_sleeps;
static ULong  simulator_wakes;

/* The simulator thread sleeps when it has nothing to do, after a spin
   of this many pauses (a few microseconds); the client wakes it once
   this many chunks wait (at most half the ring), or before it waits. */
#define SIMULATOR_SPINS 200
#define WAKE_BATCH      8
/* A client waiting for room spins this long first (some tens of
   microseconds: a sleep and a wake-up are two system calls and a
   reschedule), then sleeps until FREE_BATCH chunks are free, or the
   simulator has nothing left.  20,000 pauses (a few hundred
   microseconds) cost matrix_walk under --cpu=generic a fifth more CPU
   time at the same wall time. */
#define SPINS_BEFORE_SLEEP 1000
#define FREE_BATCH 4

/*------------------------------------------------------------*/
/*--- Raw system calls (amd64 Linux)                       ---*/
/*------------------------------------------------------------*/

#if defined(VGA_amd64)

#define SYS_RT_SIGPROCMASK 14
#define SYS_FUTEX          202
#define SYS_SCHED_GETAFFINITY 204
#define FUTEX_WAIT_PRIVATE 128
#define FUTEX_WAKE_PRIVATE 129

static long raw_syscall4(long no, long a1, long a2, long a3, long a4)
{
   long ret;
   register long r10 __asm__("r10") = a4;
   __asm__ volatile ("syscall"
                     : "=a"(ret)
                     : "a"(no), "D"(a1), "S"(a2), "d"(a3), "r"(r10)
                     : "rcx", "r11", "memory");
   return ret;
}

static void futex_wait(volatile UInt* word, UInt expected)
{
   raw_syscall4(SYS_FUTEX, (long)word, FUTEX_WAIT_PRIVATE, expected, 0);
}

static void futex_wake(volatile UInt* word)
{
   raw_syscall4(SYS_FUTEX, (long)word, FUTEX_WAKE_PRIVATE, 1, 0);
}

/* clone() for a thread that shares everything and runs
   cg_log_simulator_main on `stack_top`; returns the child's tid (or a
   negative error) in the parent.  In assembly because the child starts
   on a fresh stack with no frame to return to. */
long cg_log_clone(unsigned long flags, void* stack_top);
__asm__(
   ".text\n"
   ".globl cg_log_clone\n"
   ".type cg_log_clone, @function\n"
   "cg_log_clone:\n"
   "   movq $56, %rax\n"                 /* SYS_clone */
   "   xorl %edx, %edx\n"
   "   xorl %r10d, %r10d\n"
   "   xorl %r8d, %r8d\n"
   "   syscall\n"
   "   testq %rax, %rax\n"
   "   jnz 1f\n"
   "   xorl %ebp, %ebp\n"
   "   call cg_log_simulator_main\n"   /* never returns; if it did, */
   "   movq $60, %rax\n"                 /* SYS_exit of this thread */
   "   xorl %edi, %edi\n"
   "   syscall\n"
   "1: ret\n"
   ".size cg_log_clone, .-cg_log_clone\n"
   ".previous\n");

static UInt first_chunk_to_simulate;

#define CLONE_THREAD_FLAGS 0x50F00UL  /* VM FS FILES SIGHAND THREAD SYSVSEM */
#define SIMULATOR_STACK_WORDS (64 * 1024 / sizeof(UWord))

/* The simulator's stack has no guard page (the tool cannot change the
   protection of memory the core's address space manager handed out
   without the manager's knowing).  Its frames are a few and small (no
   recursion, nothing that allocates), so instead the stack is filled
   with this pattern before the thread starts: the words still holding
   it show how deep the thread went (--stats=yes), and the lowest ones
   are checked whenever the simulator has caught up with the client
   (cg_log_drain: at the end of the run and before a fork), so that an
   overflow stops the run with a clear message instead of leaving
   memory silently corrupted. */
#define STACK_PATTERN    ((UWord)0x5CA1AB1E5CA1AB1EULL)
#define STACK_RED_WORDS  (1024 / sizeof(UWord))

static UWord* simulator_stack;

static void fill_simulator_stack(void)
{
   UInt i;

   for (i = 0; i < SIMULATOR_STACK_WORDS; i++)
      simulator_stack[i] = STACK_PATTERN;
}

/* Bytes of the simulator's stack ever written since its thread started
   (a word that happens to equal the pattern is not counted). */
static UWord simulator_stack_bytes_used(void)
{
   UInt i = 0;

   if (simulator_stack == NULL)
      return 0;
   while (i < SIMULATOR_STACK_WORDS && simulator_stack[i] == STACK_PATTERN)
      i++;
   return (SIMULATOR_STACK_WORDS - i) * sizeof(UWord);
}

static void check_simulator_stack(void)
{
   if (simulator_stack_bytes_used()
       > (SIMULATOR_STACK_WORDS - STACK_RED_WORDS) * sizeof(UWord))
      VG_(tool_panic)("the simulator thread came within 1 KB of the end "
                      "of its 64 KB stack (or overflowed it)");
}

#endif /* VGA_amd64 */

/*------------------------------------------------------------*/
/*--- The simulator's side                                 ---*/
/*------------------------------------------------------------*/

static inline ULong cycles_now(void)
{
#if defined(VGA_amd64)
   return __builtin_ia32_rdtsc();
#else
   return 0;
#endif
}

/* An eighth of the way to the new value: a few chunks' worth of memory,
   so a phase of the program shows within a few dozen hand-overs */
static inline ULong moving_average(ULong average, ULong value)
{
   return average == 0 ? value
          : (ULong)((Long)average + ((Long)value - (Long)average) / 8);
}

/* The same for the stages' times, which are measured only on chunks of
   their kind: perhaps 4 in 512 (the probes), which must count, while
   one chunk may take many times the usual (the first staged chunk of
   matrix_walk under --cpu=generic faulted in the tags of L2 and LL:
   twenty times; a preempted thread).  So a sample weighs 1/2 but counts
   as at most twice the average: at 1/8 and unbounded, that first chunk
   kept the estimate off for 3,000 chunks. */
static inline ULong stage_average(ULong average, ULong value)
{
   if (average == 0)
      return value;
   if (value > 2 * average)
      value = 2 * average;
   return (average + value) / 2;
}

static Bool chunk_ready(UInt k)
{
   return __atomic_load_n(&handed_over[k].end, __ATOMIC_ACQUIRE) != 0;
}

/* `simulate`: simulate_entries in the client thread; in the simulator
   thread, the second stage under --sim-split */
static void simulate_chunk(UInt k,
                           void (*simulate)(const UWord*, const UWord*))
{
   UWord end = __atomic_load_n(&handed_over[k].end, __ATOMIC_ACQUIRE);

   simulate(chunk_start[k], (const UWord*)end);
   __atomic_store_n(&chunks_simulated, chunks_simulated + 1,
                    __ATOMIC_RELEASE);
   __atomic_store_n(&handed_over[k].end, 0, __ATOMIC_RELEASE);
}

#if defined(VGA_amd64)
/* Chunk k, timed for the split's choice (client_stages_next) */
static void simulate_timed(UInt k)
{
   Bool staged = handed_over[k].staged;
   ULong start = cycles_now();
   volatile ULong* average = staged ? &below_stage_cycles
                                    : &whole_chunk_cycles;

   simulate_chunk(k, staged ? thread_stage : simulate_entries);
   /* (read by the client thread: a word, stored whole) */
   __atomic_store_n(average, stage_average(*average, cycles_now() - start),
                    __ATOMIC_RELAXED);
}

/* Nothing to simulate: a short spin catches a chunk on its way, then
   the thread sleeps until the client wakes it, which it does once
   WAKE_BATCH chunks wait, or before it waits itself.  (Spinning until
   the next chunk, as long as a few hundred microseconds, made the
   thread's CPU time that of the client's waits on programs the client
   sets the pace of.) */
static void idle_until_handed(UInt k)
{
   UInt seen;
   Int spins;

   for (spins = 0; spins < SIMULATOR_SPINS; spins++) {
      if (chunk_ready(k))
         return;
      __asm__ volatile ("pause");
   }
   seen = __atomic_load_n(&work_seq, __ATOMIC_ACQUIRE);
   __atomic_store_n(&simulator_sleeping, 1, __ATOMIC_SEQ_CST);
   /* Sequentially consistent, as the client's store of a chunk's end
      and its load of simulator_sleeping: one of the two threads sees
      the other's store (a plain load on x86-64). */
   if (__atomic_load_n(&handed_over[k].end, __ATOMIC_SEQ_CST) == 0) {
      __atomic_add_fetch(&simulator_sleeps, 1, __ATOMIC_RELAXED);
      futex_wait(&work_seq, seen);
   }
   __atomic_store_n(&simulator_sleeping, 0, __ATOMIC_RELAXED);
}

/* The simulator thread: takes the chunks in order, forever.  It blocks
   every signal (they are the client's) and calls nothing that
   allocates, prints or takes a lock: only the cache models. */
void cg_log_simulator_main(void);
void cg_log_simulator_main(void)
{
   UWord all_signals = ~(UWord)0;
   UInt k = first_chunk_to_simulate;

   raw_syscall4(SYS_RT_SIGPROCMASK, 2 /* SIG_SETMASK */, (long)&all_signals,
                0, sizeof all_signals);
   for (;;) {
      UInt freed;
      if (!chunk_ready(k)) {
         idle_until_handed(k);
         continue;
      }
      simulate_timed(k);
      freed = __atomic_add_fetch(&free_seq, 1, __ATOMIC_SEQ_CST);
      k = (k + 1) % n_chunks;
      /* A waiting client is woken once FREE_BATCH chunks are free
         since it began to wait, or when nothing is left to do */
      if (__atomic_load_n(&client_waiting, __ATOMIC_SEQ_CST)
          && (freed - client_waiting_at >= FREE_BATCH || !chunk_ready(k)))
         futex_wake(&free_seq);
   }
}

/* Whether this process may run on more than one CPU: on one, a
   second thread only takes turns with the client. */
static Bool several_cpus_allowed(void)
{
   UWord mask[16];
   long bytes;
   Int i, n = 0;

   VG_(memset)(mask, 0, sizeof mask);
   bytes = raw_syscall4(SYS_SCHED_GETAFFINITY, 0, sizeof mask, (long)mask, 0);
   if (bytes <= 0)
      return True;   /* cannot tell: assume so */
   for (i = 0; i < 16; i++) {
      UWord m = mask[i];
      for (; m != 0; m &= m - 1)
         n++;
   }
   return n > 1;
}

static void start_simulator_thread(void)
{
   vki_sigset_t all, saved;
   long tid;

   if (simulator_stack == NULL)
      simulator_stack = VG_(malloc)("cg.log.stack",
                                    SIMULATOR_STACK_WORDS * sizeof(UWord));
   /* Again in a forked child, whose copy holds the parent's marks. */
   fill_simulator_stack();
   /* Every chunk is free here (at the first start, and in a forked
      child, whose parent drained the log): the first one handed over
      will be the current one. */
   first_chunk_to_simulate = current_chunk;
   /* Born with every signal blocked: none may reach it before it blocks
      them itself. */
   VG_(memset)(&all, 0xFF, sizeof all);
   VG_(sigprocmask)(VKI_SIG_SETMASK, &all, &saved);
   tid = cg_log_clone(CLONE_THREAD_FLAGS,
                      simulator_stack + SIMULATOR_STACK_WORDS);
   VG_(sigprocmask)(VKI_SIG_SETMASK, &saved, NULL);
   if (tid < 0) {
      VG_(message)(Vg_DebugMsg, "cachegrind: no simulator thread (error %ld);"
                   " simulating in the client's thread\n", -tid);
      use_thread = False;
      stores_around_caches = False;
      thread_status = "no (clone failed)";
      return;
   }
   thread_running = True;
   thread_status = "yes";
}
#endif

/*------------------------------------------------------------*/
/*--- The client's side                                    ---*/
/*------------------------------------------------------------*/

/* Only reached with a simulator thread, which frees chunks. */
/* The client's waits (SPINS_BEFORE_SLEEP, FREE_BATCH); the
   simulator's sleeps (SIMULATOR_SPINS, WAKE_BATCH). */
static void wake_simulator(void)
{
#if defined(VGA_amd64)
   if (__atomic_load_n(&simulator_sleeping, __ATOMIC_SEQ_CST)) {
      simulator_wakes++;
      futex_wake(&work_seq);
   }
#endif
}

static void wait_for_free_chunk(UInt seen)
{
#if defined(VGA_amd64)
   Int spins;

   if (client_service != NULL)
      client_service();
   /* It may sleep with chunks handed over (fewer than WAKE_BATCH) */
   wake_simulator();
   for (spins = 0; spins < SPINS_BEFORE_SLEEP; spins++) {
      if (__atomic_load_n(&free_seq, __ATOMIC_ACQUIRE) != seen)
         return;
      __asm__ volatile ("pause");
   }
   __atomic_store_n(&client_waiting_at, seen, __ATOMIC_RELAXED);
   __atomic_store_n(&client_waiting, 1, __ATOMIC_SEQ_CST);
   futex_wait(&free_seq, seen);
   __atomic_store_n(&client_waiting, 0, __ATOMIC_RELAXED);
#else
   tl_assert(0);
#endif
}

void cg_log_init(Bool enabled, Bool with_thread, UInt chunks,
                 UInt alloc_limit)
{
   log_enabled = enabled;
#if defined(VGA_amd64)
   use_thread = with_thread;
#else
   use_thread = False;
#endif
   if (!use_thread)
      thread_status = "no (--sim-thread=no)";
   stores_around_caches = use_thread;
   if (!enabled)
      return;
   tl_assert(chunks >= 2 && chunks <= CG_LOG_MAX_CHUNKS);
   n_chunks = chunks;
   chunks_allowed = alloc_limit;
   chunks_allocated = 1;
   chunk_start[0] = VG_(malloc)("cg.log.chunk", CHUNK_WORDS * sizeof(UWord));
   current_chunk = 0;
   log.cursor = chunk_start[0];
   log.limit = chunk_start[0] + (use_thread ? CHUNK_WORDS : PIECE_WORDS);
}

Bool cg_log_stores_around_caches(void)
{
   return stores_around_caches;
}

Bool cg_log_enabled(void)          { return log_enabled; }

void cg_log_set_data_profile(void (*simulate)(const UWord*, const UWord*),
                             void (*service)(void))
{
   simulate_entries = simulate;
   client_service = service;
}

void cg_log_set_split(UWord* (*client)(UWord*, const UWord*),
                      void (*thread)(const UWord*, const UWord*),
                      void (*whole)(const UWord*, const UWord*),
                      Bool always)
{
   client_stage = client;
   thread_stage = thread;
   simulate_entries = whole;
   split_always = always;
}

Bool cg_log_simulator_running(void)
{
   return thread_running;
}

ULong cg_log_chunks_handed_over(void)
{
   return n_handovers;
}

ULong cg_log_chunks_simulated(void)
{
   return __atomic_load_n(&chunks_simulated, __ATOMIC_ACQUIRE);
}

/* Group checkers append in their own machine code while the current
   chunk has room: they read and write these two words. */
UWord* cg_log_cursor_and_limit(void)
{
   return (UWord*)&log;
}


/* Gives the current chunk to the simulator and moves to the next one,
   once that one is free. */
static UWord cg_log_make_room(void);

/* A chunk is allocated when the log first reaches it, while the
   program runs.  By then the program may have used up the address
   space (3.19, which allocates nothing then, goes on), so a failure is
   not fatal: the chunk takes chunk 0's memory instead, and from then
   on the client waits at each chunk until the simulator has read every
   chunk handed over (slower, never wrong). */
static void allocate_chunk(UInt k)
{
   void* mem = chunks_allocated < chunks_allowed
               ? cg_shadow_alloc(CHUNK_WORDS * sizeof(UWord)) : NULL;

   if (mem != NULL) {
      chunks_allocated++;
   } else {
      /* Said only with -v: stderr stays 3.19's, which has nothing
         to say here; --stats=yes says it too. */
      if (!ring_shares_memory && VG_(clo_verbosity) > 1)
         VG_(message)(Vg_DebugMsg, "cachegrind: no memory for chunk %u of "
                      "the access log; its %u allocated chunks are "
                      "reused one at a time\n", k, k);
      ring_shares_memory = True;
      mem = chunk_start[0];
   }
   chunk_start[k] = mem;
}

/* --sim-split=yes: whether the client thread makes the next chunk's L1
   stage.  Per chunk, with C the client's own work, L its L1 stage, B
   the simulator's stage below the L1s and W a whole chunk in the
   simulator: whole, a run goes at the pace of the slower of C and W;
   split, of C + L and B.  (W is not L + B: the L1 stage costs the
   client about twice what it costs the simulator, whose caches keep the
   L1s' tags.  Choosing by C < B alone split pointer_chase's chunks
   under --cpu=generic where whole ones were faster: 2.78 s against
   2.10 s split never.)  C is measured at every hand-over, W on whole
   chunks, L and B only on staged ones, so PROBE_CHUNKS of every
   PROBE_EVERY are staged whatever the choice.  While a chunk handed
   whole is in the simulator the L1s are its: a staged chunk waits for
   it, and the simulator may meanwhile empty the ring, which the client
   then refills alone; so from whole chunks to staged ones only for a
   gain of more than 1 / SWITCH_MARGIN. */
#define PROBE_EVERY   512
#define PROBE_CHUNKS  4
#define SWITCH_MARGIN 8

static Bool split_is_faster(void)
{
   ULong below = __atomic_load_n(&below_stage_cycles, __ATOMIC_RELAXED);
   ULong whole = __atomic_load_n(&whole_chunk_cycles, __ATOMIC_RELAXED);
   ULong split_pace, whole_pace;

   if (below == 0)
      return False;                /* not measured yet */
   if (whole == 0)
      whole = l1_stage_cycles + below;
   split_pace = client_work_cycles + l1_stage_cycles;
   if (below > split_pace)
      split_pace = below;
   whole_pace = client_work_cycles > whole ? client_work_cycles : whole;
   if (last_whole_handover == n_handovers)   /* the last chunk was whole */
      return split_pace + split_pace / SWITCH_MARGIN < whole_pace;
   return split_pace < whole_pace;
}

static Bool client_stages_next(void)
{
   if (!split_always && n_handovers % PROBE_EVERY >= PROBE_CHUNKS
       && !split_is_faster())
      return False;
   if (__atomic_load_n(&chunks_simulated, __ATOMIC_ACQUIRE)
       < last_whole_handover) {
      n_waits_for_whole++;
      for (;;) {
         UInt seen = __atomic_load_n(&free_seq, __ATOMIC_ACQUIRE);
         if (__atomic_load_n(&chunks_simulated, __ATOMIC_ACQUIRE)
             >= last_whole_handover)
            break;
         wait_for_free_chunk(seen);
      }
   }
   return True;
}

static void hand_over_current(void)
{
   UInt k = current_chunk;
   UInt handed = k;

   if (client_service != NULL)
      client_service();
   /* With a simulator thread (without one, the whole path runs at once
      below) */
   if (thread_running && client_stage != NULL) {
      ULong start = cycles_now();
      /* Not at the first hand-over, nor for a chunk handed before it
         is full (the drain at the exit or at a fork: what the client
         did meanwhile is not a chunk's work) */
      if (client_resumed_at != 0 && log.cursor >= log.limit)
         client_work_cycles = moving_average(client_work_cycles,
                                             start - client_resumed_at);
      handed_over[k].staged = client_stages_next();
      if (handed_over[k].staged) {
         start = cycles_now();
         log.cursor = client_stage(chunk_start[k], log.cursor);
         l1_stage_cycles = stage_average(l1_stage_cycles,
                                         cycles_now() - start);
         n_client_staged++;
      }
   } else {
      handed_over[k].staged = False;
   }
   n_handovers++;
   if (!handed_over[k].staged)
      last_whole_handover = n_handovers;
   /* The entries were stored non-temporally (weakly ordered): all of
      them must be visible before the chunk's end is. */
#if defined(VGA_amd64)
   __asm__ volatile ("sfence" ::: "memory");
#endif
   __atomic_store_n(&handed_over[k].end, (UWord)log.cursor,
                    __ATOMIC_RELEASE);
   if (thread_running) {
      UInt batch = n_chunks / 2 < WAKE_BATCH ? n_chunks / 2 : WAKE_BATCH;
      __atomic_add_fetch(&work_seq, 1, __ATOMIC_SEQ_CST);
      if (n_handovers - __atomic_load_n(&chunks_simulated, __ATOMIC_ACQUIRE)
          >= batch)
         wake_simulator();
   } else {
      /* Simulated already: the same chunk is free again. */
      simulate_chunk(k, simulate_entries);
      log.cursor = chunk_start[k];
      log.limit = chunk_start[k] + PIECE_WORDS;
      return;
   }
   k = (k + 1) % n_chunks;
   /* The simulator reads chunk_start[k] only after the release store
      that hands chunk k over, so it sees this. */
   if (chunk_start[k] == NULL)
      allocate_chunk(k);
   /* Once chunks share memory, a chunk's memory may still hold one the
      simulator has not read: wait until it has read all of them. */
   for (;;) {
      UInt seen = __atomic_load_n(&free_seq, __ATOMIC_ACQUIRE);
      if (!chunk_ready(k) && !(ring_shares_memory && chunk_ready(handed)))
         break;
      n_waits_for_room++;
      wait_for_free_chunk(seen);
   }
   current_chunk = k;
   log.cursor = chunk_start[k];
   log.limit = chunk_start[k] + CHUNK_WORDS;
   client_resumed_at = cycles_now();
}

/* The chunk is full: hand it over and continue in the next one. */
static UWord cg_log_make_room(void)
{
#if defined(VGA_amd64)
   if (use_thread && !thread_running) {
      if (several_cpus_allowed()) {
         start_simulator_thread();
      } else {
         use_thread = False;
         stores_around_caches = False;
         thread_status = "no (only one CPU allowed)";
      }
   }
#endif
   hand_over_current();
   return (UWord)log.cursor;
}

void cg_log_drain(void)
{
   UInt k;

   if (!log_enabled)
      return;
   if (log.cursor != chunk_start[current_chunk])
      hand_over_current();
   /* Wait until the simulator has caught up with every chunk. */
   for (k = 0; k < n_chunks; k++) {
      for (;;) {
         UInt seen = __atomic_load_n(&free_seq, __ATOMIC_ACQUIRE);
         if (!chunk_ready(k))
            break;
         wait_for_free_chunk(seen);
      }
   }
#if defined(VGA_amd64)
   if (thread_running)
      check_simulator_stack();
#endif
}

/* A forked child has only the thread that called fork: it starts its
   own simulator when it first needs one.  The parent drained before
   the fork, so no chunk is pending in either process. */
static void before_fork(ThreadId tid)  { cg_log_drain(); }
static void in_child(ThreadId tid)
{
   thread_running = False;
   /* The parent's simulator may have been asleep at the fork. */
   simulator_sleeping = 0;
   client_waiting = 0;
   if (use_thread)
      thread_status = "not needed (the log never filled)";
}

void cg_log_register_fork_handlers(void)
{
   if (log_enabled)
      VG_(atfork)(before_fork, NULL, in_child);
}

/* For --stats=yes.  Not prefixed "cachegrind:": those lines are the
   ones Cachegrind 3.19 prints, and stay exactly those. */
void cg_log_print_stats(void)
{
   if (!log_enabled) {
      VG_(dmsg)("access log: off\n");
      return;
   }
   VG_(dmsg)("access log: %llu chunks of %d entries simulated; simulator "
             "thread: %s; %llu waits for a free chunk; ring of %u chunks, "
             "%u allocated%s\n",
             n_handovers, (use_thread ? CHUNK_WORDS : PIECE_WORDS) / 2,
             thread_status,
             n_waits_for_room, n_chunks, chunks_allocated,
             ring_shares_memory ? " (the rest share chunk 0's memory: "
                                  "no memory was left for them)" : "");
   if (thread_running)
      VG_(dmsg)("simulator thread: slept %llu times when it had nothing to "
                "do, woken %llu times by the client\n",
                __atomic_load_n(&simulator_sleeps, __ATOMIC_RELAXED),
                simulator_wakes);
   if (client_stage != NULL)
      VG_(dmsg)("access log split (--sim-split=%s): %llu chunks' L1 look-ups "
                "made in the client thread, the rest in the simulator "
                "thread; %llu handed whole; %llu waits for whole ones; "
                "per chunk, last: client %llu, L1 stage %llu, below %llu, "
                "whole %llu kcycles\n",
                split_always ? "always" : "yes", n_client_staged,
                n_handovers - n_client_staged, n_waits_for_whole,
                client_work_cycles / 1000, l1_stage_cycles / 1000,
                below_stage_cycles / 1000, whole_chunk_cycles / 1000);
}

void cg_log_print_thread_stats(void)
{
#if defined(VGA_amd64)
   if (simulator_stack != NULL)
      VG_(dmsg)("simulator stack: %lu of %lu bytes used\n",
                simulator_stack_bytes_used(),
                (UWord)(SIMULATOR_STACK_WORDS * sizeof(UWord)));
#endif
}

/*------------------------------------------------------------*/
/*--- Helpers of compiled code                             ---*/
/*------------------------------------------------------------*/

/* Compiled code calls these for the accesses its MRU test did not
   settle.  They do to the MRU filter what the simulator will do to the
   cache (the lines touched become their sets' MRU lines) and log the
   access: a few stores, no search, no data-dependent branch.  Their
   arguments are the entry itself where it is a constant. */

/* What the helpers need of the two mirrors (cg_cache.h), in the form
   each layout's update takes without a shift by a variable count:
   - I1 is laid out by block: slot = mru[block & set_mask], value block;
   - D1 by line address: the slot is at byte offset (addr & slot_mask)
     and holds addr & line_mask. */
static struct {
   UWord* mru;
   UWord  set_mask;
   Int    line_bits;
} i1_filter;

static struct {
   UChar* mru;
   UWord  slot_mask;
   UWord  line_mask;
} d1_filter;

void cg_log_set_filters(const CacheLevel* i1, const CacheLevel* d1)
{
   tl_assert(i1->mru_stride_bits == (sizeof(UWord) == 8 ? 3 : 2)
             && i1->mru_value_shift == 0);
   tl_assert(d1->mru_stride_bits == d1->line_bits
             && d1->mru_value_shift == d1->line_bits);
   i1_filter.mru = i1->mru;
   i1_filter.set_mask = i1->set_mask;
   i1_filter.line_bits = i1->line_bits;
   d1_filter.mru = (UChar*)d1->mru;
   d1_filter.slot_mask = d1->set_mask << d1->line_bits;
   d1_filter.line_mask = ~(((UWord)1 << d1->line_bits) - 1);
}

/* The chunk is full: make room, then append.  Out of line and reached
   by a tail call, so that the helpers' common path needs no stack
   frame and saves no register. */
static __attribute__((noinline)) void append_after_room(UWord first,
                                                         UWord second)
{
   UWord* at = (UWord*)cg_log_make_room();

   at[0] = first;
   at[1] = second;
   log.cursor = at + 2;
}

static inline void append(UWord first, UWord second)
{
   UWord* at = log.cursor;

   if (UNLIKELY(at >= log.limit)) {
      append_after_room(first, second);
      return;
   }
   if (stores_around_caches)
      cg_log_store_entry(at, first, second);
   else {
      at[0] = first;
      at[1] = second;
   }
   log.cursor = at + 2;
}

/* The append alone: group checkers update the mirror themselves and
   call this when the chunk is full. */
VG_REGPARM(2) void cg_log_append_words(UWord first, UWord second)
{
   append(first, second);
}

/* The first and last lines of [addr, addr+size) become MRU (without a
   straddle both stores write the same slot).  The filter's fields are
   read into locals first: the compiler cannot tell that the first store
   leaves them alone, and would load them again. */
static inline void touch_i1(Addr addr, UWord size)
{
   UWord* mru = i1_filter.mru;
   UWord set_mask = i1_filter.set_mask;
   UWord first = addr >> i1_filter.line_bits;
   UWord last  = (addr + size - 1) >> i1_filter.line_bits;

   mru[first & set_mask] = first;
   mru[last & set_mask] = last;
}

static inline void touch_d1(Addr addr, UWord size)
{
   UChar* mru = d1_filter.mru;
   UWord slot_mask = d1_filter.slot_mask;
   UWord line_mask = d1_filter.line_mask;
   Addr last = addr + size - 1;

   *(UWord*)(mru + (addr & slot_mask)) = addr & line_mask;
   *(UWord*)(mru + (last & slot_mask)) = last & line_mask;
}

/* The entry is (cost centre | LOG_CODE_FETCH), then the address with
   the length on top. */
VG_REGPARM(1) void cg_log_fetch(const InstrInfo* ii)
{
   touch_i1(ii->addr, ii->len);
   append((UWord)ii->cc | LOG_CODE_FETCH,
          ii->addr | (ii->len << LOG_SIZE_SHIFT));
}

/* `entry` is (cost centre | the access's code).  For the cold
   helpers; group checkers do the same in their chunk's routines
   (cg_checkers.c). */
#define SIZED_LOG_HELPERS(n)                                             \
   VG_REGPARM(2) void cg_log_data##n(UWord entry, Addr addr)             \
   {                                                                     \
      touch_d1(addr, n);                                                 \
      append(entry, addr);                                               \
   }

SIZED_LOG_HELPERS(1)
SIZED_LOG_HELPERS(2)
SIZED_LOG_HELPERS(4)
SIZED_LOG_HELPERS(8)
SIZED_LOG_HELPERS(16)
SIZED_LOG_HELPERS(32)

/* Other sizes: the size goes on top of the address. */
VG_REGPARM(3) void cg_log_data(UWord entry, Addr addr, UWord size)
{
   touch_d1(addr, size);
   append(entry, addr | (size << LOG_SIZE_SHIFT));
}

/* Guarded accesses (called only if the guard holds) are counted here,
   in the client's thread: the folding of execution counters writes the
   same Dr/Dw counters, in that thread, whenever a translation is
   discarded, so the simulator thread must not. */
static inline CostCentre* entry_cost_centre(UWord entry)
{
   return (CostCentre*)(entry & ~(UWord)LOG_CODE_MASK);
}

VG_REGPARM(3) void cg_log_guarded_read(UWord entry, Addr addr, UWord size)
{
   entry_cost_centre(entry)->count[EV_DR]++;
   touch_d1(addr, size);
   append(entry, addr | (size << LOG_SIZE_SHIFT));
}

VG_REGPARM(3) void cg_log_guarded_write(UWord entry, Addr addr, UWord size)
{
   entry_cost_centre(entry)->count[EV_DW]++;
   touch_d1(addr, size);
   append(entry, addr | (size << LOG_SIZE_SHIFT) | LOG_GUARDED_WRITE);
}
