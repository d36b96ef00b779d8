/* cg_tool.h -- the types and entry points the cachegrind modules share.

   Module map (one job each):
     cg_main.c        registration with the core, start-up and exit
     cg_options.c     command-line options, --help text
     cg_config.c      cache geometry: host detection, adjustment, checks
     cg_cache.h/.c    one generic LRU cache level (I1, D1 and LL instances)
     cg_branch.c      conditional and indirect branch predictors
     cg_costs.c       cost centres, debug-info lookups, per-block tables
     cg_sim.c         run-time helpers: events -> models -> counters
     cg_log.c         the access log compiled code hands to the
                      simulator (thread)
     cg_instrument.c  the IR pass: which events, in what order, when flushed
     cg_events.h      the event type shared by the two IR modules
     cg_deliver.c     the IR emitted for events: counters, inline checks,
                      helper calls
     cg_output.c      the cachegrind.out file
     cg_file.h/.c     writing any output file: temporary name, short
                      writes, fork, the final name
     cg_summary.c     the stderr summary and --stats lines
     cg_control.c     instrumentation on/off, --toggle-collect
     cg_intervals.c   the phase profile (--interval-size)
     cg_bbv.c         SimPoint basic block vectors (--bb-out-file)

   Each module keeps its own state in file-static variables; the parsed
   options (cg_clo) are the only global shared between modules. */

#ifndef CG_TOOL_H
#define CG_TOOL_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

/*------------------------------------------------------------*/
/*--- Identity                                             ---*/
/*------------------------------------------------------------*/

#ifndef CG_PACKAGE_VERSION
#define CG_PACKAGE_VERSION "0.1.0"
#endif

/*------------------------------------------------------------*/
/*--- Events counted per cost centre                       ---*/
/*------------------------------------------------------------*/

/* The order is the order of the counters in the output file. */
typedef enum {
   EV_IR = 0,          /* instructions executed            (Ir)   */
   EV_I1_MISS,         /* I1 misses                        (I1mr) */
   EV_LLI_MISS,        /* LL misses caused by fetches      (ILmr) */
   EV_DR,              /* data reads, incl. modifies       (Dr)   */
   EV_D1_READ_MISS,    /*                                  (D1mr) */
   EV_LL_READ_MISS,    /*                                  (DLmr) */
   EV_DW,              /* data writes                      (Dw)   */
   EV_D1_WRITE_MISS,   /*                                  (D1mw) */
   EV_LL_WRITE_MISS,   /*                                  (DLmw) */
   EV_BC,              /* conditional branches executed    (Bc)   */
   EV_BC_MISPRED,      /*                                  (Bcm)  */
   EV_BI,              /* indirect branches executed       (Bi)   */
   EV_BI_MISPRED,      /*                                  (Bim)  */
   CG_N_EVENTS
} CgEvent;

extern const HChar* const cg_event_names[CG_N_EVENTS];

/*------------------------------------------------------------*/
/*--- Options (cg_options.c)                               ---*/
/*------------------------------------------------------------*/

typedef struct {
   Int size;        /* bytes */
   Int assoc;       /* ways */
   Int line_size;   /* bytes */
} CacheGeometry;

#define CG_MAX_TOGGLE_PATTERNS 16
#define CG_LOG_MAX_CHUNKS      256   /* --log-chunks */

typedef struct {
   Bool          cache_sim;
   Bool          branch_sim;
   Bool          sim_thread;      /* simulate the access log in a thread */
   Long          log_chunks;      /* chunks in the access log's ring
                                     (debug option; cg_log.c) */
   Long          log_alloc_limit; /* chunks allocated at most, as if
                                     memory ran out (debug option) */
   Bool          checker_descriptors; /* groups of one shape share a
                                        checker (debug option) */
   Long          checker_shapes;  /* at most this many shapes shared */
   Long          inline_miss_paths; /* bytes of checkers made with miss
                                     paths inline (debug option) */
   Bool          checker_wide_constants; /* checkers take their 64-bit
                                     forms wherever they have one (debug
                                     option) */
   Bool          sim_vector;      /* the simulator's L1 look-ups with
                                     AVX2 where the host has it (debug
                                     option; cg_cache.h) */
   Bool          vex_checks;      /* VEX's IR sanity checks and its
                                     cleanup after instrumentation run
                                     (debug option; cg_vexpasses.c) */
   Long          hot_threshold;   /* cold executions before a hot
                                     translation (cg_tier.c); 0: none */
   const HChar*  out_file_format;
   CacheGeometry I1, D1, LL;
   Bool          I1_given, D1_given, LL_given;
   /* What is counted when (cg_control.c) */
   Bool          instr_at_start;
   const HChar*  toggle_patterns[CG_MAX_TOGGLE_PATTERNS];
   Int           n_toggle_patterns;
   /* Phase profile (cg_intervals.c); interval_size 0 = off */
   ULong         interval_size;
   const HChar*  intervals_out_file;
   /* SimPoint basic block vectors (cg_bbv.c); bb_out_file NULL = off */
   const HChar*  bb_out_file;
   ULong         bb_interval_size;
   const HChar*  pc_out_file;      /* NULL = none */
} CgOptions;

extern CgOptions cg_clo;

void cg_options_set_defaults(void);
Bool cg_options_process(const HChar* arg);
void cg_options_print_usage(void);
void cg_options_print_debug_usage(void);

/*------------------------------------------------------------*/
/*--- Cache configuration (cg_config.c)                    ---*/
/*------------------------------------------------------------*/

/* NULL if the geometry is usable, else the reason it is not. */
const HChar* cg_geometry_problem(const CacheGeometry* g);

/* Decides the simulated I1, D1 and LL from the host description and
   the command line; prints the warnings; exits on unusable config. */
void cg_config_choose(CacheGeometry* I1, CacheGeometry* D1,
                      CacheGeometry* LL);

/*------------------------------------------------------------*/
/*--- Cost centres (cg_costs.c)                            ---*/
/*------------------------------------------------------------*/

/* All instructions with the same (file, function, line) share one
   cost centre.  Strings are interned, so equal names are equal
   pointers.  Cost centres live until exit: discarded translations
   and unloaded code keep their counts. */
typedef struct _CostCentre {
   ULong               count[CG_N_EVENTS];
   const HChar*        file;
   const HChar*        fn;
   Int                 line;
   UInt                index;      /* creation order: see GroupCount */
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

void        cg_costs_init(void);
BlockInfo*  cg_costs_new_block(Addr key, UInt n_fetch_sites);
/* Folds the block's counts and forgets it.  `may_still_run`: its code
   may run once more, so its memory is kept (and counted at exit). */
void        cg_costs_discard_block(Addr key, Bool may_still_run);
EventGroup* cg_costs_new_group(BlockInfo* block, const GroupItem* items,
                               UInt n_items);
/* The group's runs are counted at `counter` from now on (memory that
   outlives the group, holding 0). */
void        cg_costs_count_group_at(EventGroup* group, ULong* counter);
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
/* All cost centres, in output order (file, function, line).  The
   array is the caller's to free. */
CostCentre** cg_costs_sorted(UInt* n_out);
UInt        cg_costs_n_strings(void);
UInt        cg_costs_n_centres(void);
UInt        cg_costs_n_live_blocks(void);
const CgLookupStats* cg_costs_lookup_stats(void);

/*------------------------------------------------------------*/
/*--- Branch predictors (cg_branch.c)                      ---*/
/*------------------------------------------------------------*/

void cg_branch_init(void);
/* A conditional branch ran (taken is 0 or 1): update the predictor and
   count a misprediction in `cc` while events are being collected. */
VG_REGPARM(3) void cg_branch_cond(CostCentre* cc, UWord addr_part,
                                  UWord taken);
/* The same, under --toggle-collect (counts only while collecting). */
VG_REGPARM(3) void cg_branch_cond_toggled(CostCentre* cc, UWord addr_part,
                                          UWord taken);
/* Where the conditional predictor keeps its state, for group checkers
   (cg_checkers.c), which run the same update as cg_branch_cond:
     index   = (*shifted_history & history_mask) | address part;
     step    = step[counters[index] * 2 + taken];
     counters[index] = step;
     *shifted_history = *shifted_history << 1 | taken << history_shift;
     mispredicted = step >> mispredicted_shift. */
typedef struct {
   UWord*       shifted_history;
   UChar*       counters;
   const UChar* step;
   UWord        history_mask;
   Int          history_shift;
   Int          mispredicted_shift;
} CgCondPredictor;
const CgCondPredictor* cg_branch_cond_predictor(void);
/* The address part of a conditional branch's counter index. */
UWord cg_branch_cond_addr_part(Addr instr_addr);
/* The indirect predictor's slot for a branch. */
Addr* cg_branch_ind_slot(Addr instr_addr);

/*------------------------------------------------------------*/
/*--- Run-time helpers (cg_sim.c)                          ---*/
/*------------------------------------------------------------*/

/* `with_log`: compiled code keeps the MRU filters and logs the rest
   (cg_log.c); else it calls the helpers below. */
/* Whether the L1s' MRU mirrors fit the tool's static data, where the
   group checkers (cg_checkers.c) reach them with 32-bit addresses. */
Bool cg_sim_mirrors_fit_static_data(const CacheGeometry* I1,
                                    const CacheGeometry* D1);
void cg_sim_init(const CacheGeometry* I1, const CacheGeometry* D1,
                 const CacheGeometry* LL, Bool with_log);

/* The simulated L1 caches, read (never written) by compiled code. */
struct _CacheLevel;
const struct _CacheLevel* cg_sim_i1(void);
const struct _CacheLevel* cg_sim_d1(void);

/* Only misses: the access counts come from execution counters. */
VG_REGPARM(1) void cg_sim_fetch(InstrInfo* ii);
VG_REGPARM(3) void cg_sim_read(CostCentre* cc, Addr addr, UWord size);
VG_REGPARM(3) void cg_sim_write(CostCentre* cc, Addr addr, UWord size);
/* The common sizes, with the size in the name (cg_sim.c says why). */
#define CG_DECLARE_SIZED_DATA_HELPERS(n)                                 \
   VG_REGPARM(2) void cg_sim_read##n(CostCentre* cc, Addr addr);         \
   VG_REGPARM(2) void cg_sim_write##n(CostCentre* cc, Addr addr);
CG_DECLARE_SIZED_DATA_HELPERS(1)
CG_DECLARE_SIZED_DATA_HELPERS(2)
CG_DECLARE_SIZED_DATA_HELPERS(4)
CG_DECLARE_SIZED_DATA_HELPERS(8)
CG_DECLARE_SIZED_DATA_HELPERS(16)
CG_DECLARE_SIZED_DATA_HELPERS(32)
/* The access log (cg_log.c): entries of two words.  The first is the
   cost centre (16-byte aligned) with a code in its low bits, the second
   the address, on top of which an odd size or a fetch's length sits.
   Codes: 0 fetch (length in the second word); 1-6 read of 1, 2, 4, 8,
   16, 32 bytes, 7 read of the size in the second word; the same plus 8
   for writes; 8 a guarded access whose guard held (size in the second
   word, and whether it writes; its helper counted it).  The first
   word's top 16 bits are not the cost centre's (user-space addresses
   have fewer than 48 bits): a shared checker's data entry carries its
   test's constants there (cg_checkers.c, DATA_TEST_SHIFT), which the
   simulator ignores. */
#define LOG_CODE_MASK      15
#if VG_WORDSIZE == 8
#define LOG_CC_MASK        ((((UWord)1 << 48) - 1) & ~(UWord)LOG_CODE_MASK)
#else
#define LOG_CC_MASK        (~(UWord)LOG_CODE_MASK)
#endif
#define LOG_CODE_FETCH     0
#define LOG_CODE_WRITE     8
#define LOG_CODE_GUARDED   8
#define LOG_CODE_OTHER_SIZE 7
#define LOG_SIZE_SHIFT     (sizeof(UWord) * 8 - 8)   /* 56 */
#define LOG_ADDR_MASK      (((UWord)1 << LOG_SIZE_SHIFT) - 1)
#define LOG_GUARDED_WRITE  ((UWord)1 << (LOG_SIZE_SHIFT - 1))
/* The code of a data access of `size` bytes. */
UWord cg_sim_log_code(Int size, Bool is_write);
/* Simulates the entries in [from, to). */
void cg_sim_log_entries(const UWord* from, const UWord* to);
/* For --stats: how the simulator looks up logged L1 accesses */
void cg_sim_print_l1_lookups(void);
/* Guarded accesses: counted by the helper as well. */
VG_REGPARM(3) void cg_sim_read_counted(CostCentre* cc, Addr addr,
                                       UWord size);
VG_REGPARM(3) void cg_sim_write_counted(CostCentre* cc, Addr addr,
                                        UWord size);

/*------------------------------------------------------------*/
/*--- Cold and hot translations (cg_tier.c)                ---*/
/*------------------------------------------------------------*/

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

/*------------------------------------------------------------*/
/*--- The access log (cg_log.c)                            ---*/
/*------------------------------------------------------------*/

void   cg_log_init(Bool enabled, Bool with_thread, UInt n_chunks,
                   UInt alloc_limit);
Bool   cg_log_enabled(void);
/* Returns once everything logged so far is simulated. */
void   cg_log_drain(void);
void   cg_log_register_fork_handlers(void);
/* The MRU filters the helpers below keep (see cg_sim_i1_filter). */
/* The log's cursor (next free entry) and limit (the current chunk's
   end), two adjacent words; an append stores the entry's two words at
   the cursor and moves it on by two, if it is below the limit. */
UWord* cg_log_cursor_and_limit(void);
/* Appends an entry (making room if the chunk is full), without the
   helpers' update of the MRU filter. */
VG_REGPARM(2) void cg_log_append_words(UWord first, UWord second);
void   cg_log_set_filters(const struct _CacheLevel* i1,
                          const struct _CacheLevel* d1);
/* Helpers of compiled code, for accesses its MRU test did not settle:
   the fetch's instruction record (a fetch site of its block); for data,
   `entry` is the first word of the log entry (cost centre | code). */
VG_REGPARM(1) void cg_log_fetch(const InstrInfo* ii);
VG_REGPARM(3) void cg_log_data(UWord entry, Addr addr, UWord size);
VG_REGPARM(3) void cg_log_guarded_read(UWord entry, Addr addr, UWord size);
VG_REGPARM(3) void cg_log_guarded_write(UWord entry, Addr addr, UWord size);
#define CG_DECLARE_SIZED_LOG_HELPERS(n)                                  \
   VG_REGPARM(2) void cg_log_data##n(UWord entry, Addr addr);
CG_DECLARE_SIZED_LOG_HELPERS(1)
CG_DECLARE_SIZED_LOG_HELPERS(2)
CG_DECLARE_SIZED_LOG_HELPERS(4)
CG_DECLARE_SIZED_LOG_HELPERS(8)
CG_DECLARE_SIZED_LOG_HELPERS(16)
CG_DECLARE_SIZED_LOG_HELPERS(32)
void   cg_log_print_stats(void);

/*------------------------------------------------------------*/
/*--- Group checkers (cg_checkers.c)                       ---*/
/*------------------------------------------------------------*/

/* False where there are none (only amd64 has them). */
Bool  cg_checkers_available(void);
/* The entry point of a routine that runs a hot group's checks in
   program order (`ops` as for a cold run, data addresses passed as
   arguments in ColdOp.arg order) and logs what they do not settle; it
   first adds 1 to *counter unless `counter` is NULL. */
#define MAX_CHECKER_OPS   32
#define MAX_CHECKER_ADDRS 6
struct _CacheLevel;
/* With `desc_out` NULL, the group's own routine; otherwise (only if
   cg_checkers_use_descriptors()) a routine shared by the groups of the
   same shape, whose first argument is the descriptor *desc_out is set
   to, and whose data addresses follow (ColdOp.arg counts from 1).  A
   counted group's runs are then counted in the descriptor's first
   word, not in *counter. */
void* cg_checker_for(const ColdOp* ops, UInt n_ops, ULong* counter,
                     const struct _CacheLevel* i1,
                     const struct _CacheLevel* d1, void** desc_out);
/* `shapes_wanted`: at most that many shapes share checkers (capped at
   the table's 32768); groups of other shapes get their own.
   `wide_constants` (--checker-wide-constants): counters, counts and MRU
   constants through 64-bit forms even where 32-bit ones would do. */
void  cg_checkers_init(Bool descriptors, UInt shapes_wanted,
                       Bool wide_constants);
Bool  cg_checkers_use_descriptors(void);
void  cg_checkers_print_stats(void);

/*------------------------------------------------------------*/
/*--- What is counted when (cg_control.c)                  ---*/
/*------------------------------------------------------------*/

void cg_control_init(void);
Bool cg_control_instrumenting(void);
/* True if some of the run was not collected (--toggle-collect, or
   instrumentation was off at some point). */
Bool cg_control_partial(void);
Bool cg_control_client_request(ThreadId tid, UWord* args, UWord* ret);
void cg_control_thread_runs(ThreadId tid, ULong blocks_done);
void cg_control_thread_exits(ThreadId tid);
/* --toggle-collect: is the instruction at `instr_addr` the first of a
   function whose events are collected? */
Bool cg_control_toggling(void);
Bool cg_control_is_toggle_entry(Addr instr_addr);
/* Words compiled code reads (see cg_control.c). */
const UWord* cg_control_collecting_word(void);
const Addr*  cg_control_innermost_entry_sp(void);
/* Helpers: a toggled function is entered / the stack pointer may have
   moved above the innermost activation. */
VG_REGPARM(1) void cg_control_enter(Addr sp);
VG_REGPARM(1) void cg_control_check_sp(Addr sp);

/*------------------------------------------------------------*/
/*--- Phase profile (cg_intervals.c)                       ---*/
/*------------------------------------------------------------*/

void cg_intervals_init(void);
Bool cg_intervals_enabled(void);
/* The instructions left before the current interval ends, which
   compiled code counts down (a signed word). */
Word* cg_intervals_left_word(void);
VG_REGPARM(0) void cg_intervals_boundary(void);
void cg_intervals_fini(void);
/* Before an exec: gives up the open file, returning a copy of its
   name (the caller frees it), or NULL if none was open.  If the exec
   fails, a new file is started at the next interval, numbered from 1. */
HChar* cg_intervals_give_up_for_exec(void);
void   cg_intervals_exec_failed(void);

/*------------------------------------------------------------*/
/*--- SimPoint basic block vectors (cg_bbv.c)              ---*/
/*------------------------------------------------------------*/

void cg_bbv_init(void);
Bool cg_bbv_enabled(void);
/* The record of the block (superblock) starting at `addr`, and of the
   rep-prefixed string instruction at `addr`; made when first needed. */
struct _BbvBlock;
struct _BbvBlock* cg_bbv_block_for(Addr addr);
struct _BbvBlock* cg_bbv_rep_for(Addr addr);
Bool cg_bbv_is_rep_string_instr(Addr addr);
Bool cg_bbv_is_fldcw(Addr addr);
/* Helpers: a run of `packed` & 0xFFFF instructions of the block (with
   packed >> 16 fldcw among them), up to its next exit; an iteration of
   a rep instruction. */
VG_REGPARM(2) void cg_bbv_run(struct _BbvBlock* block, UWord packed);
VG_REGPARM(1) void cg_bbv_rep(struct _BbvBlock* rep);
void cg_bbv_thread_runs(ThreadId tid);
void cg_bbv_fini(void);
/* Before an exec: gives up every thread's open vector file, returning
   a copy of the first one's name (the caller frees it), or NULL if
   none was open; *n_more: how many others were given up.  If the exec
   fails, each thread starts a new file at its next vector. */
HChar* cg_bbv_give_up_for_exec(UInt* n_more);

/*------------------------------------------------------------*/
/*--- Instrumentation (cg_instrument.c)                    ---*/
/*------------------------------------------------------------*/

typedef struct {
   ULong instrs_nox;   /* fetches that cannot straddle an I1 line */
   ULong instrs_gen;   /* the others */
} CgInstrumentStats;

/* Set once at start-up: accesses longer than this are simulated
   as this many bytes (only dirty helpers and CAS can be longer). */
void cg_instrument_init(Int min_line_size, Int i1_line_size,
                        Int ll_line_size);
IRSB* cg_instrument(VgCallbackClosure* closure, IRSB* sb_in,
                    const VexGuestLayout* layout,
                    const VexGuestExtents* vge,
                    const VexArchInfo* archinfo,
                    IRType gWordTy, IRType hWordTy);
const CgInstrumentStats* cg_instrument_stats(void);
/* For --stats=yes: how conditional branches' outcomes were translated
   (cg_deliver.c). */
void cg_deliver_print_stats(void);

/*------------------------------------------------------------*/
/*--- VEX's IR checks and cleanup (cg_vexpasses.c)         ---*/
/*------------------------------------------------------------*/

/* VEX's IR sanity checks and its cleanup after our instrumentation
   are skipped unless --vex-checks=yes; this says on how many blocks. */
void cg_vexpasses_print_stats(void);

/*------------------------------------------------------------*/
/*--- Output (cg_output.c, cg_summary.c)                   ---*/
/*------------------------------------------------------------*/

typedef struct {
   Bool  written;          /* False: the file could not be opened */
   ULong total[CG_N_EVENTS];
   UInt  n_files, n_fns, n_lines;
} CgOutputResult;

/* Whether the files carry this event (it depends on the options). */
Bool cg_output_event_selected(CgEvent ev);
/* At start-up: tells the writer (cg_file.c) the file's name template. */
void cg_output_expect_file(void);
void cg_output_write(const CacheGeometry* I1, const CacheGeometry* D1,
                     const CacheGeometry* LL, CgOutputResult* res);
void cg_summary_print(const CgOutputResult* res);
void cg_summary_print_stats(const CgOutputResult* res);

#endif /* CG_TOOL_H */
