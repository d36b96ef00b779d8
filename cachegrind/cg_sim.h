/* cg_sim.h -- the cache hierarchy (I1, D1, [L2,] LL) and the two ways an
   access reaches it (cg_sim.c).

   Every access that compiled code's MRU test does not settle ends in
   cg_sim.c: at once, through the helpers below (no log), or later,
   through cg_sim_log_entries (the access log, cg_log.c).  Both take
   the same path there: the L1 look-up, then on a miss the levels
   below.  A replacement policy is a level's (cg_cache.h); a new level,
   inclusion or a prefetcher is one change in cg_sim.c's path below L1. */

#ifndef CG_SIM_H
#define CG_SIM_H

#include "pub_tool_basics.h"
#include "cg_config.h"
#include "cg_costs.h"
#include "cg_policy.h"
#include "cg_hierarchy.h"

/* Whether the L1s' MRU mirrors fit the tool's static data, where the
   group checkers (cg_checkers.c) reach them with 32-bit addresses. */
Bool cg_sim_mirrors_fit_static_data(const CacheGeometry* I1,
                                    const CacheGeometry* D1);
/* `with_log`: compiled code keeps the L1s' MRU mirrors and logs the
   rest (cg_log.c); else it calls the helpers below, and the model
   keeps the mirrors. */
/* `L2`: the middle level, or NULL for none (3.19's hierarchy).
   `policies`: each level's replacement policy, indexed by CG_SIM_I1,
   CG_SIM_D1, CG_SIM_L2, CG_SIM_LL (an L1's plru, random or lru only). */
enum { CG_SIM_I1, CG_SIM_D1, CG_SIM_L2, CG_SIM_LL, CG_SIM_N_LEVELS };
/* `inclusion`: --LL-inclusion; `prefetch`: each level's prefetcher,
   indexed as `policies` (cg_hierarchy.c simulates the models they make
   other than 3.19's). */
/* `write_back`: --simulate-wb (no log: every write and modify must
   reach the model, cg_sim_writes_reach_model).  `line_use`: --cacheuse
   (no log: every access must, cg_sim_every_access_reaches_model). */
void cg_sim_init(const CacheGeometry* I1, const CacheGeometry* D1,
                 const CacheGeometry* L2, const CacheGeometry* LL,
                 const CgPolicy* policies, CgInclusion inclusion,
                 const CgPrefetchKind* prefetch, Bool write_back,
                 Bool line_use, Bool with_log);
/* Whether compiled code must call the model for every fetch and data
   access, MRU hits and known hits included (--cacheuse: a hit changes
   its line's use; cg_deliver.c). */
Bool cg_sim_every_access_reaches_model(void);
/* The same for data accesses only (--cacheuse, or D1's stride
   prefetcher, which sees every data access) */
Bool cg_sim_every_data_access_reaches_model(void);
/* Whether data accesses go to the *_at helpers with their instruction's
   address (a stride prefetcher, PC-indexed) */
Bool cg_sim_data_needs_pc(void);
/* Whether compiled code must call the model for every write and modify
   (cg_deliver.c), the latter through cg_sim_modify. */
Bool cg_sim_writes_reach_model(void);
VG_REGPARM(3) void cg_sim_modify(CostCentre* cc, Addr addr, UWord size,
                                 Addr pc);
/* Whether a line can leave an L1 other than by that L1's own fill
   (--LL-inclusion=inclusive): then no fetch is a known hit because the
   previous one touched its line (cg_deliver.c). */
Bool cg_sim_l1_lines_may_vanish(void);
/* Whether D1 is LRU: its MRU line is then way 0 of the set (the data
   profile's simulator-side test, cg_cache_model_mru_hit). */
Bool cg_sim_d1_is_lru(void);

/* The simulated L1 caches, whose mirrors compiled code reads. */
struct _CacheLevel;
const struct _CacheLevel* cg_sim_i1(void);
const struct _CacheLevel* cg_sim_d1(void);

/* Helpers that simulate at once.  Only misses are counted: the access
   counts come from execution counters. */
VG_REGPARM(1) void cg_sim_fetch(InstrInfo* ii);
VG_REGPARM(3) void cg_sim_read(CostCentre* cc, Addr addr, UWord size);
VG_REGPARM(3) void cg_sim_write(CostCentre* cc, Addr addr, UWord size);
/* With the instruction's address (cg_sim_data_needs_pc) */
VG_REGPARM(3) void cg_sim_read_at(CostCentre* cc, Addr addr, UWord size,
                                  Addr pc);
VG_REGPARM(3) void cg_sim_write_at(CostCentre* cc, Addr addr, UWord size,
                                   Addr pc);
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
/* Guarded accesses: counted by the helper as well; `pc` the
   instruction's address, as for the *_at helpers. */
VG_REGPARM(3) void cg_sim_read_counted(CostCentre* cc, Addr addr,
                                       UWord size, Addr pc);
VG_REGPARM(3) void cg_sim_write_counted(CostCentre* cc, Addr addr,
                                        UWord size, Addr pc);

/* --data-profile: one data access (MRU hits too), its misses counted
   `counted` times (*the collecting word, or 1 with the log: the
   simulator thread must not read that word, which shares a cache line
   with words the client's thread writes at every access); returns 0 for
   a D1 hit, 1 for a D1 miss that hit a level below, 2 for an LL miss. */
UWord cg_sim_data_outcome(CostCentre* cc, Addr addr, UWord size, UWord first,
                          UWord counted);

/* Simulates the log entries (cg_log_entry.h) in [from, to). */
void cg_sim_log_entries(const UWord* from, const UWord* to);
/* The split of the log's simulation over two threads (cg_hierarchy.h):
   whether this run's model allows it; the client thread's L1 stage of a
   chunk's entries, which leaves the requests for the levels below in
   their place and returns their end; the simulator thread's stage of
   those requests. */
Bool   cg_sim_split_applies(void);
UWord* cg_sim_l1_stage(UWord* from, const UWord* to);
void   cg_sim_below_stage(const UWord* from, const UWord* to);
/* Both stages of a chunk, one after the other, in the calling thread */
void   cg_sim_log_entries_in_two_passes(const UWord* from, const UWord* to);
/* For --stats: how the simulator looks up logged L1 accesses */
void cg_sim_print_l1_lookups(void);

#endif /* CG_SIM_H */
