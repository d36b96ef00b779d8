/* cg_deliver.h -- the events the IR pass queues, and their delivery
   (cg_deliver.c).

   cg_instrument.c decides which events a superblock has and when the
   queue is flushed; cg_deliver.c turns each flushed run of events into
   IR (counters, inline cache checks, helper calls).  Nothing else
   emits IR. */

#ifndef CG_DELIVER_H
#define CG_DELIVER_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "cg_costs.h"

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
   IRExpr*    addr;       /* data events: an atom */
   Int        size;       /* data events */
   IRExpr*    value;      /* cond: guard (Ity_I1); ind: target */
   Bool       inverted;   /* cond: taken == !guard */
} Event;

/* Per-superblock state of the delivery. */
typedef struct {
   IRSB*      out;
   IRType     word_ty;
   BlockInfo* block;
   /* The I1 block of the last instruction fetch delivered in this
      superblock.  It is the most recently used line of its set, and
      only fetches touch I1, so a later fetch inside it is a hit that
      changes nothing and needs no simulation at all. */
   Bool       have_last_fetch;
   UWord      last_fetch_block;
   /* A cold translation (cg_tier.c): one helper call per group instead
      of the inline tests. */
   Bool       cold;
   UInt       cold_runs_emitted;
   /* --data-profile: the data sites of this translation, so that the
      copies of an instruction in an unrolled loop share one (its
      accesses are then seen in order, as one stream) */
   struct {
      Addr  instr_addr;
      UInt  ordinal;      /* the instruction's n-th data access */
      struct _DataSite* site;
   } data_sites[64];
   UInt       n_data_sites;
   const InstrInfo* data_instr;  /* the instruction of the last one */
   UInt       data_ordinal;
   /* The access buffer's cursor after the last append of this group,
      while no call has been emitted since (a call may drain it) */
   IRExpr*    data_cursor;
   Bool       data_appended;     /* this group appended */
} Delivery;

void cg_deliver_start(Delivery* d, IRSB* out, IRType word_ty,
                      BlockInfo* block, Bool cold);

/* The length VEX gives an instruction (an undecodable one has 0). */
UWord cg_instr_len(const IRStmt* imark);
/* The number of fetch sites (InstrInfos) the block of `sb` needs. */
UInt cg_deliver_count_fetch_sites(const IRSB* sb);
/* Delivers a run of events that always executes as a whole. */
void cg_deliver_events(Delivery* d, const Event* events, Int n);
/* A load or store that happens only if `guard` holds. */
void cg_deliver_guarded_access(Delivery* d, InstrInfo* instr, Bool is_write,
                               IRExpr* addr, Int size, IRExpr* guard);

/* Collection control (cg_control.c) and basic block vectors (cg_bbv.c). */
struct _BbvBlock;
void cg_deliver_sp_check(Delivery* d, Int offset_sp);
void cg_deliver_toggle_enter(Delivery* d, Int offset_sp);
/* --data-profile: an allocator function's first instruction; every
   block's start (has a pending allocator call returned?) */
void cg_deliver_alloc_entry(Delivery* d, Int kind, Addr instr_addr,
                            Int offset_sp, Int offset_ip);
void cg_deliver_alloc_return_check(Delivery* d, Int offset_sp);
void cg_deliver_bbv_run(Delivery* d, struct _BbvBlock* block, UInt n_instrs,
                        UInt n_fldcw);
void cg_deliver_bbv_rep(Delivery* d, struct _BbvBlock* rep);

/* For --stats=yes: how conditional branches' outcomes were translated. */
void cg_deliver_print_stats(void);

#endif /* CG_DELIVER_H */
