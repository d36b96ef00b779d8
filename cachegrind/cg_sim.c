/* cg_sim.c -- the cache hierarchy, and the helpers that feed it.

   Owns: the three cache instances (I1, D1 and the shared LL), and the
   one path every simulated access takes through them: the L1 look-up
   (scalar, or AVX2 in the log's loop), then on a miss below_l1, which
   is everything under the L1s.  The helpers that simulate at once and
   the loop that simulates the access log both end there, so a level
   (the middle one, --L2), an inclusion rule or a prefetcher is added in
   below_l1 alone, and a replacement policy in the level (cg_cache.h,
   cg_policy.c).
   Each access is charged to the cost centre of its instruction (the
   fetch helper: its InstrInfo, which has the address and length too).
   Must not: print, allocate or look anything up; these run for every
   simulated access, so they stay small and branch-light.

   Level chaining: an L1 miss sends the whole access (both lines of a
   straddle) to the next level (L2 with --L2, else LL), which has its
   own line size; an L2 miss sends the whole access on to LL. */

#include "pub_tool_basics.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "cg_sim.h"
#include "cg_policy.h"
#include "cg_cache.h"
#include "cg_hierarchy.h"
#include "cg_control.h"
#include "cg_log_entry.h"
#include "cg_options.h"
#include "cg_coherence.h"

static CacheLevel I1, D1, L2, LL;
/* A middle level (--L2) between the L1s and LL */
static Bool has_l2;

/* 1, or 0 while --toggle-collect is not collecting: the caches are
   simulated either way, but only collected misses are counted. */
static const UWord* collecting;

/* Replacement policies other than LRU (--LL-policy, --I1-policy,
   --D1-policy; cg_policy.c) */
static Bool ll_has_policy, l2_has_policy;
/* An access takes special_access's path, not the inline L1 look-up: an
   L1 under a policy, or the general path from the L1s down
   (cg_hierarchy.c: --LL-inclusion other than nine, a D1 prefetcher,
   --simulate-wb, --cacheuse, any stride prefetcher) */
static Bool l1_special, general_from_l1;
/* An L1 miss takes below_l1_special's path: a middle level, or the
   general path below the L1s (prefetchers of L2 or LL only) */
static Bool below_special, general_below_l1;
static CgInclusion inclusion;
/* --simulate-wb: every write and modify reaches the model (a write to a
   clean MRU line dirties it), which compiled code must not skip */
static Bool writes_reach_model;
/* --cacheuse: every access reaches it (a hit changes its line's use) */
static Bool every_access_reaches_model;
/* A stride prefetcher (PC-indexed): accesses come with their
   instruction's address; D1's sees every data access, hits included */
static Bool data_needs_pc, every_data_access_reaches_model;
/* A line each: a policy's random state is written at every look-up,
   L1s' in the client thread under --sim-split, the others' in the
   simulator thread */
static PolicyLevel ll_policy CG_OWN_LINE, i1_policy CG_OWN_LINE,
                   d1_policy CG_OWN_LINE, l2_policy CG_OWN_LINE;
static Bool i1_has_policy, d1_has_policy;

#if defined(VGA_amd64)
/* Whether the log is simulated by the loop's AVX2 copy (--sim-vector=yes
   and a host with AVX2) */
static Bool use_avx2;
/* --sim-vector=yes on a host with AVX2: the general path's searches of
   full-tag sets use it */
static Bool host_has_avx2;
#endif

Bool cg_sim_mirrors_fit_static_data(const CacheGeometry* i1,
                                    const CacheGeometry* d1)
{
   SizeT i1_sets = i1->size / (i1->line_size * i1->assoc);
   SizeT d1_sets = d1->size / (d1->line_size * d1->assoc);

   /* The layouts cg_sim_init asks for (cg_cache.h) */
   return cg_cache_static_mirror_fits(i1_sets * sizeof(UWord)
                                      + d1_sets * d1->line_size);
}

void cg_sim_init(const CacheGeometry* i1, const CacheGeometry* d1,
                 const CacheGeometry* l2, const CacheGeometry* ll,
                 const CgPolicy* policies, CgInclusion inclusion_mode,
                 const CgPrefetchKind* prefetch, Bool write_back,
                 Bool line_use, Bool with_log)
{
   /* With the log, LL is simulated in another thread, which must never
      allocate: its tags are narrow only if no logged (56-bit) address
      can need the switch to full-width tags. */
   Int ll_addr_bits = with_log ? LOG_SIZE_SHIFT : 0;

   cg_cache_level_init(&I1, i1, "I1", MIRROR_BY_BLOCK, 0);
   cg_cache_level_init(&D1, d1, "D1", MIRROR_BY_LINE_ADDR, 0);
   cg_cache_level_init(&LL, ll, "LL", MIRROR_NONE, ll_addr_bits);
   if (l2 != NULL) {
      cg_cache_level_init(&L2, l2, "L2", MIRROR_NONE, ll_addr_bits);
      has_l2 = True;
   }
   if (with_log) {
      /* The log's helpers keep the MRU mirrors instead (cg_log.c):
         the simulator, maybe in another thread, must not write them. */
      I1.sim_writes_mru = False;
      D1.sim_writes_mru = False;
   }
   collecting = cg_control_collecting_word();
   /* One generator per level, each seeded alike: a level's draws do
      not depend on another's */
   if (policies[CG_SIM_LL] != CG_POLICY_LRU) {
      cg_policy_init(&ll_policy, &LL, policies[CG_SIM_LL], cg_clo.seed);
      ll_has_policy = True;
   }
   if (has_l2 && policies[CG_SIM_L2] != CG_POLICY_LRU) {
      cg_policy_init(&l2_policy, &L2, policies[CG_SIM_L2], cg_clo.seed);
      l2_has_policy = True;
   }
   if (policies[CG_SIM_I1] != CG_POLICY_LRU) {
      cg_policy_init(&i1_policy, &I1, policies[CG_SIM_I1], cg_clo.seed);
      i1_has_policy = l1_special = True;
   }
   if (policies[CG_SIM_D1] != CG_POLICY_LRU) {
      cg_policy_init(&d1_policy, &D1, policies[CG_SIM_D1], cg_clo.seed);
      d1_has_policy = l1_special = True;
   }
   inclusion = inclusion_mode;
   general_from_l1 = inclusion != CG_INCLUSION_NINE
                     || prefetch[CG_SIM_D1] != CG_PREFETCH_NONE
                     || write_back || line_use;
   writes_reach_model = write_back;
   every_access_reaches_model = line_use;
   data_needs_pc = cg_prefetch_needs_pc(prefetch[CG_SIM_D1])
                   || cg_prefetch_needs_pc(prefetch[CG_SIM_L2]);
   /* The instruction reaches the prefetchers through the general path
      from the L1s down (below_l1 has no room for it) */
   general_from_l1 |= data_needs_pc;
   every_data_access_reaches_model
      = line_use || cg_prefetch_needs_pc(prefetch[CG_SIM_D1]);
   general_below_l1 = !general_from_l1
                      && (prefetch[CG_SIM_L2] != CG_PREFETCH_NONE
                          || prefetch[CG_SIM_LL] != CG_PREFETCH_NONE);
   if (general_from_l1 || general_below_l1) {
      CgSimLevel si1 = { &I1, i1_has_policy ? &i1_policy : NULL,
                         prefetch[CG_SIM_I1] };
      CgSimLevel sd1 = { &D1, d1_has_policy ? &d1_policy : NULL,
                         prefetch[CG_SIM_D1] };
      CgSimLevel sl2 = { &L2, l2_has_policy ? &l2_policy : NULL,
                         prefetch[CG_SIM_L2] };
      CgSimLevel sll = { &LL, ll_has_policy ? &ll_policy : NULL,
                         prefetch[CG_SIM_LL] };
      cg_hierarchy_init(inclusion, si1, sd1, has_l2 ? &sl2 : NULL, sll,
                        write_back, line_use);
   }
   l1_special |= general_from_l1;
   below_special = has_l2 || general_below_l1 || cg_clo.per_thread_caches;
   if (cg_clo.per_thread_caches)
      cg_coherence_init(&I1, &D1, has_l2 ? &L2 : NULL);
#if defined(VGA_amd64)
   {
      VexArch arch;
      VexArchInfo info;
      Bool host_avx2;
      VG_(machine_get_VexArchInfo)(&arch, &info);
      host_avx2 = cg_clo.sim_vector
                  && (info.hwcaps & VEX_HWCAPS_AMD64_AVX2) != 0;
      /* The log's vector look-ups are LRU's */
      use_avx2 = host_avx2 && !l1_special;
      host_has_avx2 = host_avx2;
      /* The searches of full-tag sets (the general path, the policies) */
      if (host_avx2) {
         cg_cache_level_allow_vector_search(&I1);
         cg_cache_level_allow_vector_search(&D1);
         cg_cache_level_allow_vector_search(&LL);
         if (has_l2)
            cg_cache_level_allow_vector_search(&L2);
      }
   }
#endif
}

const CacheLevel* cg_sim_i1(void) { return &I1; }
const CacheLevel* cg_sim_d1(void) { return &D1; }
Bool cg_sim_writes_reach_model(void)
{
   return writes_reach_model;
}
Bool cg_sim_every_access_reaches_model(void)
{
   return every_access_reaches_model;
}
Bool cg_sim_every_data_access_reaches_model(void)
{
   return every_data_access_reaches_model;
}
Bool cg_sim_data_needs_pc(void)
{
   return data_needs_pc;
}

/* --simulate-wb: a modify, counted as a read, that dirties its line */
VG_REGPARM(3) void cg_sim_modify(CostCentre* cc, Addr addr, UWord size,
                                 Addr pc)
{
   cg_hierarchy_access(&D1, cc, addr, size, EV_DR, *collecting, True, pc);
}

Bool cg_sim_l1_lines_may_vanish(void)
{
   return inclusion == CG_INCLUSION_INCLUSIVE;
}

Bool cg_sim_d1_is_lru(void)
{
   return !d1_has_policy && !general_from_l1;
}

/* The helpers count misses only: how often each event happened comes
   from the execution counters of compiled code (cg_deliver.c), and
   calls that would be MRU hits are skipped there. */

static inline __attribute__((always_inline))
Bool ll_ref_missed(Addr addr, UWord size)
{
   return UNLIKELY(ll_has_policy)
          ? cg_policy_ref_missed(&ll_policy, addr, (UChar)size)
          : cg_cache_ref_missed(&LL, addr, (UChar)size);
}

/* The middle level, then LL, or the general path below the L1s: as
   below_l1, for a run with --L2 or a prefetcher of L2 or LL.  Out of
   line: the default hierarchy pays only below_l1's test of
   below_special. */
static __attribute__((noinline))
UWord below_l1_special(CostCentre* cc, Addr addr, UWord size,
                       UWord first, UWord counted)
{
   if (cg_coherence_enabled()) {
      if (first != EV_IR)
         cg_coherence_d1_missed(cc, addr, size, counted);
      if (!has_l2) {
         if (ll_ref_missed(addr, size)) {
            cc->count[first + 2] += counted;
            return 2;
         }
         return 1;
      }
   }
   if (general_below_l1)
      return cg_hierarchy_below_l1(cc, addr, size, first, counted);
   if (!(l2_has_policy ? cg_policy_ref_missed(&l2_policy, addr, (UChar)size)
                       : cg_cache_ref_missed(&L2, addr, (UChar)size)))
      return 1;
   cc->count[cg_l2_miss_event(first)] += counted;
   if (ll_ref_missed(addr, size)) {
      cc->count[first + 2] += counted;
      return 2;
   }
   return 1;
}

/* An access missed its L1: count that, and simulate the levels below.
   `first` is EV_IR, EV_DR or EV_DW: its L1 and LL miss counters follow
   it, and each miss adds `counted` (1, or 0 outside --toggle-collect).
   Returns 1 if the access hit a level below (L2 or LL), 2 if it missed
   LL.  Always inline, without a target of its own, so that both L1
   look-ups (scalar and AVX2) inline it. */
static inline __attribute__((always_inline))
UWord below_l1(CostCentre* cc, Addr addr, UWord size, UWord first,
               UWord counted)
{
   cc->count[first + 1] += counted;
   if (UNLIKELY(below_special))
      return below_l1_special(cc, addr, size, first, counted);
   if (ll_ref_missed(addr, size)) {
      cc->count[first + 2] += counted;
      return 2;
   }
   return 1;
}

/* An L1 under a policy.  Its MRU filter stays exact (manual 5.7): only
   plru and random are allowed there, under which an access to the set's
   last-accessed line changes nothing.  The mirror is the model's to
   write only without the log, as cg_cache_block_missed does. */
static Bool policy_l1_ref_missed(CacheLevel* l1, Addr addr, UWord size)
{
   PolicyLevel* p = l1 == &I1 ? (i1_has_policy ? &i1_policy : NULL)
                              : (d1_has_policy ? &d1_policy : NULL);
   Bool missed;

   if (p == NULL)
      return cg_cache_ref_missed(l1, addr, (UChar)size);
   missed = cg_policy_ref_missed(p, addr, (UChar)size);
   if (l1->sim_writes_mru) {
      UWord first = addr >> l1->line_bits;
      UWord last = (addr + size - 1) >> l1->line_bits;
      *cg_cache_mru_slot(l1, first) = cg_cache_mru_value(l1, first);
      *cg_cache_mru_slot(l1, last) = cg_cache_mru_value(l1, last);
   }
   return missed;
}

/* An access when l1_special: out of line, so that the default path
   keeps only the test of that flag. */
static __attribute__((noinline))
UWord special_access(CacheLevel* l1, CostCentre* cc, Addr addr, UWord size,
                     UWord first, UWord counted, Addr pc)
{
   if (general_from_l1)
      return cg_hierarchy_access(l1, cc, addr, size, first, counted,
                                 first == EV_DW, pc);
   if (!policy_l1_ref_missed(l1, addr, size))
      return 0;
   return below_l1(cc, addr, size, first, counted);
}

/* One access through `l1` and, if it misses there, the levels below;
   0, 1 or 2 as below_l1 says (0: an L1 hit).  `pc`: its instruction's
   address where a stride prefetcher needs it, else 0. */
static inline UWord simulate(CacheLevel* l1, CostCentre* cc, Addr addr,
                             UWord size, UWord first, UWord counted, Addr pc)
{
   if (UNLIKELY(l1_special))
      return special_access(l1, cc, addr, size, first, counted, pc);
   if (cg_cache_ref_missed(l1, addr, (UChar)size))
      return below_l1(cc, addr, size, first, counted);
   return 0;
}

VG_REGPARM(1) void cg_sim_fetch(InstrInfo* ii)
{
   simulate(&I1, ii->cc, ii->addr, ii->len, EV_IR, *collecting, ii->addr);
}

static inline void simulate_data(CostCentre* cc, Addr addr,
                                 UWord size, CgEvent first)
{
   simulate(&D1, cc, addr, size, first, *collecting, 0);
}

/* With a stride prefetcher (cg_sim_data_needs_pc) */
VG_REGPARM(3) void cg_sim_read_at(CostCentre* cc, Addr addr, UWord size,
                                  Addr pc)
{
   simulate(&D1, cc, addr, size, EV_DR, *collecting, pc);
}

VG_REGPARM(3) void cg_sim_write_at(CostCentre* cc, Addr addr, UWord size,
                                   Addr pc)
{
   simulate(&D1, cc, addr, size, EV_DW, *collecting, pc);
}

VG_REGPARM(3) void cg_sim_read(CostCentre* cc, Addr addr, UWord size)
{
   simulate_data(cc, addr, size, EV_DR);
}

VG_REGPARM(3) void cg_sim_write(CostCentre* cc, Addr addr, UWord size)
{
   simulate_data(cc, addr, size, EV_DW);
}

/* The same with the size in the function instead of an argument: the
   compiled code at each access site sets up one register fewer, and
   does not load a 64-bit constant, whether or not the call is made. */
#define SIZED_DATA_HELPERS(n)                                            \
   VG_REGPARM(2) void cg_sim_read##n(CostCentre* cc, Addr addr)          \
   {                                                                     \
      simulate_data(cc, addr, n, EV_DR);                                 \
   }                                                                     \
   VG_REGPARM(2) void cg_sim_write##n(CostCentre* cc, Addr addr)         \
   {                                                                     \
      simulate_data(cc, addr, n, EV_DW);                                 \
   }

SIZED_DATA_HELPERS(1)
SIZED_DATA_HELPERS(2)
SIZED_DATA_HELPERS(4)
SIZED_DATA_HELPERS(8)
SIZED_DATA_HELPERS(16)
SIZED_DATA_HELPERS(32)

/* --data-profile (cg_data.c): every data access that is not an MRU
   hit (cg_data.c tests the mirror first) comes here, and its outcome
   goes back: 0 a D1 hit, 1 a D1 miss that hit a level below (L2 or
   LL), 2 an LL miss. */
#if defined(VGA_amd64)
/* With the AVX2 look-up where D1 has one: every access comes here, and
   when most miss D1 (matrix_walk, pointer_chase) the scalar search
   through the ways is most of the simulator's time. */
static CG_AVX2 __attribute__((noinline))
UWord data_outcome_avx2(CostCentre* cc, Addr addr, UWord size, UWord first,
                        UWord counted)
{
   if (!cg_cache_ref_missed_avx2(&D1, addr, (UChar)size))
      return 0;
   return below_l1(cc, addr, size, first, counted);
}
#endif

UWord cg_sim_data_outcome(CostCentre* cc, Addr addr, UWord size, UWord first,
                          UWord counted)
{
#if defined(VGA_amd64)
   if (use_avx2)
      return data_outcome_avx2(cc, addr, size, first, counted);
#endif
   return simulate(&D1, cc, addr, size, first, counted, 0);
}

VG_REGPARM(3) void cg_sim_read_counted(CostCentre* cc, Addr addr,
                                       UWord size, Addr pc)
{
   cc->count[EV_DR] += *collecting;
   simulate(&D1, cc, addr, size, EV_DR, *collecting, pc);
}

VG_REGPARM(3) void cg_sim_write_counted(CostCentre* cc, Addr addr,
                                        UWord size, Addr pc)
{
   cc->count[EV_DW] += *collecting;
   simulate(&D1, cc, addr, size, EV_DW, *collecting, pc);
}

/*------------------------------------------------------------*/
/*--- The access log (cg_log.c, cg_log_entry.h)            ---*/
/*------------------------------------------------------------*/

/* One entry of the log, decoded */
typedef struct {
   CostCentre* cc;
   CacheLevel* l1;
   Addr        addr;
   UWord       size;
   UWord       first;   /* EV_IR, EV_DR or EV_DW */
} LoggedAccess;

static inline __attribute__((always_inline))
LoggedAccess decode_entry(const UWord* entry)
{
   /* Per code (cg_log_entry.h): the L1 level; the access's size, or 0 and
      a mask that takes it from the second word's top byte; and its
      first counter (the L1 miss's follows, then the LL miss's).
      Fetches and data accesses come mixed, in no predictable order:
      they differ only by what these tables give, and take one path
      (two paths cost ~7 % of the simulator's time; a branch on the kind
      within one path, measured too, cost nothing visible).  Only the
      guarded accesses, rare, branch. */
   static CacheLevel* const level_of_code[16] =
      { &I1, &D1, &D1, &D1, &D1, &D1, &D1, &D1,
        &D1, &D1, &D1, &D1, &D1, &D1, &D1, &D1 };
   static const UChar size_of_code[16] =
      { 0, 1, 2, 4, 8, 16, 32, 0,  0, 1, 2, 4, 8, 16, 32, 0 };
   static const UChar size_on_top[16] =
      { 0xFF, 0, 0, 0, 0, 0, 0, 0xFF,  0xFF, 0, 0, 0, 0, 0, 0, 0xFF };
   static const UChar first_of_code[16] =
      { EV_IR, EV_DR, EV_DR, EV_DR, EV_DR, EV_DR, EV_DR, EV_DR,
        EV_DR, EV_DW, EV_DW, EV_DW, EV_DW, EV_DW, EV_DW, EV_DW };
   UWord code = entry[0] & LOG_CODE_MASK;
   UWord word = entry[1];
   LoggedAccess a;

   a.cc = (CostCentre*)(entry[0] & LOG_CC_MASK);
   a.l1 = level_of_code[code];
   a.addr = word & LOG_ADDR_MASK;
   a.size = size_of_code[code]
            | ((word >> LOG_SIZE_SHIFT) & size_on_top[code]);
   a.first = first_of_code[code];
   if (UNLIKELY(code == LOG_CODE_GUARDED)) {   /* counted by its helper */
      a.first = (word & LOG_GUARDED_WRITE) != 0 ? EV_DW : EV_DR;
      a.addr &= ~LOG_GUARDED_WRITE;
   }
   return a;
}

/* Entries were stored non-temporally (cg_log.h): they come from memory,
   not from a cache, and the first load of each was most of the loop's
   own time when every entry takes a long path (matrix_walk under
   --cpu=generic: 84 % of it); this far ahead, they are there in time. */
#define LOG_PREFETCH_WORDS 64

/* The LL set of the entry this many ahead is asked for
   (cg_cache_prefetch_set): about the time of that many entries'
   simulation, enough to cover a load from memory.  Only for an LL whose
   tags outgrow the host's middle cache, and only after a chunk with
   more than one L1 miss in LL_PREFETCH_MISS_SHARE entries: otherwise
   the look-ups rarely wait and the prefetches are work for nothing
   (sqlite3, an L1 miss in 6 entries, ran 4 % slower with them).
   pointer_chase (an L1 miss at almost every entry, 264 MB LL): 2.8 ->
   2.2 s of CPU, both threads. */
#define LL_PREFETCH_ENTRIES    16
#define LL_PREFETCH_MISS_SHARE 4
#define LL_PREFETCH_MIN_TAGS   (1 << 20)   /* bytes */

/* Decided by the simulator at each chunk's end (cg_sim_log_entries);
   for --stats, the chunks simulated so and in all */
static Bool ll_sets_ahead;
static ULong n_log_chunks, n_chunks_ll_ahead;

static inline __attribute__((always_inline))
void prefetch_ll_set_ahead(const UWord* p, const UWord* end)
{
   const UWord* ahead = p + 2 * LL_PREFETCH_ENTRIES;

   if (LIKELY(ahead < end))
      cg_cache_prefetch_set(&LL, ahead[1] & LOG_ADDR_MASK);
}

/* Simulate logged accesses: every one missed the MRU filter of
   compiled code, so none is skipped here.  Runs in the simulator
   thread when there is one: it touches only the caches and the miss
   counters of cost centres.  No --toggle-collect with the log
   (cg_main.c): every miss counts.  Returns the L1 misses. */
static inline __attribute__((always_inline))
UWord scalar_loop(const UWord* p, const UWord* end, Bool sets_ahead)
{
   UWord l1_misses = 0;

   for (; p < end; p += 2) {
      LoggedAccess a = decode_entry(p);
      __builtin_prefetch(p + LOG_PREFETCH_WORDS);
      if (sets_ahead)
         prefetch_ll_set_ahead(p, end);
      l1_misses += simulate(a.l1, a.cc, a.addr, a.size, a.first, 1, 0) != 0;
   }
   return l1_misses;
}

static UWord log_entries_scalar(const UWord* p, const UWord* end)
{
   return ll_sets_ahead ? scalar_loop(p, end, True)
                        : scalar_loop(p, end, False);
}

#if defined(VGA_amd64)
/* The same with the L1 look-ups of cg_cache.h's AVX2 code.  The whole
   loop is compiled for AVX2, so that they are inlined into it. */
static inline __attribute__((always_inline)) CG_AVX2
UWord avx2_loop(const UWord* p, const UWord* end, Bool sets_ahead)
{
   UWord l1_misses = 0;

   for (; p < end; p += 2) {
      LoggedAccess a = decode_entry(p);
      __builtin_prefetch(p + LOG_PREFETCH_WORDS);
      if (sets_ahead)
         prefetch_ll_set_ahead(p, end);
      if (cg_cache_ref_missed_avx2(a.l1, a.addr, (UChar)a.size)) {
         below_l1(a.cc, a.addr, a.size, a.first, 1);
         l1_misses++;
      }
   }
   return l1_misses;
}

CG_AVX2 static UWord log_entries_avx2(const UWord* p, const UWord* end)
{
   return ll_sets_ahead ? avx2_loop(p, end, True)
                        : avx2_loop(p, end, False);
}
#endif

void cg_sim_log_entries(const UWord* p, const UWord* end)
{
   UWord entries = (UWord)(end - p) / 2, l1_misses;

   n_log_chunks++;
   n_chunks_ll_ahead += ll_sets_ahead;
#if defined(VGA_amd64)
   if (use_avx2)
      l1_misses = log_entries_avx2(p, end);
   else
#endif
      l1_misses = log_entries_scalar(p, end);
   ll_sets_ahead = l1_misses * LL_PREFETCH_MISS_SHARE > entries
                   && (ULong)(LL.set_mask + 1) * LL.assoc * sizeof(UWord)
                      > LL_PREFETCH_MIN_TAGS;
}

void cg_sim_print_l1_lookups(void)
{
#if defined(VGA_amd64)
   if (use_avx2)
      VG_(dmsg)("simulator L1 look-ups: I1 %s (%d ways), D1 %s (%d ways)\n",
                cg_cache_has_vector_lookup(&I1) ? "AVX2" : "scalar", I1.assoc,
                cg_cache_has_vector_lookup(&D1) ? "AVX2" : "scalar", D1.assoc);
   else if (host_has_avx2)
      VG_(dmsg)("simulator L1 look-ups: the general path's (AVX2 set "
                "searches)\n");
   else
      VG_(dmsg)("simulator L1 look-ups: scalar (%s)\n",
                cg_clo.sim_vector ? "the host has no AVX2"
                                  : "--sim-vector=no");
#endif
   /* (a run whose chunks are all split has none: the line would say
      nothing) */
   if (n_log_chunks > 0)
      VG_(dmsg)("LL sets loaded ahead: in %llu of %llu chunks simulated "
                "entry by entry\n", n_chunks_ll_ahead, n_log_chunks);
}

/*------------------------------------------------------------*/
/*--- The split (cg_hierarchy.h, design.md 2.14)           ---*/
/*------------------------------------------------------------*/

/* A request for the levels below an L1, as the L1 stage leaves it in
   place of the entry it came from: the cost centre with the access's
   kind (0 fetch, 1 read, 2 write) in its low bits and CG_SPLIT_* bits
   in its top 16, then the address with the size on top. */
#if VG_WORDSIZE == 8
#define REQUEST_FLAGS_SHIFT 48
#else
#define REQUEST_FLAGS_SHIFT 24   /* not reached: no thread, no split */
#endif

Bool cg_sim_split_applies(void)
{
   /* (the flags sit above a 64-bit host's 48-bit addresses) */
   return VG_WORDSIZE == 8 && general_from_l1 && cg_hierarchy_can_split()
          && !cg_clo.per_thread_caches;
}

/* The L1s' look-ups of every entry in [p, end), in the client thread
   before the chunk is handed over; the requests for what is left are
   written over the entries, from p on (one at most per entry, so never
   past the one being read).  Returns their end. */
UWord* cg_sim_l1_stage(UWord* p, const UWord* end)
{
   UWord* request = p;

   for (; p < end; p += 2) {
      LoggedAccess a = decode_entry(p);
      UWord flags;

      __builtin_prefetch(p + LOG_PREFETCH_WORDS);
      flags = cg_hierarchy_l1_stage(a.l1, a.cc, a.addr, a.size, a.first);
      if (flags == 0)
         continue;
      request[0] = (UWord)a.cc
                   | (a.l1 == &I1 ? 0 : a.first == EV_DR ? 1 : 2)
                   | flags << REQUEST_FLAGS_SHIFT;
      request[1] = a.addr | (UWord)(UChar)a.size << LOG_SIZE_SHIFT;
      request += 2;
   }
   return request;
}

/* A whole chunk in one thread (the simulator's, or the client's without
   one), in the same two passes: the L1s' look-ups of all its entries,
   then the levels below for what they left.  Each level sees the same
   order as through cg_hierarchy_access, entry by entry, and the passes
   are the lean ones (lru_l1_stage inline): sqlite3 under --cpu=generic
   spent 4 times as long in a chunk through the general path. */
void cg_sim_log_entries_in_two_passes(const UWord* from, const UWord* to)
{
   /* The chunk is this thread's until it is freed: the requests go
      over its entries */
   UWord* end = cg_sim_l1_stage((UWord*)from, to);

   cg_sim_below_stage(from, end);
}

/* The simulator thread's part: the requests in order */
void cg_sim_below_stage(const UWord* p, const UWord* end)
{
   static CacheLevel* const level_of_kind[4] = { &I1, &D1, &D1, &D1 };
   static const UChar first_of_kind[4] = { EV_IR, EV_DR, EV_DW, EV_DW };

   for (; p < end; p += 2) {
      UWord kind = p[0] & 3;

      __builtin_prefetch(p + LOG_PREFETCH_WORDS);
      cg_hierarchy_below_stage(level_of_kind[kind],
                               (CostCentre*)(p[0] & LOG_CC_MASK),
                               p[1] & LOG_ADDR_MASK, p[1] >> LOG_SIZE_SHIFT,
                               first_of_kind[kind],
                               p[0] >> REQUEST_FLAGS_SHIFT);
   }
}
