/* cg_costs.h -- cost centres, debug-info look-ups and the per-block tables
   of execution counters (cg_costs.c). */

#ifndef CG_COSTS_H
#define CG_COSTS_H

#include "pub_tool_basics.h"
#include "cg_tool.h"

/* All instructions with the same (file, function, line) share one
   cost centre.  Strings are interned, so equal names are equal
   pointers.  Cost centres live until exit: discarded translations
   and unloaded code keep their counts. */
typedef struct _CostCentre {
   const HChar*        file;
   const HChar*        fn;
   Int                 line;
   UInt                index;      /* creation order: see GroupCount */
   /* Only the first cg_costs_n_events() exist: a run without a middle
      level (--L2) has no room for its counters, so that cost centres
      stay 128 bytes (gcc makes hundreds of thousands). */
   ULong               count[CG_N_EVENTS];
} CostCentre;

/* One guest instruction: its address, length and cost centre.  While a
   superblock is translated there is one per instruction; a translation
   keeps one only for each instruction fetch its code simulates (the
   fetch helper's argument).  Data helpers are given the cost centre
   itself, so the instructions in the middle of a cache line need no
   record at all: for cc1 that is 16 MB of heap less. */
typedef struct {
   Addr        addr;
   UWord       len;
   CostCentre* cc;
} InstrInfo;

/* Events of one flushed run that land on the same cost centre and
   counter: they all execute as often as the run. */
typedef struct {
   CostCentre* cc;
   UInt        event;   /* CgEvent */
   UInt        times;   /* events of that kind in the run */
} GroupItem;

/* The same as kept for the life of the translation, in half the space
   (a large program has hundreds of thousands of them). */
typedef struct {
   UInt   cc_index;     /* CostCentre.index */
   UShort event;
   UShort times;
} GroupCount;

/* A run of events that always executes as a whole, with the one
   counter compiled code increments for it. */
typedef struct _EventGroup {
   ULong*              executions;   /* in a pool of counters, or in a
                                        checker's descriptor */
   struct _EventGroup* next;
   UInt                n_counts;
   Bool                pool_counter; /* executions is the pool's */
   GroupCount          counts[0];
} EventGroup;

/* One per live translation, keyed by its non-redirected address. */
typedef struct _BlockInfo {
   struct _BlockInfo* next;     /* VgHashNode layout: next, key */
   UWord              key;
   EventGroup*        groups;
   struct _BlockMem*  owned;    /* freed with the block */
   Addr               code_start;  /* of the first extent (redirected) */
   ULong              cold_executions;  /* counted by cold translations */
   Bool               cold;
   Bool               promotion_due;
   struct _DataSite*  data_sites;  /* --data-profile: its sites (cg_data.c) */
   UInt               n_fetch_sites;     /* capacity */
   UInt               n_fetch_sites_used;
   InstrInfo          fetch_sites[0];
} BlockInfo;

typedef struct {
   ULong lookups_full;       /* file/line and function found */
   ULong lookups_file_line;  /* only file/line */
   ULong lookups_fn;         /* only function */
   ULong lookups_none;
} CgLookupStats;

/* `all_events`: cost centres have a counter for every CgEvent, else
   only for Cachegrind 3.19's (up to EV_BI_MISPRED). */
void        cg_costs_init(Bool all_events);
/* How many counters a cost centre has: every event below it */
UInt        cg_costs_n_events(void);
BlockInfo*  cg_costs_new_block(Addr key, UInt n_fetch_sites);
/* Folds the block's counts and forgets it.  `may_still_run`: its code
   may run once more, so its memory is kept (and counted at exit). */
void        cg_costs_discard_block(Addr key, Bool may_still_run);
EventGroup* cg_costs_new_group(BlockInfo* block, const GroupItem* items,
                               UInt n_items);
/* The group's runs are counted at `counter` from now on (memory that
   outlives the group, holding 0). */
void        cg_costs_count_group_at(EventGroup* group, ULong* counter);
/* Called with each block whose memory is about to be freed (once its
   translation is discarded and cannot run again). */
void        cg_costs_on_block_freed(void (*fn)(BlockInfo* block));
/* Memory that lives exactly as long as the block's translation. */
void*       cg_costs_block_alloc(BlockInfo* block, SizeT bytes);
/* The live block with this key (either one, if there are two). */
BlockInfo*  cg_costs_lookup_block(Addr key);
/* Adds every group's executions to the cost centres and zeroes them. */
void        cg_costs_fold_all(void);
/* The output order of cost centres: < 0, 0 or > 0. */
Int         cg_costs_order(const CostCentre* a, const CostCentre* b);
/* Calls `fn` for every cost centre, in no particular order. */
void        cg_costs_for_each(void (*fn)(CostCentre* cc, void* arg),
                              void* arg);
/* `count_lookup_stats`: False when translating again a block already
   counted (a promotion), so that --stats=yes matches the reference. */
CostCentre* cg_costs_for_instr(Addr instr_addr, Bool count_lookup_stats);
/* The file, function and line cg_costs_for_instr would give, interned,
   without making a cost centre. */
void        cg_costs_describe(Addr instr_addr, const HChar** file,
                              const HChar** fn, Int* line);
/* All cost centres, in output order (file, function, line).  The
   array is the caller's to free. */
CostCentre** cg_costs_sorted(UInt* n_out);
UInt        cg_costs_n_strings(void);
UInt        cg_costs_n_centres(void);
UInt        cg_costs_n_live_blocks(void);
const CgLookupStats* cg_costs_lookup_stats(void);

/* How many cost centres there are (indices 0 .. this - 1) */
UInt cg_costs_count(void);
/* The cost centre of an index (CostCentre.index) */
CostCentre* cg_costs_by_index(UInt index);

#endif /* CG_COSTS_H */
