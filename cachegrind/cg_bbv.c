/* cg_bbv.c -- SimPoint basic block vectors (--bb-out-file), counted the
   way Valgrind's exp-bbv counts them.

   Owns: the block records, each thread's vector for the current
   interval, and the bb and pc files.
   Must not: change any count of the main profile.

   A block is what VEX translates as one superblock with chasing and
   unrolling switched off (cg_main.c does that when this is enabled),
   named by its first instruction's address.  Ids are given in order of
   first translation, from 1.  A block can leave early by a side exit,
   so each run of instructions up to an exit is counted by its own
   call.  Each adds its instructions to the running thread's vector
   and instruction total;
   when the count for the interval exceeds --bb-interval-size, at the
   instruction that takes it past (as exp-bbv, which counts instruction
   by instruction), the vector is written as one line and cleared, and
   the count goes down by the size.

   A rep-prefixed string instruction runs once per iteration (VEX
   jumps back to it while the count register is not zero).  As in
   exp-bbv it counts once per execution, not per iteration: it is left
   out of its block's instruction count, a call at the instruction
   notes a new execution whenever something else ran since it last
   did, and that one instruction is credited to the next block the
   thread runs.  A run's count is taken when it starts, before any
   rep instruction in it.

   Files: the first thread's vectors go to the --bb-out-file name, each
   other thread's to that name followed by ".<tid>"; each ends with a
   few '#' summary lines.  Files are group-readable, as exp-bbv's.
   --pc-out-file (no default, as in exp-bbv) lists "F:<id>:<address in
   hex>:<function>" for every block that ran, by address.  cg_file.c
   writes them all (under temporary names, named at exit).  A forked
   child keeps only the thread that called fork.  An image that exec
   replaces writes none: see cg_main.c. */

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"
#include "cg_bbv.h"
#include "cg_options.h"
#include "cg_file.h"

/* A block, or (is_rep) a rep-prefixed instruction: both are things a
   thread "last ran". */
typedef struct _BbvBlock {
   struct _BbvBlock* next;      /* VgHashNode layout: next, key */
   UWord             key;       /* address of the first instruction */
   UInt              id;        /* blocks: vector index; reps: own ids */
   Bool              is_rep;
} BbvBlock;

typedef struct {
   Bool       active;
   ULong*     counts;           /* by block id, this interval */
   UInt       capacity;
   UInt*      touched;          /* ids with a count, in first-run order */
   UInt       n_touched, touched_capacity;
   ULong      interval_instrs, total_instrs;
   ULong      rep_iterations, rep_executions, total_fldcw;
   const BbvBlock* last;
   ULong      pending_reps;
   UInt       intervals;
   CgFile*    file;             /* opened at the first vector */
   Bool       file_failed;      /* could not be opened or reopened
                                   (reported once) */
} ThreadVectors;

static Bool           enabled;
static VgHashTable*   blocks;        /* BbvBlock by address */
static VgHashTable*   reps;          /* rep instructions by address */
static UInt           n_block_ids, n_rep_ids;
static ThreadVectors* threads;       /* indexed by ThreadId */
static ThreadVectors* running;

static void before_fork(ThreadId tid);
static void after_fork_in_parent(ThreadId tid);
static void after_fork_in_child(ThreadId tid);

Bool cg_bbv_enabled(void) { return enabled; }

void cg_bbv_init(void)
{
   if (cg_clo.bb_out_file == NULL)
      return;
   enabled = True;
   blocks  = VG_(HT_construct)("cg.bbv.blocks");
   reps    = VG_(HT_construct)("cg.bbv.reps");
   threads = VG_(calloc)("cg.bbv.threads", VG_N_THREADS,
                         sizeof(ThreadVectors));
   running = &threads[1];
   /* The first thread's file is written even if it has no vector. */
   threads[1].active = True;
   VG_(atfork)(before_fork, after_fork_in_parent, after_fork_in_child);
   cg_file_expect("--bb-out-file", cg_clo.bb_out_file, True);
   if (cg_clo.pc_out_file != NULL)
      cg_file_expect("--pc-out-file", cg_clo.pc_out_file, False);
}

void cg_bbv_thread_runs(ThreadId tid)
{
   if (enabled)
      running = &threads[tid];
}

/*------------------------------------------------------------*/
/*--- Looking at instructions                              ---*/
/*------------------------------------------------------------*/

/* The opcode byte after any legacy and REX prefixes; records whether a
   rep/repne prefix was among them. */
static const UChar* skip_prefixes(const UChar* p, Bool* rep)
{
   *rep = False;
   for (;;) {
      UChar b = *p;
      if (b == 0xF2 || b == 0xF3)
         *rep = True;
      else if (!(b == 0x66 || b == 0x67 || b == 0x2E || b == 0x3E
                 || b == 0x26 || b == 0x36 || b == 0x64 || b == 0x65
                 || b == 0xF0 || (sizeof(Addr) == 8 && (b & 0xF0) == 0x40)))
         return p;
      p++;
   }
}

/* movs, cmps, stos, lods, scas with a rep or repne prefix. */
Bool cg_bbv_is_rep_string_instr(Addr addr)
{
   Bool rep;
   UChar op = *skip_prefixes((const UChar*)addr, &rep);

   return rep && ((op >= 0xA4 && op <= 0xA7) || (op >= 0xAA && op <= 0xAF));
}

/* fldcw m16: D9 /5 with a memory operand. */
Bool cg_bbv_is_fldcw(Addr addr)
{
   Bool rep;
   const UChar* p = skip_prefixes((const UChar*)addr, &rep);

   return p[0] == 0xD9 && ((p[1] >> 3) & 7) == 5 && (p[1] >> 6) != 3;
}

static BbvBlock* record_for(Addr addr, Bool is_rep)
{
   VgHashTable* table = is_rep ? reps : blocks;
   BbvBlock* b = VG_(HT_lookup)(table, addr);

   if (b == NULL) {
      b = VG_(calloc)("cg.bbv.block", 1, sizeof(BbvBlock));
      b->key = addr;
      b->id = is_rep ? ++n_rep_ids : ++n_block_ids;
      b->is_rep = is_rep;
      VG_(HT_add_node)(table, b);
   }
   return b;
}

struct _BbvBlock* cg_bbv_block_for(Addr addr) { return record_for(addr, False); }
struct _BbvBlock* cg_bbv_rep_for(Addr addr)   { return record_for(addr, True); }

/*------------------------------------------------------------*/
/*--- Files                                                ---*/
/*------------------------------------------------------------*/

/* Group-readable, as exp-bbv's files. */
#define BBV_FILE_MODE (VKI_S_IRUSR | VKI_S_IWUSR | VKI_S_IRGRP)

/* Opened at a thread's first vector (in a forked child, which names
   its files with its own pid, at its first vector after the fork). */
static Bool ensure_open(ThreadVectors* t)
{
   ThreadId tid = (ThreadId)(t - threads);
   HChar suffix[16];

   if (t->file != NULL)
      return True;
   if (t->file_failed)
      return False;
   VG_(sprintf)(suffix, ".%u", tid);
   t->file = cg_file_open("--bb-out-file", cg_clo.bb_out_file,
                          tid == 1 ? NULL : suffix, BBV_FILE_MODE);
   if (cg_file_opened(t->file))
      return True;
   VG_(umsg)("error: can't open basic block vector file '%s'; "
             "it will be missing.\n", cg_file_name(t->file));
   cg_file_forget(t->file);
   t->file = NULL;
   t->file_failed = True;
   return False;
}

/* Around a fork: buffered lines are written before it, so that the
   child cannot write them again; the parent then appends. */
static void before_fork(ThreadId tid)
{
   ThreadId i;

   for (i = 1; i < VG_N_THREADS; i++)
      if (threads[i].file != NULL)
         cg_file_suspend(threads[i].file);
}

static void after_fork_in_parent(ThreadId tid)
{
   ThreadId i;

   for (i = 1; i < VG_N_THREADS; i++)
      if (threads[i].file != NULL && !cg_file_resume(threads[i].file)) {
         cg_file_commit(threads[i].file);    /* removes what was written */
         threads[i].file = NULL;
         threads[i].file_failed = True;      /* a new file would lack it */
      }
}

static void forget_thread(ThreadVectors* t)
{
   if (t->file != NULL)
      cg_file_forget(t->file);
   VG_(free)(t->counts);
   VG_(free)(t->touched);
   VG_(memset)(t, 0, sizeof *t);
}

/* Only the thread that called fork goes on in the child: the others'
   vectors are the parent's to write, and their slots may be reused by
   the child's own threads.  The forking thread's vectors go on from
   what it counted, into a file of the child's. */
static void after_fork_in_child(ThreadId tid)
{
   ThreadId i;

   for (i = 1; i < VG_N_THREADS; i++)
      if (i != tid)
         forget_thread(&threads[i]);
   if (threads[tid].file != NULL) {
      cg_file_forget(threads[tid].file);
      threads[tid].file = NULL;
   }
   threads[tid].file_failed = False;    /* the child's name is its own */
   running = &threads[tid];
}

/* At an exec the image's end, where the files would be finished,
   never comes: they are given up (their temporary files removed)
   before the core replaces the image.  Should the exec fail, a thread
   given up opens a new file at its next vector (file_failed is left
   false), going on from what it counted, as a forked child's.  The pc
   file is written only at the end, so nothing of it exists yet. */
HChar* cg_bbv_give_up_for_exec(UInt* n_more)
{
   HChar* first = NULL;
   ThreadId i;

   *n_more = 0;
   if (!enabled)
      return NULL;
   for (i = 1; i < VG_N_THREADS; i++) {
      ThreadVectors* t = &threads[i];
      if (t->file == NULL)
         continue;
      if (first == NULL)
         first = VG_(strdup)("cg.bbv.name", cg_file_name(t->file));
      else
         (*n_more)++;
      cg_file_abandon(t->file);
      t->file = NULL;
   }
   return first;
}

static void write_vector(ThreadVectors* t)
{
   UInt i;

   if (ensure_open(t)) {
      cg_file_put_str(t->file, "T");
      for (i = 0; i < t->n_touched; i++) {
         cg_file_put_str(t->file, ":");
         cg_file_put_ulong(t->file, t->touched[i]);
         cg_file_put_str(t->file, ":");
         cg_file_put_ulong(t->file, t->counts[t->touched[i]]);
         cg_file_put_str(t->file, "   ");
      }
      cg_file_put_str(t->file, "\n");
   }
   for (i = 0; i < t->n_touched; i++)
      t->counts[t->touched[i]] = 0;
   t->n_touched = 0;
   /* The instruction that ended the interval also starts the next
      one's count (exp-bbv's intervals are size+1, then size each). */
   t->interval_instrs -= cg_clo.bb_interval_size;
   t->intervals++;
}

/*------------------------------------------------------------*/
/*--- Counting                                             ---*/
/*------------------------------------------------------------*/

static void make_room(ThreadVectors* t, UInt id)
{
   UInt old = t->capacity, cap = old == 0 ? 1024 : old;

   while (cap <= id)
      cap *= 2;
   t->counts = VG_(realloc)("cg.bbv.counts", t->counts, cap * sizeof(ULong));
   VG_(memset)(t->counts + old, 0, (cap - old) * sizeof(ULong));
   t->capacity = cap;
}

static void touch(ThreadVectors* t, UInt id)
{
   if (t->n_touched == t->touched_capacity) {
      t->touched_capacity = t->touched_capacity == 0
                            ? 1024 : 2 * t->touched_capacity;
      t->touched = VG_(realloc)("cg.bbv.touched", t->touched,
                                t->touched_capacity * sizeof(UInt));
   }
   t->touched[t->n_touched++] = id;
}

static void add(ThreadVectors* t, UInt id, ULong n)
{
   if (t->counts[id] == 0)
      touch(t, id);
   t->counts[id] += n;
   t->interval_instrs += n;
   t->total_instrs += n;
}

/* The block's instructions, one by one as far as intervals go: an
   interval ends at the instruction that completes it, even inside a
   block (a block without a branch always runs to its end).  A pending
   rep instruction rides on the block's first instruction. */
static void count_run(ThreadVectors* t, const BbvBlock* b, ULong n_instrs)
{
   ULong left = n_instrs, extra = t->pending_reps;
   ULong size = cg_clo.bb_interval_size;

   t->pending_reps = 0;
   while (left > 0) {
      /* the i-th instruction brings the interval's count to
         interval_instrs + extra + i; the interval ends at the first
         one that takes it past the size */
      ULong needed = size + 1 - t->interval_instrs;
      ULong i = needed > extra ? needed - extra : 1;
      if (i > left) {
         add(t, b->id, left + extra);
         return;
      }
      add(t, b->id, i + extra);
      write_vector(t);
      left -= i;
      extra = 0;
   }
}

VG_REGPARM(2) void cg_bbv_run(struct _BbvBlock* b, UWord packed)
{
   ThreadVectors* t = running;

   t->active = True;
   if (b->id >= t->capacity)
      make_room(t, b->id);
   t->last = b;
   t->total_fldcw += packed >> 16;
   count_run(t, b, packed & 0xFFFF);
}

VG_REGPARM(1) void cg_bbv_rep(struct _BbvBlock* rep)
{
   ThreadVectors* t = running;

   t->active = True;
   t->rep_iterations++;
   /* Later iterations come straight back to the same instruction. */
   if (t->last == rep)
      return;
   t->last = rep;
   t->pending_reps++;
   t->rep_executions++;

}

/*------------------------------------------------------------*/
/*--- At exit                                              ---*/
/*------------------------------------------------------------*/

static void finish_thread(ThreadVectors* t, ThreadId tid)
{
   if (!ensure_open(t))
      return;
   cg_file_printf(t->file, "\n\n# Thread %u\n", tid);
   cg_file_printf(t->file, "#   Total intervals: %u (Interval Size %llu)\n",
                  t->intervals, cg_clo.bb_interval_size);
   cg_file_printf(t->file, "#   Total instructions: %llu\n",
                  t->total_instrs);
   /* exp-bbv's words: "reps" are iterations, "unique" executions. */
   cg_file_printf(t->file, "#   Total reps: %llu\n", t->rep_iterations);
   cg_file_printf(t->file, "#   Unique reps: %llu\n", t->rep_executions);
   cg_file_printf(t->file, "#   Total fldcw instructions: %llu\n\n",
                  t->total_fldcw);
   cg_file_commit(t->file);
   t->file = NULL;
}

static Int by_address(const void* a, const void* b)
{
   UWord x = (*(const BbvBlock* const*)a)->key;
   UWord y = (*(const BbvBlock* const*)b)->key;
   return x < y ? -1 : x > y ? 1 : 0;
}

static void write_pc_file(void)
{
   CgFile* f = cg_file_open("--pc-out-file", cg_clo.pc_out_file, NULL,
                            BBV_FILE_MODE);
   UInt n, i;
   VgHashNode** all;

   if (!cg_file_opened(f)) {
      VG_(umsg)("error: can't open '%s' for writing\n", cg_file_name(f));
      cg_file_forget(f);
      return;
   }
   all = VG_(HT_to_array)(blocks, &n);
   VG_(ssort)(all, n, sizeof(VgHashNode*), by_address);
   for (i = 0; i < n; i++) {
      const BbvBlock* b = (const BbvBlock*)all[i];
      const HChar* fn;
      if (!VG_(get_fnname)(VG_(current_DiEpoch)(), b->key, &fn))
         fn = "";
      cg_file_put_str(f, "F:");
      cg_file_put_ulong(f, b->id);
      cg_file_put_str(f, ":");
      cg_file_put_hex(f, b->key);
      cg_file_put_str(f, ":");
      cg_file_put_str(f, fn);
      cg_file_put_str(f, "\n");
   }
   cg_file_commit(f);
   VG_(free)(all);
}

void cg_bbv_fini(void)
{
   ThreadId tid;

   if (!enabled)
      return;
   for (tid = 1; tid < VG_N_THREADS; tid++)
      if (threads[tid].active)
         finish_thread(&threads[tid], tid);
   if (cg_clo.pc_out_file != NULL)
      write_pc_file();
}
