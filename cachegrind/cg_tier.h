/* cg_tier.h -- cold and hot translations (cg_tier.c), and the operations
   of a run that cold helpers and group checkers execute. */

#ifndef CG_TIER_H
#define CG_TIER_H

#include "pub_tool_basics.h"
#include "cg_costs.h"

/* One cache event of a cold translation's group, in program order. */
typedef enum {
   COLD_FETCH,            /* one line: log unless it is MRU */
   COLD_FETCH_ALWAYS,     /* two lines of a one-set I1: always log */
   COLD_FETCH_LAST_ONLY,  /* two lines, the first known MRU */
   COLD_FETCH_BOTH,       /* two lines: log unless both are MRU */
   COLD_DATA,             /* log unless in one line and that is MRU */
   COLD_COND_BRANCH       /* group checkers only: the conditional
                             predictor's update */
} ColdOpKind;

typedef struct {
   UWord  word;   /* fetches: the fetch site (InstrInfo*); data: the
                     log entry (cost centre | code); conditional
                     branches: the address of the mispredictions' count */
   UChar  kind;   /* ColdOpKind */
   UChar  arg;    /* data: which address argument of the helper;
                     branches: which argument is the outcome (0 or 1) */
   UShort size;   /* data: bytes; branches: the address part of the
                     predictor's index */
} ColdOp;

typedef struct {
   struct _BlockInfo* block;   /* the block's first run: its block */
   UInt   n_ops;
   ColdOp ops[0];
} ColdRun;

#define COLD_MAX_ADDRS 5

void  cg_tier_init(Bool cache_sim, Bool log_enabled, ULong threshold);
/* Whether the block at `key` is to be translated cold. */
Bool  cg_tier_block_is_cold(Addr key);
void  cg_tier_print_stats(void);
/* The core discards a translation of the block at `key`; returns
   whether its code may still run once (then its memory must stay). */
Bool  cg_tier_translation_discarded(Addr key, ULong executions,
                                    Bool was_cold);
/* Whether the block at `key` is translated again only because a
   promotion discarded it (then forgets that it was). */
Bool  cg_tier_take_retranslation(Addr key);
/* Blocks a promotion discarded that were not translated again yet. */
UInt  cg_tier_n_pending_retranslations(void);
/* Between blocks, outside compiled code: retranslates the blocks that
   became hot. */
void  cg_tier_promote_due(ULong blocks_done);
VG_REGPARM(1) void cg_tier_run0(const ColdRun* run);
VG_REGPARM(2) void cg_tier_run1(const ColdRun* run, Addr a0);
VG_REGPARM(3) void cg_tier_run2(const ColdRun* run, Addr a0, Addr a1);
VG_REGPARM(3) void cg_tier_run3(const ColdRun* run, Addr a0, Addr a1,
                                Addr a2);
VG_REGPARM(3) void cg_tier_run4(const ColdRun* run, Addr a0, Addr a1,
                                Addr a2, Addr a3);
VG_REGPARM(3) void cg_tier_run5(const ColdRun* run, Addr a0, Addr a1,
                                Addr a2, Addr a3, Addr a4);

#endif /* CG_TIER_H */
