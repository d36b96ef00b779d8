/* cg_thread_counts.c -- each thread's share of the counts
   (--separate-threads=yes; cg_thread_counts.h states what is written).

   Owns: an array per thread number of counts per cost centre (indexed
   by CostCentre.index), and the thread whose counts the cost centres
   hold now.
   Must not: change what the main file says: at exit every cost centre
   gets back the sum of the shares.

   Why it is shaped so: counts reach cost centres from compiled code's
   execution counters (folded by cg_costs_fold_all) and from the
   simulator (misses, with the log maybe in another thread).  At a
   switch to another thread the log is drained and the counters folded,
   and what the cost centres hold since the last switch is the last
   thread's: it is moved into its array and the cost centres start from
   zero.  A switch costs a pass over the cost centres; nothing is added
   to the path of an access.  (The phase profile reads the cost centres'
   growth, so --interval-size is not allowed with this option.) */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "cg_thread_counts.h"
#include "cg_costs.h"
#include "cg_data.h"
#include "cg_log.h"
#include "cg_output.h"
#include "cg_threads.h"

typedef struct {
   ULong* counts;          /* capacity x n_events */
   UInt   capacity;        /* cost centres it has room for */
   Bool   ran;
} Share;

static Bool enabled;
static Share* shares;      /* by thread number */
static UInt n_shares;
static UInt holder = 1;    /* whose counts the cost centres hold */

Bool cg_thread_counts_enabled(void) { return enabled; }

void cg_thread_counts_init(void)
{
   enabled = True;
}

static Share* share_of(UInt number, UInt n_ccs)
{
   UInt n_events = cg_costs_n_events();
   Share* s;

   if (number >= n_shares) {
      UInt n = number + 16;
      shares = VG_(realloc)("cg.thread_counts", shares, n * sizeof *shares);
      VG_(memset)(shares + n_shares, 0, (n - n_shares) * sizeof *shares);
      n_shares = n;
   }
   s = &shares[number];
   if (s->capacity < n_ccs) {
      UInt capacity = n_ccs + n_ccs / 2 + 64;
      s->counts = VG_(realloc)("cg.thread_counts", s->counts,
                               (SizeT)capacity * n_events * sizeof(ULong));
      VG_(memset)(s->counts + (SizeT)s->capacity * n_events, 0,
                  (SizeT)(capacity - s->capacity) * n_events * sizeof(ULong));
      s->capacity = capacity;
   }
   return s;
}

/* What the cost centres hold goes to `number`'s share */
static void move_to_share(UInt number)
{
   UInt n_ccs = cg_costs_count(), n_events = cg_costs_n_events(), i, e;
   Share* s = share_of(number, n_ccs);

   cg_data_sync();
   cg_log_drain();
   cg_costs_fold_all();
   for (i = 0; i < n_ccs; i++) {
      CostCentre* cc = cg_costs_by_index(i);
      ULong* to = s->counts + (SizeT)i * n_events;
      for (e = 0; e < n_events; e++) {
         to[e] += cc->count[e];
         cc->count[e] = 0;
      }
   }
   s->ran = True;
}

void cg_thread_counts_runs(ThreadId tid)
{
   UInt number;

   if (!enabled)
      return;
   number = cg_threads_number_of(tid);
   if (number == holder)
      return;
   move_to_share(holder);
   holder = number;
}

void cg_thread_counts_finish(void)
{
   UInt n_ccs = cg_costs_count(), n_events = cg_costs_n_events(), t, i, e;

   if (!enabled)
      return;
   move_to_share(holder);
   for (t = 0; t < n_shares; t++) {
      const Share* s = &shares[t];
      for (i = 0; i < n_ccs && i < s->capacity; i++) {
         CostCentre* cc = cg_costs_by_index(i);
         const ULong* from = s->counts + (SizeT)i * n_events;
         for (e = 0; e < n_events; e++)
            cc->count[e] += from[e];
      }
   }
}

static const ULong* share_counts(const CostCentre* cc, void* arg)
{
   static const ULong none[CG_N_EVENTS];
   const Share* s = arg;

   return cc->index < s->capacity
          ? s->counts + (SizeT)cc->index * cg_costs_n_events() : none;
}

void cg_thread_counts_write(const CacheGeometry* I1, const CacheGeometry* D1,
                            const CacheGeometry* L2, const CacheGeometry* LL)
{
   UInt t;

   if (!enabled)
      return;
   for (t = 1; t < n_shares; t++) {
      HChar suffix[16];
      CgOutputResult res;
      if (!shares[t].ran)
         continue;
      VG_(sprintf)(suffix, ".%u", t);
      cg_output_write_part(I1, D1, L2, LL, suffix, share_counts, &shares[t],
                           &res);
   }
}
