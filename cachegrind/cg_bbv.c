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
   hex>:<function>" for every block that ran, by address.  All files are
   written under temporary names and renamed at exit. */

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
#include "cg_tool.h"

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
   VgFile*    file;
   Bool       reopen;           /* closed for a fork */
   HChar*     final_name;
   HChar*     temp_name;
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
   VG_(atfork)(before_fork, after_fork_in_parent, after_fork_in_child);
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

static Bool open_vector_file(ThreadVectors* t, ThreadId tid)
{
   HChar* base = VG_(expand_file_name)("--bb-out-file", cg_clo.bb_out_file);

   VG_(free)(t->final_name);
   VG_(free)(t->temp_name);
   t->final_name = VG_(malloc)("cg.bbv.name", VG_(strlen)(base) + 16);
   if (tid == 1)
      VG_(strcpy)(t->final_name, base);
   else
      VG_(sprintf)(t->final_name, "%s.%u", base, tid);
   VG_(free)(base);
   t->temp_name = VG_(malloc)("cg.bbv.name", VG_(strlen)(t->final_name) + 32);
   VG_(sprintf)(t->temp_name, "%s.tmp.%d", t->final_name, VG_(getpid)());
   t->file = VG_(fopen)(t->temp_name,
                        VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
                        VKI_S_IRUSR | VKI_S_IWUSR | VKI_S_IRGRP);
   if (t->file == NULL) {
      VG_(umsg)("error: can't open basic block vector file '%s'; "
                "it will be missing.\n", t->final_name);
      return False;
   }
   return True;
}

/* Opened at a thread's first vector (in a forked child, which names
   its files with its own pid, at its first vector after the fork). */
static Bool ensure_open(ThreadVectors* t)
{
   if (t->file != NULL)
      return True;
   return open_vector_file(t, (ThreadId)(t - threads));
}

/* Around a fork: buffered lines are written before it, so that the
   child cannot write them again; the parent then appends. */
static void before_fork(ThreadId tid)
{
   ThreadId i;

   for (i = 1; i < VG_N_THREADS; i++)
      if (threads[i].file != NULL) {
         VG_(fclose)(threads[i].file);
         threads[i].file = NULL;
         threads[i].reopen = True;
      }
}

static void after_fork_in_parent(ThreadId tid)
{
   ThreadId i;

   for (i = 1; i < VG_N_THREADS; i++)
      if (threads[i].reopen) {
         threads[i].reopen = False;
         threads[i].file = VG_(fopen)(threads[i].temp_name,
                                      VKI_O_WRONLY | VKI_O_APPEND, 0);
         if (threads[i].file == NULL)
            VG_(umsg)("error: can't reopen '%s'\n", threads[i].temp_name);
      }
}

static void after_fork_in_child(ThreadId tid)
{
   ThreadId i;

   for (i = 1; i < VG_N_THREADS; i++)
      threads[i].reopen = False;
}

static void write_vector(ThreadVectors* t)
{
   UInt i;

   if (ensure_open(t)) {
      VG_(fprintf)(t->file, "T");
      for (i = 0; i < t->n_touched; i++)
         VG_(fprintf)(t->file, ":%u:%llu   ", t->touched[i],
                      t->counts[t->touched[i]]);
      VG_(fprintf)(t->file, "\n");
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
   VG_(fprintf)(t->file, "\n\n# Thread %u\n", tid);
   VG_(fprintf)(t->file, "#   Total intervals: %u (Interval Size %llu)\n",
                t->intervals, cg_clo.bb_interval_size);
   VG_(fprintf)(t->file, "#   Total instructions: %llu\n", t->total_instrs);
   /* exp-bbv's words: "reps" are iterations, "unique" executions. */
   VG_(fprintf)(t->file, "#   Total reps: %llu\n", t->rep_iterations);
   VG_(fprintf)(t->file, "#   Unique reps: %llu\n", t->rep_executions);
   VG_(fprintf)(t->file, "#   Total fldcw instructions: %llu\n\n",
                t->total_fldcw);
   VG_(fclose)(t->file);
   t->file = NULL;
   if (VG_(rename)(t->temp_name, t->final_name) != 0) {
      VG_(umsg)("error: can't rename '%s' to '%s'\n", t->temp_name,
                t->final_name);
      VG_(unlink)(t->temp_name);
   }
}

static Int by_address(const void* a, const void* b)
{
   UWord x = (*(const BbvBlock* const*)a)->key;
   UWord y = (*(const BbvBlock* const*)b)->key;
   return x < y ? -1 : x > y ? 1 : 0;
}

static void write_pc_file(void)
{
   HChar* name = VG_(expand_file_name)("--pc-out-file", cg_clo.pc_out_file);
   HChar* temp = VG_(malloc)("cg.bbv.name", VG_(strlen)(name) + 32);
   UInt n, i;
   VgHashNode** all = VG_(HT_to_array)(blocks, &n);
   VgFile* f;

   VG_(sprintf)(temp, "%s.tmp.%d", name, VG_(getpid)());
   f = VG_(fopen)(temp, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
                  VKI_S_IRUSR | VKI_S_IWUSR | VKI_S_IRGRP);
   if (f == NULL) {
      VG_(umsg)("error: can't open '%s' for writing\n", name);
   } else {
      VG_(ssort)(all, n, sizeof(VgHashNode*), by_address);
      for (i = 0; i < n; i++) {
         const BbvBlock* b = (const BbvBlock*)all[i];
         const HChar* fn;
         if (!VG_(get_fnname)(VG_(current_DiEpoch)(), b->key, &fn))
            fn = "";
         VG_(fprintf)(f, "F:%u:%lx:%s\n", b->id, b->key, fn);
      }
      VG_(fclose)(f);
      if (VG_(rename)(temp, name) != 0) {
         VG_(umsg)("error: can't rename '%s' to '%s'\n", temp, name);
         VG_(unlink)(temp);
      }
   }
   VG_(free)(all);
   VG_(free)(temp);
   VG_(free)(name);
}

void cg_bbv_fini(void)
{
   ThreadId tid;

   if (!enabled)
      return;
   for (tid = 1; tid < VG_N_THREADS; tid++)
      if (threads[tid].active || tid == 1)
         finish_thread(&threads[tid], tid);
   if (cg_clo.pc_out_file != NULL)
      write_pc_file();
}
