/* cg_tool.h -- the tool's identity and the events it counts.

   Module map (one job each):
     cg_main.c        registration with the core, start-up and exit
     cg_options.c     command-line options, --help text
     cg_config.c      cache geometry: host detection, adjustment, checks
     cg_cache.c       one generic LRU cache level (I1, D1 and LL instances)
     cg_policy.c      other replacement policies (--LL-policy, ...)
     cg_hierarchy.c   the general path through the levels: inclusion
                      modes (victims, removals), prefetch fills
     cg_prefetch.c    which lines a level's prefetcher fetches
     cg_cpu.c         CPU presets (--cpu)
     cg_trace.c       --trace-out-file: every simulated access, for the
                      tests' reference model
     cg_sim.c         the cache hierarchy, and the helpers that feed it
     cg_branch.c      conditional and indirect branch predictors
     cg_costs.c       cost centres, debug-info lookups, per-block tables
     cg_log.c         the access log compiled code hands to the
                      simulator (thread); cg_log_entry.h its format
     cg_instrument.c  the IR pass: which events, in what order, when flushed
     cg_deliver.c     the IR emitted for events: counters, inline checks,
                      helper calls
     cg_tier.c        cold translations and their promotion
     cg_checkers.c    group checkers: machine code per run (amd64)
     cg_vexpasses.c   VEX's IR checks and cleanup, skipped
     cg_output.c      the cachegrind.out file
     cg_file.c        writing any output file: temporary name, short
                      writes, fork, the final name
     cg_summary.c     the stderr summary and --stats lines
     cg_control.c     instrumentation on/off, --toggle-collect
     cg_intervals.c   the phase profile (--interval-size)
     cg_bbv.c         SimPoint basic block vectors (--bb-out-file)
     cg_data.c        the data-centric profile (--data-profile): objects,
                      classification, counting; cg_data_records.h its
                      records
     cg_data_file.c   the cachegrind.data file
     cg_alloc.c       the program's allocations, for the data profile

   Each module's interface is the header of the same name beside it;
   this one holds only what all of them share.  Each module keeps its
   own state in file-static variables; the parsed options (cg_clo,
   cg_options.h) are the only global shared between modules. */

#ifndef CG_TOOL_H
#define CG_TOOL_H

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_tooliface.h"

/*------------------------------------------------------------*/
/*--- Identity                                             ---*/
/*------------------------------------------------------------*/

#ifndef CG_PACKAGE_VERSION
#define CG_PACKAGE_VERSION "0.1.0"
#endif

/* State that one thread writes while the other reads or writes other
   state near it gets a cache line of its own: the two threads (the
   program's and the simulator, cg_log.c) otherwise pass the line back
   and forth at every access (false sharing). */
#define CG_CACHE_LINE 64
#define CG_OWN_LINE   __attribute__((aligned(CG_CACHE_LINE)))

/*------------------------------------------------------------*/
/*--- Events counted per cost centre                       ---*/
/*------------------------------------------------------------*/

/* Cachegrind 3.19's events in its output order, then those of the
   middle level (--L2), which the output puts between the L1's and LL's
   (cg_event_output_order), and the prefetchers': appended, so that
   3.19's keep their indexes, and a miss's LL counter is still its L1
   counter + 1. */
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
   EV_I2_MISS,         /* L2 misses caused by fetches      (I2mr) */
   EV_D2_READ_MISS,    /*                                  (D2mr) */
   EV_D2_WRITE_MISS,   /*                                  (D2mw) */
   /* Prefetches issued by a level's prefetcher, and those a demand
      access hit before eviction (--D1-prefetch, ...): each pair in this
      order (cg_hierarchy.c counts the second as the first + 1) */
   EV_D1_PF,           /*                                  (D1pf) */
   EV_D1_PF_USEFUL,    /*                                  (D1pfu) */
   EV_L2_PF,           /*                                  (L2pf) */
   EV_L2_PF_USEFUL,    /*                                  (L2pfu) */
   EV_LL_PF,           /*                                  (LLpf) */
   EV_LL_PF_USEFUL,    /*                                  (LLpfu) */
   /* LL misses that wrote a dirty line back (--simulate-wb): the file
      puts each after its LL miss event */
   EV_LL_DIRTY_FETCH_MISS,  /*                             (ILdmr) */
   EV_LL_DIRTY_READ_MISS,   /*                             (DLdmr) */
   EV_LL_DIRTY_WRITE_MISS,  /*                             (DLdmw) */
   /* Line use (--cacheuse=yes, cg_lineuse.c): charged to the access
      that loaded a line, when the line leaves */
   EV_L1_SPATIAL_LOSS,      /* bytes never used, I1 and D1   (SpLoss1) */
   EV_LL_SPATIAL_LOSS,      /*                               (SpLoss2) */
   EV_L1_ACCESS_COST,       /* 1000 / uses, I1 and D1        (AcCost1) */
   EV_LL_ACCESS_COST,       /*                               (AcCost2) */
   /* --caches=per-thread (cg_coherence.c) */
   EV_D1_COHERENCE_MISS,    /* D1 misses on lines another thread's
                               write removed                 (D1cm) */
   CG_N_EVENTS
} CgEvent;

/* The index of `name` in `names` (n of them), or -1: the option values
   that name a policy, an inclusion mode or a prefetcher */
static inline Int cg_name_index(const HChar* const* names, UInt n,
                                const HChar* name)
{
   UInt i;

   for (i = 0; i < n; i++)
      if (VG_(strcmp)(name, names[i]) == 0)
         return (Int)i;
   return -1;
}

/* The L2 miss counter of an access whose first counter is `first`
   (EV_IR, EV_DR or EV_DW) */
static inline UInt cg_l2_miss_event(UWord first)
{
   return first == EV_IR ? EV_I2_MISS
          : first == EV_DR ? EV_D2_READ_MISS : EV_D2_WRITE_MISS;
}

/* The same for an LL miss that wrote a dirty line back */
static inline UInt cg_ll_dirty_miss_event(UWord first)
{
   return first == EV_IR ? EV_LL_DIRTY_FETCH_MISS
          : first == EV_DR ? EV_LL_DIRTY_READ_MISS : EV_LL_DIRTY_WRITE_MISS;
}

extern const HChar* const cg_event_names[CG_N_EVENTS];
/* Every event, in the order of the file's columns (cg_output.c) */
extern const CgEvent cg_event_output_order[CG_N_EVENTS];

#endif /* CG_TOOL_H */
