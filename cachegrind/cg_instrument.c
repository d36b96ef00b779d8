/* cg_instrument.c -- the IR pass: where events are created.

   Owns: the walk over a superblock's flat IR and the event queue: which
   events exist, in what order, and when they are flushed.
   Must not: emit IR for events (cg_deliver.c does) or simulate
   (cg_sim.c does).

   Every count is a function of the optimised IR the core hands us
   (VEX may already have removed dead loads or merged blocks), so the
   rules here are deliberately literal:
   - each IMark is an instruction fetch (Ir);
   - a Load is a read, a Store a write, a dirty helper's declared
     memory effect a read and/or write, a CAS a read then a write;
   - a write queued right after a read of the same instruction, size
     and address atom becomes one "modify", simulated as a read only;
   - a side exit of kind Boring/Call/Ret is a conditional branch, the
     block end a possible indirect branch.
   Events wait in a 16-entry queue and are delivered when it is flushed:
   when full, before each exit, after a load-linked, before a guarded
   access, and at the block end.  The simulated stream is therefore in
   program order, and a fault in mid-block loses the events still
   queued -- exactly the behaviour whose counts we reproduce. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_tooliface.h"
#include "cg_instrument.h"
#include "cg_alloc.h"
#include "cg_bbv.h"
#include "cg_control.h"
#include "cg_costs.h"
#include "cg_data.h"
#include "cg_deliver.h"
#include "cg_options.h"
#include "cg_tier.h"

#define QUEUE_CAPACITY 16

typedef struct {
   IRSB*      out;
   Int        offset_sp;      /* guest stack pointer in the guest state */
   Int        offset_ip;      /* guest program counter */
   struct _BbvBlock* bbv_block; /* --bb-out-file, else NULL */
   Delivery   delivery;
   BlockInfo* block;
   Bool       counts_stats;   /* not a promotion's second translation */
   UInt       n_instrs_seen;
   InstrInfo* current;        /* instruction the statements belong to */
   Event      queue[QUEUE_CAPACITY];
   Int        n_queued;
} Pass;

static Int min_line_size;    /* cap for dirty-helper and CAS accesses */
static Int i1_line_size;
static Bool fetch_never_straddles_differently; /* I1.line == LL.line */
static CgInstrumentStats instrument_stats;

void cg_instrument_init(Int min_line, Int i1_line, Int ll_line)
{
   min_line_size = min_line;
   i1_line_size  = i1_line;
   fetch_never_straddles_differently = (i1_line == ll_line);
}

const CgInstrumentStats* cg_instrument_stats(void)
{
   return &instrument_stats;
}

static void flush_events(Pass* p)
{
   cg_deliver_events(&p->delivery, p->queue, p->n_queued);
   p->n_queued = 0;
}

/*------------------------------------------------------------*/
/*--- Queueing events                                      ---*/
/*------------------------------------------------------------*/

static Event* queue_event(Pass* p, EventKind kind)
{
   Event* ev;

   if (p->n_queued == QUEUE_CAPACITY)
      flush_events(p);
   ev = &p->queue[p->n_queued++];
   ev->kind     = kind;
   ev->instr    = p->current;
   ev->addr     = NULL;
   ev->size     = 0;
   ev->value    = NULL;
   ev->inverted = False;
   return ev;
}

static void add_fetch(Pass* p)
{
   const InstrInfo* ii = p->current;
   Addr first_line = ii->addr & ~(Addr)(i1_line_size - 1);
   Addr last_line  = (ii->addr + ii->len - 1) & ~(Addr)(i1_line_size - 1);

   if (!p->counts_stats)
      ;
   else if (fetch_never_straddles_differently && first_line == last_line)
      instrument_stats.instrs_nox++;
   else
      instrument_stats.instrs_gen++;
   queue_event(p, EVT_FETCH);
}

static void add_read(Pass* p, IRExpr* addr, Int size)
{
   Event* ev;

   if (!cg_clo.cache_sim)
      return;
   ev = queue_event(p, EVT_READ);
   ev->addr = addr;
   ev->size = size;
}

static void add_write(Pass* p, IRExpr* addr, Int size)
{
   Event* ev;

   if (!cg_clo.cache_sim)
      return;
   if (p->n_queued > 0) {
      Event* last = &p->queue[p->n_queued - 1];
      if (last->kind == EVT_READ && last->instr == p->current
          && last->size == size && eqIRAtom(last->addr, addr)) {
         last->kind = EVT_MODIFY;
         return;
      }
   }
   ev = queue_event(p, EVT_WRITE);
   ev->addr = addr;
   ev->size = size;
}

/* Guarded accesses bypass the queue: everything queued before them is
   delivered first, then one call that runs only if the guard holds. */
static void add_guarded_access(Pass* p, Bool is_write, IRExpr* addr,
                               Int size, IRExpr* guard)
{
   if (!cg_clo.cache_sim)
      return;
   flush_events(p);
   cg_deliver_guarded_access(&p->delivery, p->current, is_write, addr, size,
                             guard);
}

static void add_cond_branch(Pass* p, IRExpr* guard, const IRConst* dst)
{
   Addr next_instr = p->current->addr + p->current->len;
   Addr target = dst->tag == Ico_U64 ? (Addr)dst->Ico.U64
                                     : (Addr)dst->Ico.U32;
   Event* ev;

   if (!cg_clo.branch_sim)
      return;
   ev = queue_event(p, EVT_COND_BRANCH);
   ev->value    = guard;
   ev->inverted = (target == next_instr);
}

static void add_ind_branch(Pass* p, IRExpr* target)
{
   Event* ev;

   if (!cg_clo.branch_sim)
      return;
   ev = queue_event(p, EVT_IND_BRANCH);
   ev->value = target;
}

/*------------------------------------------------------------*/
/*--- The walk                                             ---*/
/*------------------------------------------------------------*/

static Int capped(Int size)
{
   return size > min_line_size ? min_line_size : size;
}

/* The call that notes an iteration of a rep-prefixed instruction. */
static void bbv_rep_check(Pass* p, Addr instr_addr)
{
   if (p->bbv_block != NULL && cg_bbv_is_rep_string_instr(instr_addr))
      cg_deliver_bbv_rep(&p->delivery, cg_bbv_rep_for(instr_addr));
}

/* The superblock's instructions while it is translated (events point
   at them); only the fetch sites outlive the translation. */
static InstrInfo* instrs_scratch;
static UInt       instrs_scratch_size;

static void start_instruction(Pass* p, const IRStmt* st)
{
   InstrInfo* ii;

   tl_assert(p->n_instrs_seen < instrs_scratch_size);
   ii = &instrs_scratch[p->n_instrs_seen++];
   ii->addr = (Addr)st->Ist.IMark.addr;
   ii->len  = cg_instr_len(st);
   ii->cc   = cg_costs_for_instr(ii->addr, p->counts_stats);
   p->current = ii;
   bbv_rep_check(p, ii->addr);
   if (cg_control_is_toggle_entry(ii->addr)) {
      /* Events before the entry are collected (or not) as before it. */
      flush_events(p);
      cg_deliver_toggle_enter(&p->delivery, p->offset_sp);
   }
   if (cg_data_enabled()) {
      Int kind = cg_alloc_entry_kind(ii->addr);
      if (kind >= 0) {
         /* A free's block must still be there for the accesses queued
            before it. */
         flush_events(p);
         cg_deliver_alloc_entry(&p->delivery, kind, ii->addr, p->offset_sp,
                                p->offset_ip);
      }
   }
   add_fetch(p);
}

static void add_dirty_effects(Pass* p, const IRDirty* d)
{
   Int size;

   if (d->mFx == Ifx_None)
      return;
   tl_assert(d->mAddr != NULL && d->mSize != 0);
   size = capped(d->mSize);
   if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
      add_read(p, d->mAddr, size);
   if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
      add_write(p, d->mAddr, size);
}

static void add_cas(Pass* p, IRTypeEnv* tyenv, const IRCAS* cas)
{
   Int size = sizeofIRType(typeOfIRExpr(tyenv, cas->dataLo));

   if (cas->dataHi != NULL)
      size *= 2;
   size = capped(size);
   add_read(p, cas->addr, size);
   add_write(p, cas->addr, size);
}

static void add_llsc(Pass* p, IRTypeEnv* tyenv, const IRStmt* st)
{
   if (st->Ist.LLSC.storedata == NULL) {
      /* Load-linked: deliver now, before the store-conditional that
         may follow in the same block. */
      add_read(p, st->Ist.LLSC.addr,
               sizeofIRType(typeOfIRTemp(tyenv, st->Ist.LLSC.result)));
      flush_events(p);
   } else {
      add_write(p, st->Ist.LLSC.addr,
                sizeofIRType(typeOfIRExpr(tyenv, st->Ist.LLSC.storedata)));
   }
}

static void add_exit(Pass* p, const IRStmt* st)
{
   IRJumpKind jk = st->Ist.Exit.jk;

   if (jk == Ijk_Boring || jk == Ijk_Call || jk == Ijk_Ret)
      add_cond_branch(p, st->Ist.Exit.guard, st->Ist.Exit.dst);
   flush_events(p);
}

static void add_events_for(Pass* p, IRTypeEnv* tyenv, IRStmt* st)
{
   switch (st->tag) {
   case Ist_NoOp: case Ist_AbiHint: case Ist_Put: case Ist_PutI:
   case Ist_MBE:
      break;
   case Ist_IMark:
      start_instruction(p, st);
      break;
   case Ist_WrTmp:
      if (st->Ist.WrTmp.data->tag == Iex_Load) {
         const IRExpr* load = st->Ist.WrTmp.data;
         add_read(p, load->Iex.Load.addr, sizeofIRType(load->Iex.Load.ty));
      }
      break;
   case Ist_Store:
      add_write(p, st->Ist.Store.addr,
                sizeofIRType(typeOfIRExpr(tyenv, st->Ist.Store.data)));
      break;
   case Ist_StoreG: {
      const IRStoreG* sg = st->Ist.StoreG.details;
      add_guarded_access(p, True, sg->addr,
                         sizeofIRType(typeOfIRExpr(tyenv, sg->data)),
                         sg->guard);
      break;
   }
   case Ist_LoadG: {
      const IRLoadG* lg = st->Ist.LoadG.details;
      IRType widened, loaded;
      typeOfIRLoadGOp(lg->cvt, &widened, &loaded);
      add_guarded_access(p, False, lg->addr, sizeofIRType(loaded),
                         lg->guard);
      break;
   }
   case Ist_Dirty:
      add_dirty_effects(p, st->Ist.Dirty.details);
      break;
   case Ist_CAS:
      add_cas(p, tyenv, st->Ist.CAS.details);
      break;
   case Ist_LLSC:
      add_llsc(p, tyenv, st);
      break;
   case Ist_Exit:
      add_exit(p, st);
      break;
   default:
      ppIRStmt(st);
      VG_(tool_panic)("cachegrind: unexpected IR statement");
   }
}

static UInt count_instrs(const IRSB* sb)
{
   UInt n = 0;
   Int i;
   for (i = 0; i < sb->stmts_used; i++)
      if (sb->stmts[i]->tag == Ist_IMark)
         n++;
   return n;
}

/* --bb-out-file: counts the instructions from statement `from` up to
   the next side exit (or the end), other than rep-prefixed string
   instructions (counted apart, see cg_bbv.c), and emits the call that
   adds them when that run starts. */
static void bbv_run_from(Pass* p, const IRSB* sb, Int from)
{
   UInt n_plain = 0, n_fldcw = 0;
   Int i;

   for (i = from; i < sb->stmts_used && sb->stmts[i]->tag != Ist_Exit; i++) {
      Addr a;
      if (sb->stmts[i]->tag != Ist_IMark)
         continue;
      a = (Addr)sb->stmts[i]->Ist.IMark.addr;
      if (cg_bbv_is_rep_string_instr(a))
         continue;
      n_plain++;
      n_fldcw += cg_bbv_is_fldcw(a);
   }
   if (n_plain > 0)
      cg_deliver_bbv_run(&p->delivery, p->bbv_block, n_plain, n_fldcw);
}

IRSB* cg_instrument(VgCallbackClosure* closure, IRSB* sb_in,
                    const VexGuestLayout* layout,
                    const VexGuestExtents* vge,
                    const VexArchInfo* archinfo,
                    IRType gWordTy, IRType hWordTy)
{
   Pass p;
   Int i = 0;
   UInt n_instrs;

   if (gWordTy != hWordTy)
      VG_(tool_panic)("host/guest word size mismatch");
   /* Stopped: no counting, no simulation, not even the counters. */
   if (!cg_control_instrumenting())
      return sb_in;

   n_instrs   = count_instrs(sb_in);
   if (n_instrs > instrs_scratch_size) {
      instrs_scratch_size = 2 * n_instrs;
      instrs_scratch = VG_(realloc)("cg.instrument.instrs", instrs_scratch,
                                    instrs_scratch_size * sizeof(InstrInfo));
   }
   p.counts_stats = !cg_tier_take_retranslation(closure->nraddr);
   p.out      = deepCopyIRSBExceptStmts(sb_in);
   p.offset_sp = layout->offset_SP;
   p.offset_ip = layout->offset_IP;
   p.block    = cg_costs_new_block(closure->nraddr,
                                   cg_deliver_count_fetch_sites(sb_in));
   p.block->cold = cg_tier_block_is_cold(closure->nraddr);
   p.block->code_start = vge->base[0];
   cg_deliver_start(&p.delivery, p.out, gWordTy, p.block, p.block->cold);
   p.n_instrs_seen = 0;
   p.current  = NULL;
   p.n_queued = 0;

   /* Statements before the first IMark belong to no instruction. */
   while (i < sb_in->stmts_used && sb_in->stmts[i]->tag != Ist_IMark)
      addStmtToIRSB(p.out, sb_in->stmts[i++]);
   if (cg_control_toggling())
      cg_deliver_sp_check(&p.delivery, p.offset_sp);
   if (cg_data_enabled())
      cg_deliver_alloc_return_check(&p.delivery, p.offset_sp);
   p.bbv_block = NULL;
   if (cg_bbv_enabled() && i < sb_in->stmts_used) {
      p.bbv_block = cg_bbv_block_for((Addr)sb_in->stmts[i]->Ist.IMark.addr);
      bbv_run_from(&p, sb_in, i);
   }

   for (; i < sb_in->stmts_used; i++) {
      IRStmt* st = sb_in->stmts[i];
      if (st == NULL)
         continue;
      add_events_for(&p, sb_in->tyenv, st);
      addStmtToIRSB(p.out, st);
      if (st->tag == Ist_Exit && p.bbv_block != NULL)
         bbv_run_from(&p, sb_in, i + 1);
   }

   /* An indirect jump or call ends the block with a computed target;
      returns are not predicted. */
   if ((sb_in->jumpkind == Ijk_Boring || sb_in->jumpkind == Ijk_Call)
       && sb_in->next->tag == Iex_RdTmp && p.current != NULL)
      add_ind_branch(&p, sb_in->next);
   flush_events(&p);
   return p.out;
}
