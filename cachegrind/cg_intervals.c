/* cg_intervals.c -- the phase profile: every event, per interval of N
   executed instructions (--interval-size), for cg_phases.

   Owns: the running instruction count compiled code keeps, the
   interval boundaries, and the cachegrind.intervals file.
   Must not: change any count of the main profile.

   Compiled code subtracts each event group's fetches from `left` and
   calls cg_intervals_boundary once nothing is left, so an interval ends
   at the first group boundary at or after a multiple of N (a group is
   at most a few dozen instructions); its exact start and end counts are
   written.  `left` is a host word, and is never loaded with more than
   the largest positive one: on a 32-bit host a longer interval takes
   several countdowns.  At a boundary every group's executions are folded into the
   cost centres, and the interval's costs are each cost centre's
   growth since the previous boundary.

   File format (version 2), one item per line:
     # comment
     version: 2
     creator: Cachegrind-ng-<version>
     pid: <pid>
     cmd: <command line>
     interval-size: <N>
     events: <event names>
     then per interval:
     interval: <index> <start> <end> <one count per event>
     hot: Ir <count> <line> <file>      the line with the most Ir
     hot-fn: <function>
     miss: <event> <count> <line> <file> the interval's largest miss
     miss-fn: <function>                 event, and its top line
     line: <one count per event> <line> <file>   (--interval-lines=n:
     line-fn: <function>      the n lines with the most of each event,
                              together, in file, function, line order)
     and at the end:
     totals: <one count per event>
   cg_file.c writes the file (under a temporary name, named at exit).
   An image that exec replaces writes none: see cg_main.c. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_vki.h"
#include "pub_tool_xarray.h"
#include "cg_intervals.h"
#include "cg_costs.h"
#include "cg_file.h"
#include "cg_options.h"
#include "cg_output.h"

static Bool  enabled;
static Int   events[CG_N_EVENTS];      /* the events in the file */
#define LEFT_MAX ((Word)(~(UWord)0 >> 1))

static Word  left = LEFT_MAX;          /* read and written by compiled code */
static Word  left_at_set;              /* what `left` was last set to */
static ULong executed_at_set;          /* instructions executed then */
static ULong boundary = ~0ULL;         /* where the current interval ends */
static ULong interval_start;
static UInt  interval_index;
static Int   n_events;
static ULong run_totals[CG_N_EVENTS];

static CgFile* out;                    /* opened at the first interval */

/* Each cost centre's counts at the previous boundary, by address, and
   its growth in the interval being written. */
typedef struct {
   struct _BaseNode* next;
   UWord             key;              /* the CostCentre* */
   ULong             count[CG_N_EVENTS];
   ULong             growth[CG_N_EVENTS];
   UInt              listed_in;        /* the list it was last put in */
} BaseNode;
static VgHashTable* bases;
static Int lines_per_event;             /* --interval-lines */
static BaseNode** top_lines[CG_N_EVENTS];  /* room for the lists */
static UInt lists_written;              /* numbers each interval's list */

Bool cg_intervals_enabled(void)          { return enabled; }
Word* cg_intervals_left_word(void)      { return &left; }

/* Instructions executed so far. */
static ULong executed(void)
{
   return executed_at_set + (ULong)(left_at_set - left);
}

static void start_countdown(ULong now)
{
   ULong remaining = boundary - now;

   executed_at_set = now;
   left_at_set = remaining > (ULong)LEFT_MAX ? LEFT_MAX : (Word)remaining;
   left = left_at_set;
}

static void write_header(void)
{
   Int i;

   cg_file_put_str(out, "# cachegrind.intervals: a phase profile written "
                   "by Cachegrind-ng (read it with cg_phases)\n");
   cg_file_put_str(out, "version: 2\n");
   cg_file_printf(out, "creator: Cachegrind-ng-%s\n", CG_PACKAGE_VERSION);
   cg_file_printf(out, "pid: %d\n", VG_(getpid)());
   cg_file_put_command(out);
   cg_file_printf(out, "interval-size: %llu\nevents:",
                  cg_clo.interval_size);
   for (i = 0; i < n_events; i++)
      cg_file_printf(out, " %s", cg_event_names[events[i]]);
   cg_file_put_str(out, "\n");
}

/* Opened when the first interval ends (and in a forked child, whose
   name has its own pid, when its first interval ends). */
static Bool ensure_open(void)
{
   if (out != NULL)
      return True;
   out = cg_file_open("--intervals-out-file", cg_clo.intervals_out_file,
                      NULL, VKI_S_IRUSR | VKI_S_IWUSR);
   if (!cg_file_opened(out)) {
      VG_(umsg)("error: can't open phase profile '%s' for writing; "
                "it will be missing.\n", cg_file_name(out));
      cg_file_forget(out);
      out = NULL;
      enabled = False;
      return False;
   }
   write_header();
   return True;
}

/* Around a fork: the file's buffered lines are written before it, so
   the child cannot write them a second time, and the child starts a
   file of its own. */
static void before_fork(ThreadId tid)
{
   if (out != NULL)
      cg_file_suspend(out);
}

static void after_fork_in_parent(ThreadId tid)
{
   if (out != NULL && !cg_file_resume(out)) {
      cg_file_commit(out);       /* removes what was written */
      out = NULL;
      enabled = False;
   }
}

/* The next file is a profile of its own: intervals numbered from 1
   (the first one starts where the last one written ended) and totals
   of what it writes. */
static void start_afresh(void)
{
   interval_index = 0;
   VG_(memset)(run_totals, 0, sizeof run_totals);
}

/* The child's file is not the parent's. */
static void after_fork_in_child(ThreadId tid)
{
   if (out != NULL) {
      cg_file_forget(out);
      out = NULL;
   }
   start_afresh();
}

/* At an exec the image's end, where the file would be finished, never
   comes: the file is given up (its temporary file removed) before the
   core replaces the image.  A copy of its name, for the message. */
HChar* cg_intervals_give_up_for_exec(void)
{
   HChar* name;

   if (out == NULL)
      return NULL;
   name = VG_(strdup)("cg.intervals.name", cg_file_name(out));
   cg_file_abandon(out);
   out = NULL;
   return name;
}

/* The exec failed and the program goes on: its next interval opens a
   new file under the same name, as a forked child's. */
void cg_intervals_exec_failed(void)
{
   start_afresh();
}

void cg_intervals_init(void)
{
   Int e, i;

   if (cg_clo.interval_size == 0)
      return;
   for (e = 0; e < CG_N_EVENTS; e++)
      if (cg_output_event_selected(cg_event_output_order[e]))
         events[n_events++] = cg_event_output_order[e];
   enabled = True;
   lines_per_event = (Int)cg_clo.interval_lines;
   if (lines_per_event > 0)
      for (i = 0; i < n_events; i++)
         top_lines[events[i]] = VG_(malloc)("cg.intervals.top",
                                            lines_per_event
                                            * sizeof(BaseNode*));
   boundary = cg_clo.interval_size;
   start_countdown(0);
   bases = VG_(HT_construct)("cg.intervals.bases");
   cg_file_expect("--intervals-out-file", cg_clo.intervals_out_file, False);
   VG_(atfork)(before_fork, after_fork_in_parent, after_fork_in_child);
}

/*------------------------------------------------------------*/
/*--- One interval                                         ---*/
/*------------------------------------------------------------*/

typedef struct {
   ULong       total[CG_N_EVENTS];
   ULong       best[CG_N_EVENTS];     /* the largest growth of one CC */
   CostCentre* best_cc[CG_N_EVENTS];
   /* --interval-lines: per event, the lines of most growth (a heap) */
   BaseNode**  top[CG_N_EVENTS];
   Int         n_top[CG_N_EVENTS];
} IntervalSums;


/* Whether `a` ranks before `b` among an event's lines: more growth,
   then the smaller (file, function, line), as the hot line's ties */
static Bool ranks_before(const BaseNode* a, const BaseNode* b, Int e)
{
   if (a->growth[e] != b->growth[e])
      return a->growth[e] > b->growth[e];
   return cg_costs_order((const CostCentre*)a->key,
                         (const CostCentre*)b->key) < 0;
}

/* A heap per event of the n lines that rank first so far, the one that
   ranks last at its root: most cost centres are rejected by one
   comparison with it, the others cost log n (n can be large: a test
   lists every line) */
static void sift_down(BaseNode** heap, Int n, Int i, Int e)
{
   for (;;) {
      Int child = 2 * i + 1, last = i;
      BaseNode* swap;
      if (child < n && ranks_before(heap[last], heap[child], e))
         last = child;
      if (child + 1 < n && ranks_before(heap[last], heap[child + 1], e))
         last = child + 1;
      if (last == i)
         return;
      swap = heap[i];
      heap[i] = heap[last];
      heap[last] = swap;
      i = last;
   }
}

static void consider_line(IntervalSums* sums, BaseNode* base, Int e)
{
   BaseNode** heap = sums->top[e];
   Int n = sums->n_top[e], i;

   if (base->growth[e] == 0)
      return;
   if (n == lines_per_event) {
      if (ranks_before(base, heap[0], e)) {
         heap[0] = base;
         sift_down(heap, n, 0, e);
      }
      return;
   }
   /* Up from the bottom while it ranks after its parent */
   for (i = n; i > 0 && ranks_before(heap[(i - 1) / 2], base, e);
        i = (i - 1) / 2)
      heap[i] = heap[(i - 1) / 2];
   heap[i] = base;
   sums->n_top[e] = n + 1;
}

static void add_growth(CostCentre* cc, void* arg)
{
   IntervalSums* sums = arg;
   BaseNode* base = VG_(HT_lookup)(bases, (UWord)cc);
   Int e;

   if (base == NULL) {
      base = VG_(calloc)("cg.intervals.base", 1, sizeof(BaseNode));
      base->key = (UWord)cc;
      VG_(HT_add_node)(bases, base);
   }
   for (e = 0; e < (Int)cg_costs_n_events(); e++) {
      ULong growth = cc->count[e] - base->count[e];
      base->count[e] = cc->count[e];
      base->growth[e] = growth;
      if (sums->top[e] != NULL)
         consider_line(sums, base, e);
      sums->total[e] += growth;
      /* Ties go to the smaller (file, function, line), so the choice
         does not depend on hash order. */
      if (growth > sums->best[e]
          || (growth == sums->best[e] && growth > 0
              && cg_costs_order(cc, sums->best_cc[e]) < 0)) {
         sums->best[e] = growth;
         sums->best_cc[e] = cc;
      }
   }
}

static Bool is_miss_event(Int e)
{
   return e == EV_I1_MISS || e == EV_LLI_MISS || e == EV_D1_READ_MISS
          || e == EV_LL_READ_MISS || e == EV_D1_WRITE_MISS
          || e == EV_LL_WRITE_MISS || e == EV_BC_MISPRED
          || e == EV_BI_MISPRED || e == EV_I2_MISS || e == EV_D2_READ_MISS
          || e == EV_D2_WRITE_MISS;
}

static void write_top(const HChar* key, Int e, const IntervalSums* sums)
{
   const CostCentre* cc = sums->best_cc[e];

   cg_file_printf(out, "%s: %s %llu %d %s\n%s-fn: %s\n", key,
                  cg_event_names[e], sums->best[e], cc->line, cc->file, key,
                  cc->fn);
}

static Int by_file_fn_line(const void* a, const void* b)
{
   const BaseNode* x = *(const BaseNode* const*)a;
   const BaseNode* y = *(const BaseNode* const*)b;

   return cg_costs_order((const CostCentre*)x->key,
                         (const CostCentre*)y->key);
}

/* The lines of every event's list, each once, in file, function and
   line order, so the file does not depend on hash order */
static void write_lines(IntervalSums* sums)
{
   BaseNode** lines = VG_(malloc)("cg.intervals.lines",
                                  n_events * lines_per_event
                                  * sizeof(BaseNode*));
   Int n = 0, i, k;

   lists_written++;
   for (i = 0; i < n_events; i++)
      for (k = 0; k < sums->n_top[events[i]]; k++) {
         BaseNode* base = sums->top[events[i]][k];
         if (base->listed_in != lists_written) {
            base->listed_in = lists_written;
            lines[n++] = base;
         }
      }
   VG_(ssort)(lines, n, sizeof(BaseNode*), by_file_fn_line);
   for (k = 0; k < n; k++) {
      const CostCentre* cc = (const CostCentre*)lines[k]->key;
      cg_file_put_str(out, "line:");
      for (i = 0; i < n_events; i++) {
         cg_file_put_str(out, " ");
         cg_file_put_ulong(out, lines[k]->growth[events[i]]);
      }
      cg_file_printf(out, " %d %s\nline-fn: %s\n", cc->line, cc->file,
                     cc->fn);
   }
   VG_(free)(lines);
}

static void write_interval(ULong end)
{
   IntervalSums sums;
   Int i, e, dominant = -1;

   VG_(memset)(&sums, 0, sizeof sums);
   if (!ensure_open())
      return;
   if (lines_per_event > 0)
      for (e = 0; e < CG_N_EVENTS; e++)
         sums.top[e] = top_lines[e];
   cg_costs_fold_all();
   cg_costs_for_each(add_growth, &sums);

   cg_file_printf(out, "interval: %u %llu %llu", ++interval_index,
                  interval_start, end);
   for (i = 0; i < n_events; i++) {
      cg_file_put_str(out, " ");
      cg_file_put_ulong(out, sums.total[events[i]]);
      run_totals[events[i]] += sums.total[events[i]];
   }
   cg_file_put_str(out, "\n");
   if (sums.best_cc[EV_IR] != NULL)
      write_top("hot", EV_IR, &sums);
   for (i = 0; i < n_events; i++) {
      e = events[i];
      if (is_miss_event(e) && sums.total[e] > 0
          && (dominant < 0 || sums.total[e] > sums.total[dominant]))
         dominant = e;
   }
   if (dominant >= 0)
      write_top("miss", dominant, &sums);
   if (lines_per_event > 0)
      write_lines(&sums);
   interval_start = end;
}

VG_REGPARM(0) void cg_intervals_boundary(void)
{
   ULong now = executed();

   if (now >= boundary) {
      write_interval(now);
      /* The next multiple of N after the count reached (a group never
         spans a whole interval unless N is tiny). */
      boundary = enabled ? (now / cg_clo.interval_size + 1)
                           * cg_clo.interval_size
                         : ~0ULL;
   }
   start_countdown(now);
}

void cg_intervals_fini(void)
{
   Int e;

   if (!enabled)
      return;
   if (executed() > interval_start || out == NULL)
      write_interval(executed());
   if (out == NULL)
      return;
   cg_file_put_str(out, "totals:");
   for (e = 0; e < n_events; e++) {
      cg_file_put_str(out, " ");
      cg_file_put_ulong(out, run_totals[events[e]]);
   }
   cg_file_put_str(out, "\n");
   cg_file_commit(out);
   out = NULL;
   enabled = False;
}
