/* cg_instrument.c -- the IR pass: where events are created.

   Owns: the walk over a superblock's flat IR, the event queue, and the
   emission of helper calls that deliver queued events at run time.
   Must not: simulate or count; the helpers in cg_sim.c do that.

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
   Events wait in a 16-entry queue and become calls when it is flushed:
   when full, before each exit, after a load-linked, before a guarded
   access, and at the block end.  The simulated stream is therefore in
   program order, and a fault in mid-block loses the events still
   queued -- exactly the behaviour whose counts we reproduce. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"
#include "cg_tool.h"

#define QUEUE_CAPACITY 16
/* Longest x86/amd64 instruction; client-request preambles are longer
   and count as one instruction of VG_CLREQ_SZB bytes. */
#define MAX_INSTR_LEN  16

typedef enum {
   EVT_FETCH,         /* instruction fetch */
   EVT_READ,
   EVT_WRITE,
   EVT_MODIFY,        /* read + write merged: simulated as a read */
   EVT_COND_BRANCH,
   EVT_IND_BRANCH
} EventKind;

typedef struct {
   EventKind  kind;
   InstrInfo* instr;
   IRExpr*    addr;       /* data events */
   Int        size;       /* data events */
   IRExpr*    value;      /* cond: guard (Ity_I1); ind: target */
   Bool       inverted;   /* cond: taken == !guard */
} Event;

typedef struct {
   IRSB*      out;
   IRType     word_ty;
   BlockInfo* block;
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

/*------------------------------------------------------------*/
/*--- Emitting helper calls                                ---*/
/*------------------------------------------------------------*/

static void emit_call(Pass* p, const HChar* name, void* fn,
                      IRExpr** args, IRExpr* guard)
{
   Int n_args = 0;
   IRDirty* d;

   while (args[n_args] != NULL)
      n_args++;
   d = unsafeIRDirty_0_N(n_args, name, VG_(fnptr_to_fnentry)(fn), args);
   if (guard != NULL)
      d->guard = guard;
   addStmtToIRSB(p->out, IRStmt_Dirty(d));
}

#define CALL(p, helper, args, guard) \
   emit_call((p), #helper, (void*)(helper), (args), (guard))

static IRExpr* instr_arg(const Event* ev)
{
   return mkIRExpr_HWord((HWord)ev->instr);
}

static IRExpr* size_arg(const Event* ev)
{
   return mkIRExpr_HWord((HWord)ev->size);
}

static Bool is_read(const Event* ev)
{
   return ev->kind == EVT_READ || ev->kind == EVT_MODIFY;
}

/* taken = guard, or its negation when the exit leaves to the next
   instruction (VEX may lay a jcc out either way round). */
static IRExpr* taken_as_word(Pass* p, const Event* ev)
{
   IRExpr* cond = ev->value;
   IRTemp widened = newIRTemp(p->out->tyenv, p->word_ty);
   IROp widen = p->word_ty == Ity_I64 ? Iop_1Uto64 : Iop_1Uto32;

   if (ev->inverted) {
      IRTemp negated = newIRTemp(p->out->tyenv, Ity_I1);
      addStmtToIRSB(p->out,
                    IRStmt_WrTmp(negated, IRExpr_Unop(Iop_Not1, cond)));
      cond = IRExpr_RdTmp(negated);
   }
   addStmtToIRSB(p->out, IRStmt_WrTmp(widened, IRExpr_Unop(widen, cond)));
   return IRExpr_RdTmp(widened);
}

/* Delivers the fetch at queue[i], merged with what follows it when one
   call can carry both; returns how many events it consumed. */
static Int emit_fetch(Pass* p, Int i)
{
   const Event* ev = &p->queue[i];
   const Event* next  = i + 1 < p->n_queued ? &p->queue[i + 1] : NULL;
   const Event* next2 = i + 2 < p->n_queued ? &p->queue[i + 2] : NULL;

   if (!cg_clo.cache_sim) {
      CALL(p, cg_sim_ir_only, mkIRExprVec_1(instr_arg(ev)), NULL);
      return 1;
   }
   if (next != NULL && next->instr == ev->instr
       && (is_read(next) || next->kind == EVT_WRITE)) {
      IRExpr** args = mkIRExprVec_3(instr_arg(ev), next->addr,
                                    size_arg(next));
      if (is_read(next))
         CALL(p, cg_sim_ir_read, args, NULL);
      else
         CALL(p, cg_sim_ir_write, args, NULL);
      return 2;
   }
   if (next != NULL && next->kind == EVT_FETCH) {
      if (next2 != NULL && next2->kind == EVT_FETCH) {
         CALL(p, cg_sim_ir3, mkIRExprVec_3(instr_arg(ev), instr_arg(next),
                                           instr_arg(next2)), NULL);
         return 3;
      }
      CALL(p, cg_sim_ir2, mkIRExprVec_2(instr_arg(ev), instr_arg(next)),
           NULL);
      return 2;
   }
   CALL(p, cg_sim_ir, mkIRExprVec_1(instr_arg(ev)), NULL);
   return 1;
}

static void flush_events(Pass* p)
{
   Int i = 0;

   while (i < p->n_queued) {
      const Event* ev = &p->queue[i];
      switch (ev->kind) {
      case EVT_FETCH:
         i += emit_fetch(p, i);
         continue;
      case EVT_READ:
      case EVT_MODIFY:
         CALL(p, cg_sim_read,
              mkIRExprVec_3(instr_arg(ev), ev->addr, size_arg(ev)), NULL);
         break;
      case EVT_WRITE:
         CALL(p, cg_sim_write,
              mkIRExprVec_3(instr_arg(ev), ev->addr, size_arg(ev)), NULL);
         break;
      case EVT_COND_BRANCH:
         CALL(p, cg_sim_cond_branch,
              mkIRExprVec_2(instr_arg(ev), taken_as_word(p, ev)), NULL);
         break;
      case EVT_IND_BRANCH:
         CALL(p, cg_sim_ind_branch,
              mkIRExprVec_2(instr_arg(ev), ev->value), NULL);
         break;
      }
      i++;
   }
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

   if (fetch_never_straddles_differently && first_line == last_line)
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
   Event ev;

   if (!cg_clo.cache_sim)
      return;
   flush_events(p);
   ev.instr = p->current;
   ev.size  = size;
   if (is_write)
      CALL(p, cg_sim_write, mkIRExprVec_3(instr_arg(&ev), addr,
                                          size_arg(&ev)), guard);
   else
      CALL(p, cg_sim_read, mkIRExprVec_3(instr_arg(&ev), addr,
                                         size_arg(&ev)), guard);
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

static void start_instruction(Pass* p, const IRStmt* st)
{
   InstrInfo* ii;
   UWord len = st->Ist.IMark.len;

   /* VEX marks an undecodable instruction with length 0. */
   if (len == 0)
      len = VG_MIN_INSTR_SZB;
   tl_assert((len >= VG_MIN_INSTR_SZB && len <= MAX_INSTR_LEN)
             || len == VG_CLREQ_SZB);
   tl_assert(p->n_instrs_seen < p->block->n_instrs);

   ii = &p->block->instrs[p->n_instrs_seen++];
   ii->addr = (Addr)st->Ist.IMark.addr;
   ii->len  = len;
   ii->cc   = cg_costs_for_instr(ii->addr);
   p->current = ii;
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

IRSB* cg_instrument(VgCallbackClosure* closure, IRSB* sb_in,
                    const VexGuestLayout* layout,
                    const VexGuestExtents* vge,
                    const VexArchInfo* archinfo,
                    IRType gWordTy, IRType hWordTy)
{
   Pass p;
   Int i = 0;

   if (gWordTy != hWordTy)
      VG_(tool_panic)("host/guest word size mismatch");

   p.out      = deepCopyIRSBExceptStmts(sb_in);
   p.word_ty  = gWordTy;
   p.block    = cg_costs_new_block(closure->nraddr, count_instrs(sb_in));
   p.n_instrs_seen = 0;
   p.current  = NULL;
   p.n_queued = 0;

   /* Statements before the first IMark belong to no instruction. */
   while (i < sb_in->stmts_used && sb_in->stmts[i]->tag != Ist_IMark)
      addStmtToIRSB(p.out, sb_in->stmts[i++]);

   for (; i < sb_in->stmts_used; i++) {
      IRStmt* st = sb_in->stmts[i];
      if (st == NULL)
         continue;
      add_events_for(&p, sb_in->tyenv, st);
      addStmtToIRSB(p.out, st);
   }

   /* An indirect jump or call ends the block with a computed target;
      returns are not predicted. */
   if ((sb_in->jumpkind == Ijk_Boring || sb_in->jumpkind == Ijk_Call)
       && sb_in->next->tag == Iex_RdTmp && p.current != NULL)
      add_ind_branch(&p, sb_in->next);
   flush_events(&p);
   return p.out;
}
