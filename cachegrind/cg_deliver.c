/* cg_deliver.c -- turning queued events into IR: where events become
   counts and simulations at run time.

   Owns: all IR emission of the tool.
   Must not: decide which events exist or when they are flushed
   (cg_instrument.c does), or simulate (cg_sim.c does).

   Why the emitted code has this shape (the per-access cost is most of
   a cache profiler's overhead, and every count must stay exact):
   - A flushed run of events always executes as a whole, so it gets one
     64-bit execution counter (an EventGroup).  Accesses, fetches and
     branches are not counted one by one at run time; each event's
     count is the group's, added to its cost centre when the
     translation is discarded or the run ends.
   - A fetch inside the I1 line of the previous fetch of the same
     superblock is a hit on the most recently used (MRU) way: it
     changes no state, so nothing is emitted for it.
   - Every other fetch and data access first checks inline whether its
     line is the MRU way of its set (and the access does not straddle
     two lines).  Such a hit changes no LRU state and cannot reach LL,
     so the simulator is called (a guarded helper call) only otherwise.
     The calls that remain happen in program order, so LL sees exactly
     the stream it would see if everything were simulated.  With the
     access log (amd64), a group's checks are not emitted here but run
     by a group checker (cg_checkers.c): one call with the data
     addresses, in machine code laid out so that hits fall through.
   - The indirect predictor is updated inline, without a call: every
     branch changes its state, so there is no common case to skip.  The
     conditional one runs in the group checker, or else is a call: its
     inline form cost more code than it saved time (see
     deliver_cond_branch).
   - Everything is emitted at the flush point, in queue order: a check
     always reads the state left by the previous access's call. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"
#include "cg_deliver.h"
#include "cg_alloc.h"
#include "cg_bbv.h"
#include "cg_branch.h"
#include "cg_cache.h"
#include "cg_checkers.h"
#include "cg_control.h"
#include "cg_data.h"
#include "cg_sharing.h"
#include "cg_coherence.h"
#include "cg_intervals.h"
#include "cg_log.h"
#include "cg_log_entry.h"
#include "cg_options.h"
#include "cg_sim.h"
#include "cg_tier.h"
#include "cg_trace.h"

#define MAX_GROUP_EVENTS 32

void cg_deliver_start(Delivery* d, IRSB* out, IRType word_ty,
                      BlockInfo* block, Bool cold)
{
   d->cold = cold;
   d->cold_runs_emitted = 0;
   d->out = out;
   d->word_ty = word_ty;
   d->block = block;
   d->have_last_fetch = False;
   d->last_fetch_block = 0;
   d->n_data_sites = 0;
   d->data_instr = NULL;
   d->data_ordinal = 0;
   d->data_cursor = NULL;
   d->data_appended = False;
}

/* Longest x86/amd64 instruction; client-request preambles are longer
   and count as one instruction of VG_CLREQ_SZB bytes. */
#define MAX_INSTR_LEN  16

UWord cg_instr_len(const IRStmt* imark)
{
   UWord len = imark->Ist.IMark.len;

   /* VEX marks an undecodable instruction with length 0. */
   if (len == 0)
      len = VG_MIN_INSTR_SZB;
   tl_assert((len >= VG_MIN_INSTR_SZB && len <= MAX_INSTR_LEN)
             || len == VG_CLREQ_SZB);
   return len;
}

/*------------------------------------------------------------*/
/*--- Small IR builders (flat IR: every operand an atom)   ---*/
/*------------------------------------------------------------*/

static Bool is_64bit(const Delivery* d)
{
   return d->word_ty == Ity_I64;
}

static IRExpr* word_const(const Delivery* d, UWord value)
{
   return is_64bit(d) ? IRExpr_Const(IRConst_U64((ULong)value))
                      : IRExpr_Const(IRConst_U32((UInt)value));
}

static IRExpr* assign(Delivery* d, IRType ty, IRExpr* e)
{
   IRTemp t = newIRTemp(d->out->tyenv, ty);
   addStmtToIRSB(d->out, IRStmt_WrTmp(t, e));
   return IRExpr_RdTmp(t);
}

static IRExpr* word_binop(Delivery* d, IROp op64, IROp op32, IRExpr* a,
                          IRExpr* b)
{
   return assign(d, d->word_ty,
                 IRExpr_Binop(is_64bit(d) ? op64 : op32, a, b));
}

static IRExpr* word_differs(Delivery* d, IRExpr* a, IRExpr* b)
{
   return assign(d, Ity_I1, IRExpr_Binop(is_64bit(d) ? Iop_CmpNE64
                                                     : Iop_CmpNE32, a, b));
}

static IRExpr* load_word(Delivery* d, IRExpr* addr)
{
   return assign(d, d->word_ty, IRExpr_Load(Iend_LE, d->word_ty, addr));
}

static void emit_call(Delivery* d, const HChar* name, void* fn,
                      IRExpr** args, IRExpr* guard)
{
   Int n_args = 0;
   IRDirty* call;

   while (args[n_args] != NULL)
      n_args++;
   /* At most 3 arguments go in registers (x86); the rest on the stack. */
   call = unsafeIRDirty_0_N(n_args < 3 ? n_args : 3, name,
                            VG_(fnptr_to_fnentry)(fn), args);
   if (guard != NULL)
      call->guard = guard;
   addStmtToIRSB(d->out, IRStmt_Dirty(call));
   /* The call may have drained the data profile's buffer. */
   d->data_cursor = NULL;
}

#define CALL(d, helper, args, guard) \
   emit_call((d), #helper, (void*)(helper), (args), (guard))

static IRExpr* ptr_const(const void* p)
{
   return mkIRExpr_HWord((HWord)p);
}

/*------------------------------------------------------------*/
/*--- Execution counts                                     ---*/
/*------------------------------------------------------------*/

static Int counted_event(const Event* ev)
{
   switch (ev->kind) {
   case EVT_FETCH:       return EV_IR;
   case EVT_READ:
   case EVT_MODIFY:      return EV_DR;
   case EVT_WRITE:       return EV_DW;
   case EVT_COND_BRANCH: return EV_BC;
   case EVT_IND_BRANCH:  return EV_BI;
   }
   return EV_IR; /* not reached */
}

/* 1, or with --toggle-collect whether events are being collected
   (a word that is 0 or 1), as a 64-bit value. */
static IRExpr* executions_increment(Delivery* d)
{
   IRExpr* flag;

   if (!cg_control_toggling())
      return IRExpr_Const(IRConst_U64(1));
   flag = load_word(d, ptr_const(cg_control_collecting_word()));
   return is_64bit(d) ? flag
                      : assign(d, Ity_I64, IRExpr_Unop(Iop_32Uto64, flag));
}

/* Registers the group's (cost centre, event) pairs. */
static EventGroup* register_group(Delivery* d, const Event* events, Int n)
{
   GroupItem items[MAX_GROUP_EVENTS];
   UInt n_items = 0, k;
   Int i;

   tl_assert(n <= MAX_GROUP_EVENTS);
   for (i = 0; i < n; i++) {
      CostCentre* cc = events[i].instr->cc;
      Int ev = counted_event(&events[i]);
      for (k = 0; k < n_items; k++)
         if (items[k].cc == cc && items[k].event == ev)
            break;
      if (k == n_items) {
         items[k].cc = cc;
         items[k].event = ev;
         items[k].times = 0;
         n_items++;
      }
      items[k].times++;
   }
   return cg_costs_new_group(d->block, items, n_items);
}

/* `executions += 1`, inline. */
static void emit_group_counter(Delivery* d, EventGroup* group)
{
   IRExpr *counter_addr, *old, *new;

   counter_addr = ptr_const(group->executions);
   old = assign(d, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, counter_addr));
   new = assign(d, Ity_I64, IRExpr_Binop(Iop_Add64, old,
                                         executions_increment(d)));
   addStmtToIRSB(d->out, IRStmt_Store(Iend_LE, counter_addr, new));
}

/* --interval-size: the instructions left in the interval -= the
   group's fetches, and the interval ends (a call) once none are left.
   A signed host word, so that 32-bit hosts compare it natively.
   Emitted after the group's events, so the interval includes them. */
static void emit_interval_step(Delivery* d, const Event* events, Int n)
{
   UWord fetches = 0;
   IRExpr *left_addr, *old, *new, *ended;
   Int i;

   for (i = 0; i < n; i++)
      fetches += events[i].kind == EVT_FETCH;
   if (fetches == 0)
      return;
   left_addr = ptr_const(cg_intervals_left_word());
   old = load_word(d, left_addr);
   new = word_binop(d, Iop_Sub64, Iop_Sub32, old, word_const(d, fetches));
   addStmtToIRSB(d->out, IRStmt_Store(Iend_LE, left_addr, new));
   ended = assign(d, Ity_I1,
                  IRExpr_Binop(is_64bit(d) ? Iop_CmpLE64S : Iop_CmpLE32S,
                               new, word_const(d, 0)));
   CALL(d, cg_intervals_boundary, mkIRExprVec_0(), ended);
}

/*------------------------------------------------------------*/
/*--- Inline MRU checks                                    ---*/
/*------------------------------------------------------------*/

/* True unless `block` (a constant) is the MRU way of its set. */
static IRExpr* not_mru_const(Delivery* d, const CacheLevel* level,
                             UWord block)
{
   IRExpr* tag = load_word(d, ptr_const(cg_cache_mru_slot(level, block)));
   return word_differs(d, tag, word_const(d, cg_cache_mru_value(level,
                                                                block)));
}

/* True unless [addr, addr+size) lies in one line and that line is the
   MRU way of its set.  The mirror is laid out by line address
   (MIRROR_BY_LINE_ADDR, cg_cache.h): the slot of the address's set is
   at the address's set-index bits, and holds the first byte of that
   set's MRU line.  Then addr - slot, unsigned, is at most
   line - size exactly when the access starts in that line and ends in
   it too: any other line of the set is a multiple of (sets * line)
   bytes away, and a straddle ends past the line.  Host code: an AND,
   a subtraction from memory and one comparison with a constant, where
   comparing line numbers took two shifts, an add and a mask. */
static IRExpr* not_mru_access(Delivery* d, const CacheLevel* level,
                              IRExpr* addr, Int size)
{
   UWord line_size = (UWord)1 << level->line_bits;
   IRExpr *offset, *slot, *line_addr, *distance, *in_line;

   tl_assert(level->mru_stride_bits == level->line_bits
             && level->mru_value_shift == level->line_bits);
   if ((UWord)size > line_size)
      return IRExpr_Const(IRConst_U1(True));
   offset    = word_binop(d, Iop_And64, Iop_And32, addr,
                          word_const(d, level->set_mask << level->line_bits));
   slot      = word_binop(d, Iop_Add64, Iop_Add32, offset,
                          ptr_const(level->mru));
   line_addr = load_word(d, slot);
   /* The loaded word second: the code generator folds the load into
      the subtraction. */
   distance  = word_binop(d, Iop_Sub64, Iop_Sub32, addr, line_addr);
   /* distance < line - size + 1, negated: the code generator compares
      with an immediate and inverts the condition, no extra instruction. */
   in_line   = assign(d, Ity_I1,
                      IRExpr_Binop(is_64bit(d) ? Iop_CmpLT64U : Iop_CmpLT32U,
                                   distance,
                                   word_const(d, line_size - size + 1)));
   return assign(d, Ity_I1, IRExpr_Unop(Iop_Not1, in_line));
}

/*------------------------------------------------------------*/
/*--- Events                                               ---*/
/*------------------------------------------------------------*/

/* True unless every line the instruction occupies is the MRU way of its
   set.  A fetch that straddles two lines is a no-op hit when both are;
   with a single set they cannot both be, so it always goes to the
   simulator. */
static IRExpr* fetch_not_mru(Delivery* d, const CacheLevel* i1, UWord first,
                             UWord last, Bool first_known_mru)
{
   IRExpr* last_not_mru;

   if (cg_sim_every_access_reaches_model())
      return NULL;           /* no filter: the call is unconditional */
   if (first == last)
      return not_mru_const(d, i1, first);
   if (i1->set_mask == 0)
      return NULL;
   last_not_mru = not_mru_const(d, i1, last);
   if (first_known_mru)
      return last_not_mru;
   return assign(d, Ity_I1, IRExpr_Binop(Iop_Or1, not_mru_const(d, i1, first),
                                         last_not_mru));
}

/* A fetch needs no simulation when it lies in one line and that line is
   where the previous instruction of the superblock ended: the previous
   fetch left it MRU.  Shared by the count below and deliver_fetch, which
   must agree. */
static Bool fetch_is_known_hit(UWord first, UWord last, Bool have_prev,
                               UWord prev_last)
{
   /* Not where a line can leave I1 between two fetches
      (--LL-inclusion=inclusive: a data access's LL eviction) */
   return first == last && have_prev && first == prev_last
          && !cg_sim_l1_lines_may_vanish()
          && !cg_sim_every_access_reaches_model();
}

/* How many fetch calls deliver_fetch will emit for a superblock, so
   that its block can be allocated with exactly that many sites. */
UInt cg_deliver_count_fetch_sites(const IRSB* sb)
{
   const CacheLevel* i1 = cg_sim_i1();
   Bool have_prev = False;
   UWord prev_last = 0;
   UInt n = 0;
   Int i;

   if (!cg_clo.cache_sim)
      return 0;
   for (i = 0; i < sb->stmts_used; i++) {
      const IRStmt* st = sb->stmts[i];
      Addr addr;
      UWord len, first, last;
      if (st == NULL || st->tag != Ist_IMark)
         continue;
      addr  = (Addr)st->Ist.IMark.addr;
      len   = cg_instr_len(st);
      first = addr >> i1->line_bits;
      last  = (addr + len - 1) >> i1->line_bits;
      if (!fetch_is_known_hit(first, last, have_prev, prev_last))
         n++;
      have_prev = True;
      prev_last = last;
   }
   return n;
}

/* The fetch site (a lasting copy of the instruction's record) of a
   fetch that needs simulating, or NULL if it is a known hit.  Sets the
   lines the instruction occupies and whether the first is known MRU. */
static InstrInfo* fetch_site(Delivery* d, const Event* ev, UWord* first,
                             UWord* last, Bool* first_known_mru)
{
   const CacheLevel* i1 = cg_sim_i1();
   const InstrInfo* ii = ev->instr;
   InstrInfo* site;

   *first = ii->addr >> i1->line_bits;
   *last  = (ii->addr + ii->len - 1) >> i1->line_bits;
   *first_known_mru = d->have_last_fetch && *first == d->last_fetch_block
                      && !cg_sim_l1_lines_may_vanish();
   if (!cg_clo.cache_sim
       || fetch_is_known_hit(*first, *last, d->have_last_fetch,
                             d->last_fetch_block))
      return NULL;
   d->have_last_fetch = True;
   d->last_fetch_block = *last;
   /* cg_deliver_count_fetch_sites counted these in advance. */
   tl_assert(d->block->n_fetch_sites_used < d->block->n_fetch_sites);
   site = &d->block->fetch_sites[d->block->n_fetch_sites_used++];
   *site = *ii;
   return site;
}

/* Without the log (see cg_deliver_events for the log's checkers). */
static void deliver_fetch(Delivery* d, const Event* ev)
{
   UWord first, last;
   Bool first_known_mru;
   InstrInfo* site = fetch_site(d, ev, &first, &last, &first_known_mru);

   if (site == NULL)
      return;
   if (cg_data_enabled()) {
      /* Buffered data accesses first: LL sees them in program order */
      CALL(d, cg_data_fetch, mkIRExprVec_1(ptr_const(site)),
           fetch_not_mru(d, cg_sim_i1(), first, last, first_known_mru));
      return;
   }
   CALL(d, cg_sim_fetch, mkIRExprVec_1(ptr_const(site)),
        fetch_not_mru(d, cg_sim_i1(), first, last, first_known_mru));
}

typedef struct {
   Int          size;
   const HChar* read_name;
   void*        read;
   const HChar* write_name;
   void*        write;
} SizedDataHelper;

#define SIZED(n) { n, "cg_sim_read" #n, (void*)cg_sim_read##n, \
                   "cg_sim_write" #n, (void*)cg_sim_write##n }
static const SizedDataHelper sized_data_helpers[] = {
   SIZED(1), SIZED(2), SIZED(4), SIZED(8), SIZED(16), SIZED(32)
};
#undef SIZED
/* --data-profile: the site of the instruction's n-th data access in
   this translation, shared by the copies of an instruction that an
   unrolled loop repeats (cg_data.c's element size detection then sees
   its accesses as one stream). */
static DataSite* data_site(Delivery* d, const InstrInfo* instr, Int size,
                           Bool is_write)
{
   DataSite* site;
   UInt i, ordinal;

   if (d->data_instr != instr) {
      d->data_instr = instr;
      d->data_ordinal = 0;
   }
   ordinal = d->data_ordinal++;
   for (i = 0; i < d->n_data_sites; i++)
      if (d->data_sites[i].instr_addr == instr->addr
          && d->data_sites[i].ordinal == ordinal
          && cg_data_site_is(d->data_sites[i].site, size, is_write))
         return d->data_sites[i].site;
   site = cg_data_new_site(d->block, instr->cc, size, is_write);
   if (d->n_data_sites < sizeof d->data_sites / sizeof d->data_sites[0]) {
      d->data_sites[d->n_data_sites].instr_addr = instr->addr;
      d->data_sites[d->n_data_sites].ordinal = ordinal;
      d->data_sites[d->n_data_sites].site = site;
      d->n_data_sites++;
   }
   return site;
}

/* --data-profile: every access is attributed (no MRU filter: a
   filtered hit would not be classified), so every access is appended to
   the buffer cg_data.c drains, or calls. */
static void deliver_data_profiled(Delivery* d, const Event* ev,
                                  Bool is_write)
{
   DataSite* site = data_site(d, ev->instr, ev->size, is_write);
   IRExpr* cursor_word = ptr_const(cg_data_cursor_word());
   IRExpr *cursor, *second, *next;
   UWord word = is_64bit(d) ? 8 : 4;

   if (!cg_data_buffering()) {
      CALL(d, cg_data_access, mkIRExprVec_2(ptr_const(site), ev->addr),
           NULL);
      return;
   }
   /* Appended: site, address (cg_data.c's buffer) */
   cursor = d->data_cursor != NULL ? d->data_cursor
                                   : load_word(d, cursor_word);
   addStmtToIRSB(d->out, IRStmt_Store(Iend_LE, cursor, ptr_const(site)));
   second = word_binop(d, Iop_Add64, Iop_Add32, cursor, word_const(d, word));
   addStmtToIRSB(d->out, IRStmt_Store(Iend_LE, second, ev->addr));
   next = word_binop(d, Iop_Add64, Iop_Add32, cursor,
                     word_const(d, 2 * word));
   addStmtToIRSB(d->out, IRStmt_Store(Iend_LE, cursor_word, next));
   d->data_cursor = next;
   d->data_appended = True;
}

/* After a group that appended: drain once the buffer is full. */
static void drain_if_full(Delivery* d)
{
   IRExpr *cursor, *full;

   if (!d->data_appended)
      return;
   d->data_appended = False;
   cursor = d->data_cursor != NULL
            ? d->data_cursor : load_word(d, ptr_const(cg_data_cursor_word()));
   full = assign(d, Ity_I1,
                 IRExpr_Binop(is_64bit(d) ? Iop_CmpLE64U : Iop_CmpLE32U,
                              ptr_const(cg_data_buffer_limit()), cursor));
   CALL(d, cg_data_drain, mkIRExprVec_0(), full);
}

/* Without the log, as deliver_fetch. */
static void deliver_data(Delivery* d, const Event* ev, Bool is_write)
{
   IRExpr* guard;
   UInt i;

   if (cg_data_enabled()) {
      deliver_data_profiled(d, ev, is_write);
      return;
   }
   /* --simulate-wb: a write dirties even an MRU line */
   if (cg_sim_writes_reach_model() && (is_write || ev->kind == EVT_MODIFY)) {
      if (ev->kind == EVT_MODIFY) {
         CALL(d, cg_sim_modify,
              mkIRExprVec_4(ptr_const(ev->instr->cc), ev->addr,
                            mkIRExpr_HWord((HWord)ev->size),
                            mkIRExpr_HWord((HWord)ev->instr->addr)), NULL);
         return;
      }
      guard = NULL;
   } else if (cg_sim_every_data_access_reaches_model()) {
      guard = NULL;    /* --cacheuse, D1 stride: a hit changes state */
   } else {
      guard = not_mru_access(d, cg_sim_d1(), ev->addr, ev->size);
   }
   if (cg_sim_data_needs_pc()) {
      IRExpr** args = mkIRExprVec_4(ptr_const(ev->instr->cc), ev->addr,
                                    mkIRExpr_HWord((HWord)ev->size),
                                    mkIRExpr_HWord((HWord)ev->instr->addr));
      if (is_write)
         CALL(d, cg_sim_write_at, args, guard);
      else
         CALL(d, cg_sim_read_at, args, guard);
      return;
   }

   for (i = 0; i < sizeof sized_data_helpers / sizeof sized_data_helpers[0];
        i++) {
      const SizedDataHelper* h = &sized_data_helpers[i];
      if (h->size == ev->size) {
         emit_call(d, is_write ? h->write_name : h->read_name,
                   is_write ? h->write : h->read,
                   mkIRExprVec_2(ptr_const(ev->instr->cc), ev->addr),
                   guard);
         return;
      }
   }
   /* Other sizes (x87's 10 bytes, capped dirty-helper accesses). */
   if (is_write)
      CALL(d, cg_sim_write, mkIRExprVec_3(ptr_const(ev->instr->cc), ev->addr,
                                          mkIRExpr_HWord((HWord)ev->size)),
           guard);
   else
      CALL(d, cg_sim_read, mkIRExprVec_3(ptr_const(ev->instr->cc), ev->addr,
                                         mkIRExpr_HWord((HWord)ev->size)),
           guard);
}

/* The statement defining temporary `t`, searched backwards from the
   end of what has been emitted (a guard is defined shortly before its
   exit), or NULL. */
static const IRExpr* definition_of(const Delivery* d, IRTemp t)
{
   Int i;

   for (i = d->out->stmts_used - 1; i >= 0; i--) {
      const IRStmt* st = d->out->stmts[i];
      if (st->tag == Ist_WrTmp && st->Ist.WrTmp.tmp == t)
         return st->Ist.WrTmp.data;
   }
   return NULL;
}

/* If the guard `guard` is, through copies, negations and the front
   end's 64to1(1Uto64(..)) round trip, a comparison of two atoms, that
   comparison (a fresh expression), with *negated saying whether the
   guard is its negation; else NULL. */
static IRExpr* guard_comparison(const Delivery* d, const IRExpr* guard,
                                Bool* negated)
{
   Bool widened_next = False;   /* after a 64to1: its arg must be 1Uto64 */
   Int steps;

   *negated = False;
   for (steps = 0; steps < 8 && guard->tag == Iex_RdTmp; steps++) {
      const IRExpr* e = definition_of(d, guard->Iex.RdTmp.tmp);
      if (e == NULL)
         return NULL;
      if (e->tag == Iex_RdTmp) {
         guard = e;
      } else if (widened_next) {
         if (e->tag != Iex_Unop || e->Iex.Unop.op != Iop_1Uto64)
            return NULL;
         widened_next = False;
         guard = e->Iex.Unop.arg;
      } else if (e->tag == Iex_Unop && e->Iex.Unop.op == Iop_64to1) {
         widened_next = True;
         guard = e->Iex.Unop.arg;
      } else if (e->tag == Iex_Unop && e->Iex.Unop.op == Iop_Not1) {
         *negated = !*negated;
         guard = e->Iex.Unop.arg;
      } else if (e->tag == Iex_Binop && isIRAtom(e->Iex.Binop.arg1)
                 && isIRAtom(e->Iex.Binop.arg2)) {
         IRType res, a1, a2, a3, a4;
         typeOfPrimop(e->Iex.Binop.op, &res, &a1, &a2, &a3, &a4);
         return res == Ity_I1 ? IRExpr_Binop(e->Iex.Binop.op,
                                             e->Iex.Binop.arg1,
                                             e->Iex.Binop.arg2)
                              : NULL;
      } else {
         return NULL;
      }
   }
   return NULL;
}

/* For --stats=yes: how many conditional branches' outcomes were
   translated, and how many of them from the comparison made again. */
static ULong n_outcomes, n_outcomes_compared_again;

/* The branch's outcome as a 0/1 word: taken = guard, or its negation
   when the exit leaves to the next instruction (VEX may lay a jcc out
   either way round).  Where the guard is a comparison of two atoms, it
   is compared again here rather than the guard's temporary reused: then
   VEX sets the word straight from the flags (cmp; setcc) and still
   fuses the exit's own compare and jump, instead of keeping the guard's
   bit in a register across the call and testing it twice (cc1 with
   --branch-sim=yes: 33.5 -> 31.6 MB of translations). */
static IRExpr* taken_as_word(Delivery* d, const Event* ev)
{
   IRExpr* cond = ev->value;
   Bool negated;
   IRExpr* again = guard_comparison(d, cond, &negated);
   Bool invert = ev->inverted;

   n_outcomes++;
   if (again != NULL) {
      n_outcomes_compared_again++;
      cond = assign(d, Ity_I1, again);
      invert = invert != negated;
   }
   if (invert)
      cond = assign(d, Ity_I1, IRExpr_Unop(Iop_Not1, cond));
   return assign(d, d->word_ty,
                 IRExpr_Unop(is_64bit(d) ? Iop_1Uto64 : Iop_1Uto32, cond));
}

void cg_deliver_print_stats(void)
{
   if (n_outcomes > 0)
      VG_(dmsg)("branch outcomes: %llu translated, %llu of them from the "
                "guard's comparison made again\n",
                n_outcomes, n_outcomes_compared_again);
}

/* cc->count[event] += flag (a word that is 0 or 1). */
static void add_flag_to_count(Delivery* d, CostCentre* cc, CgEvent event,
                              IRExpr* flag)
{
   IRExpr* counter;
   IRExpr* flag64;

   if (cg_control_toggling())
      flag = word_binop(d, Iop_And64, Iop_And32, flag,
                        load_word(d, ptr_const(cg_control_collecting_word())));
   counter = ptr_const(&cc->count[event]);
   flag64  = is_64bit(d) ? flag
                     : assign(d, Ity_I64, IRExpr_Unop(Iop_32Uto64, flag));
   IRExpr *old, *new;

   old = assign(d, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, counter));
   new = assign(d, Ity_I64, IRExpr_Binop(Iop_Add64, old, flag64));
   addStmtToIRSB(d->out, IRStmt_Store(Iend_LE, counter, new));
}

/* The conditional predictor's update: a helper call.  Inline, it was
   about 110 bytes of host code per branch against about 45 for the
   call; for a compiler run that is 8 MB of translations, enough to put
   peak memory above the system Cachegrind's, while the time it saved
   was within a few percent even on branch-heavy loops (bench/README.md). */
static void deliver_cond_branch(Delivery* d, const Event* ev)
{
   IRExpr** args = mkIRExprVec_3(ptr_const(ev->instr->cc),
                                 word_const(d, cg_branch_cond_addr_part(
                                                  ev->instr->addr)),
                                 taken_as_word(d, ev));

   if (cg_control_toggling())
      CALL(d, cg_branch_cond_toggled, args, NULL);
   else
      CALL(d, cg_branch_cond, args, NULL);
}

/* The indirect predictor's update, inline. */
static void deliver_ind_branch(Delivery* d, const Event* ev)
{
   IRExpr* slot = ptr_const(cg_branch_ind_slot(ev->instr->addr));
   IRExpr* last_target = load_word(d, slot);
   IRExpr* differs = word_differs(d, last_target, ev->value);
   IRExpr* mispredicted = assign(d, d->word_ty,
                                 IRExpr_Unop(is_64bit(d) ? Iop_1Uto64
                                                         : Iop_1Uto32,
                                             differs));

   addStmtToIRSB(d->out, IRStmt_Store(Iend_LE, slot, ev->value));
   add_flag_to_count(d, ev->instr->cc, EV_BI_MISPRED, mispredicted);
}

/*------------------------------------------------------------*/
/*--- Cold translations                                    ---*/
/*------------------------------------------------------------*/

/* One call for a run of the group's cache events: a record of them
   (owned by the block) and their data addresses. */
static void emit_cold_run(Delivery* d, const ColdOp* ops, UInt n_ops,
                          IRExpr** addrs, UInt n_addrs)
{
   ColdRun* run = cg_costs_block_alloc(d->block, sizeof(ColdRun)
                                                 + n_ops * sizeof(ColdOp));
   IRExpr* r;
   UInt i;

   run->n_ops = n_ops;
   /* The block's first run counts the block's executions. */
   run->block = d->cold_runs_emitted++ == 0 ? d->block : NULL;
   for (i = 0; i < n_ops; i++)
      run->ops[i] = ops[i];
   r = ptr_const(run);
   switch (n_addrs) {
   case 0: CALL(d, cg_tier_run0, mkIRExprVec_1(r), NULL); break;
   case 1: CALL(d, cg_tier_run1, mkIRExprVec_2(r, addrs[0]), NULL); break;
   case 2: CALL(d, cg_tier_run2, mkIRExprVec_3(r, addrs[0], addrs[1]),
                NULL); break;
   case 3: CALL(d, cg_tier_run3, mkIRExprVec_4(r, addrs[0], addrs[1],
                                               addrs[2]), NULL); break;
   case 4: CALL(d, cg_tier_run4, mkIRExprVec_5(r, addrs[0], addrs[1],
                                               addrs[2], addrs[3]), NULL);
           break;
   default:
      tl_assert(n_addrs == COLD_MAX_ADDRS);
      CALL(d, cg_tier_run5, mkIRExprVec_6(r, addrs[0], addrs[1], addrs[2],
                                          addrs[3], addrs[4]), NULL);
   }
}

static ColdOpKind cold_fetch_kind(UWord first, UWord last,
                                  Bool first_known_mru)
{
   if (first == last)
      return COLD_FETCH;
   if (cg_sim_i1()->set_mask == 0)
      return COLD_FETCH_ALWAYS;
   return first_known_mru ? COLD_FETCH_LAST_ONLY : COLD_FETCH_BOTH;
}

/* A group's cache events, collected in queue order as ColdOps, for a
   cold translation's helper or a hot one's checker (cg_checkers.c):
   both run the same tests as deliver_fetch and deliver_data would
   inline.  A checker also runs the conditional predictor (its outcome
   is one more argument); otherwise branch events are emitted as they
   come.  The predictors and the caches share no state, so their
   relative order is free. */
typedef struct {
   ColdOp  ops[MAX_GROUP_EVENTS];
   IRExpr* addrs[MAX_CHECKER_ADDRS];   /* the call's arguments */
   UInt    n_ops, n_addrs;
   UInt    max_addrs;   /* per call */
   UInt    arg_base;    /* 1 where the descriptor is the first argument */
   Bool    checker;     /* else a cold run */
   ULong*  counter;     /* the next checker counts the group's runs */
   EventGroup* group;
} OpBatch;

/* One call per checker, with the data addresses as its arguments (after
   the descriptor, for a shared checker). */
static void emit_checker_call(Delivery* d, OpBatch* batch)
{
   void* desc = NULL;
   void* checker = cg_checker_for(batch->ops, batch->n_ops, batch->counter,
                                  cg_sim_i1(), cg_sim_d1(),
                                  batch->arg_base > 0 ? &desc : NULL);
   IRExpr* args[MAX_CHECKER_ADDRS + 1];
   UInt i, n = 0;

   if (desc != NULL && batch->counter != NULL)
      cg_costs_count_group_at(batch->group, (ULong*)desc);
   if (batch->arg_base > 0)
      args[n++] = mkIRExpr_HWord((HWord)desc);
   for (i = 0; i < batch->n_addrs; i++)
      args[n++] = batch->addrs[i];
   for (; n <= MAX_CHECKER_ADDRS; n++)
      args[n] = NULL;
   emit_call(d, "cg_group_checker", checker,
             mkIRExprVec_7(args[0], args[1], args[2], args[3], args[4],
                           args[5], args[6]), NULL);
   batch->counter = NULL;
}

static void flush_ops(Delivery* d, OpBatch* batch)
{
   if (batch->n_ops > 0) {
      if (batch->checker)
         emit_checker_call(d, batch);
      else
         emit_cold_run(d, batch->ops, batch->n_ops, batch->addrs,
                       batch->n_addrs);
   }
   batch->n_ops = batch->n_addrs = 0;
}

static void add_fetch_op(Delivery* d, OpBatch* batch, const Event* ev)
{
   UWord first, last;
   Bool first_known_mru;
   InstrInfo* site = fetch_site(d, ev, &first, &last, &first_known_mru);
   ColdOp* op;

   if (site == NULL)
      return;
   op = &batch->ops[batch->n_ops++];
   op->word = (UWord)site;
   op->kind = cold_fetch_kind(first, last, first_known_mru);
   op->arg = 0;
   op->size = 0;
}

static void add_data_op(Delivery* d, OpBatch* batch, const Event* ev,
                        Bool is_write)
{
   ColdOp* op;

   if (batch->n_addrs == batch->max_addrs)
      flush_ops(d, batch);
   tl_assert(ev->size > 0 && ev->size <= 0xFFFF);
   op = &batch->ops[batch->n_ops++];
   op->word = (UWord)ev->instr->cc | cg_log_entry_code(ev->size, is_write);
   op->kind = COLD_DATA;
   op->arg = (UChar)(batch->arg_base + batch->n_addrs);
   op->size = (UShort)ev->size;
   batch->addrs[batch->n_addrs++] = ev->addr;
}

static void add_cond_branch_op(Delivery* d, OpBatch* batch, const Event* ev)
{
   ColdOp* op;

   if (batch->n_addrs == batch->max_addrs)
      flush_ops(d, batch);
   op = &batch->ops[batch->n_ops++];
   op->word = (UWord)&ev->instr->cc->count[EV_BC_MISPRED];
   op->kind = COLD_COND_BRANCH;
   op->arg = (UChar)(batch->arg_base + batch->n_addrs);
   op->size = (UShort)cg_branch_cond_addr_part(ev->instr->addr);
   batch->addrs[batch->n_addrs++] = taken_as_word(d, ev);
}

static void start_batch(Delivery* d, OpBatch* batch, EventGroup* group)
{
   batch->n_ops = batch->n_addrs = 0;
   /* The log exists only where checkers do (amd64). */
   batch->checker = !d->cold && cg_log_enabled() && !cg_data_enabled();
   tl_assert(!batch->checker || cg_checkers_available());
   batch->arg_base = batch->checker && cg_checkers_use_descriptors() ? 1 : 0;
   batch->max_addrs = batch->checker ? MAX_CHECKER_ADDRS - batch->arg_base
                                     : COLD_MAX_ADDRS;
   /* With the log there is no --toggle-collect (cg_main.c), whose flag
      the count would have to add instead of 1. */
   batch->counter = batch->checker ? group->executions : NULL;
   batch->group = group;
}

/* --sharing: every data access, besides (and before) what the cache
   simulation makes of it; a modify is a read and a write. */
static void sharing_events(Delivery* d, const Event* events, Int n)
{
   Int i;

   for (i = 0; i < n; i++) {
      const Event* ev = &events[i];
      IRExpr** args;

      if (ev->kind != EVT_READ && ev->kind != EVT_WRITE
          && ev->kind != EVT_MODIFY)
         continue;
      args = mkIRExprVec_3(ptr_const(ev->instr->cc), ev->addr,
                           mkIRExpr_HWord((HWord)ev->size));
      if (ev->kind != EVT_WRITE)
         CALL(d, cg_sharing_read, args, NULL);
      if (ev->kind != EVT_READ)
         CALL(d, cg_sharing_write,
              mkIRExprVec_3(ptr_const(ev->instr->cc), ev->addr,
                            mkIRExpr_HWord((HWord)ev->size)), NULL);
   }
}

/* --caches=per-thread: every data write and modify is recorded (an MRU
   hit too: the line leaves the other threads' caches) */
static void coherence_events(Delivery* d, const Event* events, Int n)
{
   Int i;

   for (i = 0; i < n; i++)
      if (events[i].kind == EVT_WRITE || events[i].kind == EVT_MODIFY)
         CALL(d, cg_coherence_write,
              mkIRExprVec_2(events[i].addr,
                            mkIRExpr_HWord((HWord)events[i].size)), NULL);
}

/* --trace-out-file: each access of the run, in order, before the run's
   own instrumentation (which does not change). */
static void trace_events(Delivery* d, const Event* events, Int n)
{
   Int i;

   for (i = 0; i < n; i++) {
      const Event* ev = &events[i];
      UWord kind;
      IRExpr* addr;
      UWord size;

      switch (ev->kind) {
      case EVT_FETCH:
         kind = CG_TRACE_FETCH;
         addr = word_const(d, ev->instr->addr);
         size = ev->instr->len;
         break;
      case EVT_READ:   kind = CG_TRACE_READ;   break;
      case EVT_WRITE:  kind = CG_TRACE_WRITE;  break;
      case EVT_MODIFY: kind = CG_TRACE_MODIFY; break;
      default:
         continue;
      }
      if (kind != CG_TRACE_FETCH) {
         addr = ev->addr;
         size = (UWord)ev->size;
      }
      CALL(d, cg_trace_access,
           mkIRExprVec_3(mkIRExpr_HWord((HWord)(kind << 16 | size)), addr,
                         mkIRExpr_HWord((HWord)ev->instr->cc->index)),
           NULL);
   }
}

void cg_deliver_events(Delivery* d, const Event* events, Int n)
{
   OpBatch batch;
   EventGroup* group;
   Bool as_ops;
   Int i;

   if (n == 0)
      return;
   if (cg_trace_enabled())
      trace_events(d, events, n);
   if (cg_sharing_enabled())
      sharing_events(d, events, n);
   if (cg_coherence_enabled())
      coherence_events(d, events, n);
   group = register_group(d, events, n);
   start_batch(d, &batch, group);
   as_ops = d->cold || batch.checker;
   if (batch.counter == NULL)
      emit_group_counter(d, group);
   for (i = 0; i < n; i++) {
      const Event* ev = &events[i];
      switch (ev->kind) {
      case EVT_FETCH:
         if (as_ops)
            add_fetch_op(d, &batch, ev);
         else
            deliver_fetch(d, ev);
         break;
      case EVT_READ:
      case EVT_MODIFY:
      case EVT_WRITE:
         if (as_ops)
            add_data_op(d, &batch, ev, ev->kind == EVT_WRITE);
         else
            deliver_data(d, ev, ev->kind == EVT_WRITE);
         break;
      case EVT_COND_BRANCH:
         if (batch.checker)
            add_cond_branch_op(d, &batch, ev);
         else
            deliver_cond_branch(d, ev);
         break;
      case EVT_IND_BRANCH:
         deliver_ind_branch(d, ev);
         break;
      }
   }
   flush_ops(d, &batch);
   drain_if_full(d);
   /* No checker was called (every fetch a known hit, no data access):
      counted inline after all. */
   if (batch.counter != NULL)
      emit_group_counter(d, group);
   if (cg_intervals_enabled())
      emit_interval_step(d, events, n);
}

/* Rare (guarded loads and stores), so counted by the helper itself. */
void cg_deliver_guarded_access(Delivery* d, InstrInfo* instr, Bool is_write,
                               IRExpr* addr, Int size, IRExpr* guard)
{
   IRExpr** args;

   if (cg_trace_enabled())
      CALL(d, cg_trace_access,
           mkIRExprVec_3(mkIRExpr_HWord((HWord)((is_write ? CG_TRACE_WRITE
                                                 : CG_TRACE_READ) << 16
                                                | (UWord)size)),
                         addr, mkIRExpr_HWord(0)),
           guard);
   if (cg_coherence_enabled() && is_write)
      CALL(d, cg_coherence_write,
           mkIRExprVec_2(addr, mkIRExpr_HWord((HWord)size)), guard);
   if (cg_sharing_enabled()) {
      args = mkIRExprVec_3(ptr_const(instr->cc), addr,
                           mkIRExpr_HWord((HWord)size));
      if (is_write)
         CALL(d, cg_sharing_write, args, guard);
      else
         CALL(d, cg_sharing_read, args, guard);
   }
   if (cg_data_enabled()) {
      DataSite* site = data_site(d, instr, size, is_write);
      CALL(d, cg_data_access_counted, mkIRExprVec_2(ptr_const(site), addr),
           guard);
      return;
   }
   if (cg_log_enabled()) {
      args = mkIRExprVec_3(word_const(d, (UWord)instr->cc | LOG_CODE_GUARDED),
                           addr, mkIRExpr_HWord((HWord)size));
      if (is_write)
         CALL(d, cg_log_guarded_write, args, guard);
      else
         CALL(d, cg_log_guarded_read, args, guard);
      return;
   }
   args = mkIRExprVec_4(ptr_const(instr->cc), addr,
                        mkIRExpr_HWord((HWord)size),
                        mkIRExpr_HWord((HWord)instr->addr));
   if (is_write)
      CALL(d, cg_sim_write_counted, args, guard);
   else
      CALL(d, cg_sim_read_counted, args, guard);
}

/*------------------------------------------------------------*/
/*--- Collection control and basic block vectors           ---*/
/*------------------------------------------------------------*/

static IRExpr* stack_pointer(Delivery* d, Int offset_sp)
{
   return assign(d, d->word_ty, IRExpr_Get(offset_sp, d->word_ty));
}

/* --toggle-collect, at a block's start: if the stack pointer is above
   the innermost active function's entry value, that function (and
   maybe others) has ended. */
void cg_deliver_sp_check(Delivery* d, Int offset_sp)
{
   IRExpr* sp = stack_pointer(d, offset_sp);
   IRExpr* entry_sp = load_word(d, ptr_const(cg_control_innermost_entry_sp()));
   IRExpr* above = assign(d, Ity_I1, IRExpr_Binop(is_64bit(d) ? Iop_CmpLT64U
                                                             : Iop_CmpLT32U,
                                                 entry_sp, sp));

   CALL(d, cg_control_check_sp, mkIRExprVec_1(sp), above);
}

/* --toggle-collect, at the first instruction of a matching function. */
void cg_deliver_toggle_enter(Delivery* d, Int offset_sp)
{
   CALL(d, cg_control_enter, mkIRExprVec_1(stack_pointer(d, offset_sp)),
        NULL);
}

/* --data-profile, at the first instruction of an allocator function:
   its arguments and stack pointer to cg_alloc_enter.  The program
   counter is stored first, so that the call stack the helper takes
   starts at this instruction (it is otherwise stored only at exits). */
void cg_deliver_alloc_entry(Delivery* d, Int kind, Addr instr_addr,
                            Int offset_sp, Int offset_ip)
{
   Int arg_offsets[3], result_offset, i;
   IRExpr* args[3];

   cg_alloc_guest_registers(arg_offsets, &result_offset);
   for (i = 0; i < 3; i++)
      args[i] = arg_offsets[i] < 0
                ? word_const(d, 0)
                : assign(d, d->word_ty, IRExpr_Get(arg_offsets[i],
                                                   d->word_ty));
   addStmtToIRSB(d->out, IRStmt_Put(offset_ip, word_const(d, instr_addr)));
   CALL(d, cg_alloc_enter,
        mkIRExprVec_5(word_const(d, (UWord)kind), stack_pointer(d, offset_sp),
                      args[0], args[1], args[2]), NULL);
}

/* --data-profile, at a block's start: if the stack pointer is above the
   running thread's pending allocator call, that call has returned (to
   this block) and its result is in the result register. */
void cg_deliver_alloc_return_check(Delivery* d, Int offset_sp)
{
   Int arg_offsets[3], result_offset;
   IRExpr* sp = stack_pointer(d, offset_sp);
   IRExpr* entry_sp = load_word(d, ptr_const(cg_alloc_pending_sp_word()));
   IRExpr* above = assign(d, Ity_I1, IRExpr_Binop(is_64bit(d) ? Iop_CmpLT64U
                                                             : Iop_CmpLT32U,
                                                 entry_sp, sp));
   IRExpr* result;

   cg_alloc_guest_registers(arg_offsets, &result_offset);
   result = assign(d, d->word_ty, IRExpr_Get(result_offset, d->word_ty));
   CALL(d, cg_alloc_returned, mkIRExprVec_2(sp, result), above);
}

/* --bb-out-file: a run of `n_instrs` instructions of the block is
   about to execute. */
void cg_deliver_bbv_run(Delivery* d, struct _BbvBlock* block, UInt n_instrs,
                        UInt n_fldcw)
{
   tl_assert(n_instrs <= 0xFFFF && n_fldcw <= n_instrs);
   CALL(d, cg_bbv_run,
        mkIRExprVec_2(ptr_const(block),
                      mkIRExpr_HWord((HWord)(n_instrs | (n_fldcw << 16)))),
        NULL);
}

/* --bb-out-file: an iteration of a rep-prefixed instruction. */
void cg_deliver_bbv_rep(Delivery* d, struct _BbvBlock* rep)
{
   CALL(d, cg_bbv_rep, mkIRExprVec_1(ptr_const(rep)), NULL);
}
