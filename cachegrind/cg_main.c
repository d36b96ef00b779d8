/* cg_main.c -- registration with the Valgrind core, start-up, exit.

   Wires the modules together: options are parsed by cg_options.c, the
   caches chosen by cg_config.c, blocks instrumented by
   cg_instrument.c, and at exit cg_output.c writes the file (through
   cg_file.c, as every output file) whose totals cg_summary.c prints.

   An exec is an end that never reaches cg_fini: the core replaces the
   process image (with --trace-children=yes, by a new Valgrind that
   starts a run of its own).  As in Cachegrind 3.19 the replaced image
   writes no cachegrind.out, and that file is opened only at exit; but
   the phase profile and the vectors are open while the program runs,
   and would be left as <name>.tmp.<pid>.  So a system call hook gives
   them up, and says so, before the core's own handling of the exec. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vkiscnums.h"
#include "cg_alloc.h"
#include "cg_bbv.h"
#include "cg_branch.h"
#include "cg_checkers.h"
#include "cg_lineuse.h"
#include "cg_config.h"
#include "cg_cpu.h"
#include "cg_control.h"
#include "cg_costs.h"
#include "cg_data.h"
#include "cg_data_file.h"
#include "cg_sharing.h"
#include "cg_threads.h"
#include "cg_thread_counts.h"
#include "cg_coherence.h"
#include "cg_sharing_file.h"
#include "cg_file.h"
#include "cg_instrument.h"
#include "cg_intervals.h"
#include "cg_log.h"
#include "cg_options.h"
#include "cg_output.h"
#include "cg_sim.h"
#include "cg_policy.h"
#include "cg_hierarchy.h"
#include "cg_prefetch.h"
#include "cg_summary.h"
#include "cg_tier.h"
#include "cg_trace.h"
#include "cg_tool.h"
#include "cg_vgcompat.h"

static CacheGeometry sim_I1, sim_D1, sim_LL;
/* The middle level (--L2): simulated only if given, never detected */
static const CacheGeometry* sim_L2;

/* The widest guest register a single load or store can move.  Every
   access must fit in one cache line of the smallest line size. */
static Int largest_guest_register(void)
{
#if defined(VGA_amd64)
   VexArch arch;
   VexArchInfo info;
   VG_(machine_get_VexArchInfo)(&arch, &info);
   return (info.hwcaps & VEX_HWCAPS_AMD64_AVX) ? 32 : 16;
#else
   return 16;
#endif
}

static Int min3(Int a, Int b, Int c)
{
   Int m = a < b ? a : b;
   return m < c ? m : c;
}

/* The access log (cg_log.c) simulates accesses some time after they
   happen: not with the options that act on counts at exact moments.
   Its filter test needs L1s of more than one set (see
   cg_deliver.c), and its entries 64-bit addresses with spare top bits.
   With lines of 256 bytes or more, an access can be 256 bytes long,
   which the model's 8-bit size turns into 0 and Cachegrind 3.19 into a
   panic: that must happen in the client's thread, not the simulator's.
   Group checkers (used with the log) need the MRU mirrors in the tool's
   static data, 128 KiB (cg_cache.c): an 8-way D1 of 1 MB does not fit. */
static Bool access_log_applies(void)
{
#if defined(VGA_amd64)
   return cg_clo.cache_sim && !cg_control_toggling()
          && !cg_intervals_enabled()
          && sim_I1.size > sim_I1.line_size * sim_I1.assoc
          && sim_D1.size > sim_D1.line_size * sim_D1.assoc
          && min3(sim_I1.line_size, sim_D1.line_size, sim_LL.line_size) < 256
          && cg_sim_mirrors_fit_static_data(&sim_I1, &sim_D1);
#else
   return False;
#endif
}

/* A level's replacement policy as given, checked against its geometry;
   a bad one ends the run with the option named. */
static CgPolicy checked_policy(const HChar* option, const HChar* name,
                               const CacheGeometry* level, Bool is_l1)
{
   CgPolicy policy;
   const HChar* why;

   if (!cg_policy_from_name(name, &policy)) {
      VG_(umsg)("Bad option: %s=%s: the policy is one of lru, plru, srrip, "
                "brrip, random\n", option, name);
      VG_(exit)(1);
   }
   if (is_l1 && (policy == CG_POLICY_SRRIP || policy == CG_POLICY_BRRIP)) {
      VG_(umsg)("Bad option: %s=%s: an L1 takes lru, plru or random (a "
                "hit after a fill changes %s's state, which the L1's MRU "
                "filter would skip)\n", option, name, name);
      VG_(exit)(1);
   }
   why = cg_policy_unsupported(policy, level->assoc);
   if (why != NULL) {
      VG_(umsg)("Bad option: %s=%s: %s, and the level has %d ways\n",
                option, name, why, level->assoc);
      VG_(exit)(1);
   }
   return policy;
}

/* --LL-inclusion as given, checked against the levels; a bad one ends
   the run with the option named. */
static CgInclusion checked_inclusion(void)
{
   CgInclusion mode;
   Int feeder_line = sim_L2 != NULL ? sim_L2->line_size : sim_D1.line_size;

   if (!cg_inclusion_from_name(cg_clo.LL_inclusion, &mode)) {
      VG_(umsg)("Bad option: --LL-inclusion=%s: the mode is one of nine, "
                "inclusive, exclusive\n", cg_clo.LL_inclusion);
      VG_(exit)(1);
   }
   if (mode == CG_INCLUSION_EXCLUSIVE
       && (sim_LL.line_size != feeder_line
           || (sim_L2 == NULL && sim_I1.line_size != feeder_line))) {
      VG_(umsg)("Bad option: --LL-inclusion=exclusive: LL's line size (%d) "
                "must be that of the level%s above it (%s)\n",
                sim_LL.line_size, sim_L2 != NULL ? "" : "s",
                sim_L2 != NULL ? "L2" : "I1 and D1");
      VG_(exit)(1);
   }
   return mode;
}

/* A level's --<level>-prefetch as given; `allowed` names the kinds it
   takes (bits 1 << CgPrefetchKind), `names` them for the message.  A bad
   one ends the run with the option named. */
static CgPrefetchKind checked_prefetch(const HChar* option, const HChar* name,
                                       UInt allowed, const HChar* names,
                                       CgInclusion inclusion, Bool present)
{
   CgPrefetchKind kind;

   if (!cg_prefetch_from_name(name, &kind) || !(allowed & (1u << kind))) {
      VG_(umsg)("Bad option: %s=%s: the prefetcher is one of %s\n", option,
                name, names);
      VG_(exit)(1);
   }
   if (kind != CG_PREFETCH_NONE && inclusion != CG_INCLUSION_NINE) {
      VG_(umsg)("Bad option: %s=%s: prefetchers are modelled with "
                "--LL-inclusion=nine only\n", option, name);
      VG_(exit)(1);
   }
   if (kind != CG_PREFETCH_NONE && !present) {
      VG_(umsg)("Bad option: %s=%s: there is no L2 (--L2)\n", option, name);
      VG_(exit)(1);
   }
   return kind;
}

/* --cacheuse=yes: under nine, without prefetchers, write-backs or the
   data profile (manual 5.13); an inclusion a preset set says so (its
   prefetchers are dropped: apply_cpu_option) */
static void check_cacheuse(CgInclusion inclusion,
                           const CgPrefetchKind* prefetch)
{
   static const struct { const HChar* option; Int level; } prefetchers[] = {
      { "--D1-prefetch", CG_SIM_D1 },
      { "--L2-prefetch", CG_SIM_L2 },
      { "--LL-prefetch", CG_SIM_LL },
   };
   const HChar* why = NULL;
   const HChar* cpu = "";
   UInt i;

   if (!cg_clo.cacheuse)
      return;
   if (!cg_clo.cache_sim)
      why = "it needs --cache-sim=yes";
   else if (inclusion != CG_INCLUSION_NINE) {
      why = "line use is modelled with --LL-inclusion=nine only";
      if (!(cg_clo.model_given & CG_GIVEN_INCLUSION))
         cpu = " (--cpu's inclusion)";
   } else if (cg_clo.simulate_wb)
      why = "not with --simulate-wb=yes";
   else if (cg_clo.data_profile)
      why = "not with --data-profile=yes";
   for (i = 0; why == NULL && i < sizeof prefetchers / sizeof prefetchers[0];
        i++)
      if (prefetch[prefetchers[i].level] != CG_PREFETCH_NONE) {
         why = "line use is modelled without prefetchers";
         VG_(umsg)("Bad option: --cacheuse=yes: %s, and %s is on\n",
                   why, prefetchers[i].option);
         VG_(exit)(1);
      }
   if (why != NULL) {
      VG_(umsg)("Bad option: --cacheuse=yes: %s%s\n", why, cpu);
      VG_(exit)(1);
   }
}

/* A --cpu preset other than host was given: it sets every level, so
   the host's are not looked at (nor warned about) */
static Bool cpu_preset_named(void)
{
   return cg_clo.cache_sim && cg_clo.cpu != NULL
          && VG_(strcmp)(cg_clo.cpu, "host") != 0;
}

/* --cpu: a preset fills in what no option gave; host adds the host's
   L2.  An unknown name ends the run with the option named. */
static void apply_cpu_option(void)
{
   const CgCpuPreset* p;
   UInt given = cg_clo.model_given;

   if (cg_clo.cpu == NULL)
      return;
   if (VG_(strcmp)(cg_clo.cpu, "host") == 0) {
      if (!cg_clo.L2_given && cg_config_host_l2(&cg_clo.L2))
         cg_clo.L2_given = True;
      return;
   }
   p = cg_cpu_find(cg_clo.cpu);
   if (p == NULL) {
      VG_(umsg)("Bad option: --cpu=%s: no such preset (--cpu=list lists "
                "them)\n", cg_clo.cpu);
      VG_(exit)(1);
   }
#define FROM_PRESET(given_flag, field, value) \
   do { if (!(given_flag)) { field = value; } } while (0)
#define GEOMETRY(level) ((CacheGeometry){ (level).size, (level).assoc, \
                                          (level).line_size })
   FROM_PRESET(cg_clo.I1_given, cg_clo.I1, GEOMETRY(p->i1));
   FROM_PRESET(cg_clo.D1_given, cg_clo.D1, GEOMETRY(p->d1));
   FROM_PRESET(cg_clo.L2_given, cg_clo.L2, GEOMETRY(p->l2));
   FROM_PRESET(cg_clo.LL_given, cg_clo.LL, GEOMETRY(p->ll));
#undef GEOMETRY
   cg_clo.I1_given = cg_clo.D1_given = cg_clo.L2_given = True;
   cg_clo.LL_given = True;
   FROM_PRESET(given & CG_GIVEN_L2_POLICY, cg_clo.L2_policy, p->l2_policy);
   FROM_PRESET(given & CG_GIVEN_LL_POLICY, cg_clo.LL_policy, p->ll_policy);
   FROM_PRESET(given & CG_GIVEN_INCLUSION, cg_clo.LL_inclusion, p->inclusion);
   /* Prefetchers are modelled under nine only, and line use without
      them: an explicit other --LL-inclusion, or --cacheuse=yes, drops
      the preset's (an explicit prefetcher stays, and is refused) */
   if (VG_(strcmp)(cg_clo.LL_inclusion, "nine") == 0 && !cg_clo.cacheuse) {
      FROM_PRESET(given & CG_GIVEN_D1_PREFETCH, cg_clo.D1_prefetch,
                  p->d1_prefetch);
      FROM_PRESET(given & CG_GIVEN_L2_PREFETCH, cg_clo.L2_prefetch,
                  p->l2_prefetch);
      FROM_PRESET(given & CG_GIVEN_LL_PREFETCH, cg_clo.LL_prefetch,
                  p->ll_prefetch);
   }
#undef FROM_PRESET
}

/* --caches: its value, before anything is sized by it */
static void parse_caches_option(void)
{
   if (VG_(strcmp)(cg_clo.caches, "shared") == 0)
      cg_clo.per_thread_caches = False;
   else if (VG_(strcmp)(cg_clo.caches, "per-thread") == 0)
      cg_clo.per_thread_caches = True;
   else {
      VG_(umsg)("Bad option: --caches=%s: shared or per-thread\n",
                cg_clo.caches);
      VG_(exit)(1);
   }
   if (cg_clo.per_thread_caches && !cg_clo.cache_sim) {
      VG_(umsg)("Bad option: --caches=per-thread: it needs "
                "--cache-sim=yes\n");
      VG_(exit)(1);
   }
}

/* --caches=per-thread is modelled over LRU private levels without the
   general path's models (manual 10.8) */
static void check_per_thread_caches(const CgPolicy* policies,
                                    CgInclusion inclusion,
                                    const CgPrefetchKind* prefetch)
{
   const HChar* why = NULL;

   if (!cg_clo.per_thread_caches)
      return;
   if (policies[CG_SIM_I1] != CG_POLICY_LRU)
      why = "--I1-policy is not lru";
   else if (policies[CG_SIM_D1] != CG_POLICY_LRU)
      why = "--D1-policy is not lru";
   else if (policies[CG_SIM_L2] != CG_POLICY_LRU && sim_L2 != NULL)
      why = "--L2-policy is not lru";
   else if (inclusion != CG_INCLUSION_NINE)
      why = "--LL-inclusion is not nine";
   else if (prefetch[CG_SIM_D1] != CG_PREFETCH_NONE)
      why = "--D1-prefetch is on";
   else if (prefetch[CG_SIM_L2] != CG_PREFETCH_NONE)
      why = "--L2-prefetch is on";
   else if (prefetch[CG_SIM_LL] != CG_PREFETCH_NONE)
      why = "--LL-prefetch is on";
   else if (cg_clo.simulate_wb)
      why = "not with --simulate-wb=yes";
   else if (cg_clo.cacheuse)
      why = "not with --cacheuse=yes";
   else if (cg_clo.data_profile)
      why = "not with --data-profile=yes";
   if (why == NULL)
      return;
   VG_(umsg)("Bad option: --caches=per-thread: private caches are modelled "
             "with LRU and no prefetchers%s, and %s\n",
             cg_clo.cpu != NULL ? " (a --cpu preset sets both)" : "", why);
   VG_(exit)(1);
}

static void cg_post_clo_init(void)
{
   Int min_line, widest;
   Bool log_mode, configured, stride_prefetch;
   CgPolicy policies[CG_SIM_N_LEVELS];
   CgInclusion inclusion;
   CgPrefetchKind prefetch[CG_SIM_N_LEVELS];

   if (cg_clo.data_profile && !cg_clo.cache_sim) {
      VG_(umsg)("Bad option: --data-profile=yes needs --cache-sim=yes (it "
                "counts the accesses and misses of the cache simulation)\n");
      VG_(exit)(1);
   }
   parse_caches_option();
   if (cg_clo.cache_sim)
      apply_cpu_option();
   configured = cg_clo.cache_sim || !CG_CACHE_CONFIG_ONLY_IF_SIM;
   if (configured)
      cg_config_choose(cg_clo.I1_given ? &cg_clo.I1 : NULL,
                       cg_clo.D1_given ? &cg_clo.D1 : NULL,
                       cg_clo.LL_given ? &cg_clo.LL : NULL,
                       !cpu_preset_named(), &sim_I1, &sim_D1, &sim_LL);
   else
      cg_config_unsimulated(&sim_I1, &sim_D1, &sim_LL);
   sim_L2 = cg_clo.cache_sim && cg_clo.L2_given ? &cg_clo.L2 : NULL;

   min_line = min3(sim_I1.line_size, sim_D1.line_size, sim_LL.line_size);
   if (sim_L2 != NULL && sim_L2->line_size < min_line)
      min_line = sim_L2->line_size;
   widest = largest_guest_register();
   if (configured && min_line < widest) {
      VG_(umsg)("Cachegrind: cannot continue: the minimum line size (%d)\n",
                min_line);
      VG_(umsg)("  must be equal to or larger than the maximum register "
                "size (%d)\n", widest);
      VG_(umsg)("  but it is not.  Exiting now.\n");
      VG_(exit)(1);
   }

   cg_file_init();
   cg_output_expect_file();
   cg_trace_init();
   cg_control_init();
   cg_intervals_init();
   cg_bbv_init();
   if (cg_bbv_enabled()) {
      /* Vectors count VEX's basic blocks as exp-bbv sees them: one
         straight-line run per superblock. */
      VG_(clo_vex_control).guest_chase = False;
      VG_(clo_vex_control).iropt_unroll_thresh = 0;
   }

   /* Room in cost centres for the events beyond 3.19's */
   cg_costs_init(cg_output_event_selected(EV_I2_MISS)
                 || cg_output_event_selected(EV_LL_DIRTY_READ_MISS)
                 || cg_output_event_selected(EV_D1_PF)
                 || cg_output_event_selected(EV_L2_PF)
                 || cg_output_event_selected(EV_LL_PF)
                 || cg_output_event_selected(EV_L1_SPATIAL_LOSS)
                 || cg_clo.per_thread_caches);
   policies[CG_SIM_I1] = checked_policy("--I1-policy", cg_clo.I1_policy,
                                        &sim_I1, True);
   policies[CG_SIM_D1] = checked_policy("--D1-policy", cg_clo.D1_policy,
                                        &sim_D1, True);
   policies[CG_SIM_L2] = sim_L2 == NULL ? CG_POLICY_LRU
                         : checked_policy("--L2-policy", cg_clo.L2_policy,
                                          sim_L2, False);
   policies[CG_SIM_LL] = checked_policy("--LL-policy", cg_clo.LL_policy,
                                        &sim_LL, False);
   inclusion = cg_clo.cache_sim ? checked_inclusion() : CG_INCLUSION_NINE;
   VG_(memset)(prefetch, 0, sizeof prefetch);
   if (cg_clo.cache_sim) {
      UInt none = 1u << CG_PREFETCH_NONE;
      UInt next = 1u << CG_PREFETCH_NEXT_LINE;
      UInt stream = 1u << CG_PREFETCH_STREAM;
      UInt stride = 1u << CG_PREFETCH_STRIDE;
      prefetch[CG_SIM_D1] = checked_prefetch("--D1-prefetch",
                               cg_clo.D1_prefetch, none | next | stride,
                               "none, next-line, stride", inclusion, True);
      prefetch[CG_SIM_L2] = checked_prefetch("--L2-prefetch",
                               cg_clo.L2_prefetch,
                               none | next | stream | stride,
                               "none, next-line, stream, stride", inclusion,
                               sim_L2 != NULL);
      prefetch[CG_SIM_LL] = checked_prefetch("--LL-prefetch",
                               cg_clo.LL_prefetch, none | stream,
                               "none, stream", inclusion, True);
   }
   if (cg_clo.cache_sim && cg_clo.simulate_wb) {
      if (inclusion != CG_INCLUSION_NINE) {
         VG_(umsg)("Bad option: --simulate-wb=yes: write-backs are modelled "
                   "with --LL-inclusion=nine only, and LL is %s%s\n",
                   cg_clo.LL_inclusion,
                   (cg_clo.model_given & CG_GIVEN_INCLUSION) ? ""
                   : " (--cpu's)");
         VG_(exit)(1);
      }
      if (cg_clo.data_profile) {
         VG_(umsg)("Bad option: --simulate-wb=yes: not with "
                   "--data-profile=yes\n");
         VG_(exit)(1);
      }
   }
   check_cacheuse(inclusion, prefetch);
   check_per_thread_caches(policies, inclusion, prefetch);
   /* A stride prefetcher needs each access's instruction, which the log's
      entries do not carry, nor the data profile's */
   stride_prefetch = cg_prefetch_needs_pc(prefetch[CG_SIM_D1])
                     || cg_prefetch_needs_pc(prefetch[CG_SIM_L2]);
   if (stride_prefetch && cg_clo.data_profile) {
      VG_(umsg)("Bad option: %s=stride: not with --data-profile=yes\n",
                cg_prefetch_needs_pc(prefetch[CG_SIM_D1]) ? "--D1-prefetch"
                                                          : "--L2-prefetch");
      VG_(exit)(1);
   }
   /* inclusive removes lines from the L1s behind compiled code's MRU
      filter, and D1's prefetcher fills D1 there: the model keeps the
      mirrors.  Under LRU a prefetch fill leaves the most recent line
      alone (cg_cache_block_lookup), so an LRU D1 of two or more ways
      keeps the log (one way has no room beside that line). */
   log_mode = access_log_applies() && inclusion != CG_INCLUSION_INCLUSIVE
              && (prefetch[CG_SIM_D1] == CG_PREFETCH_NONE
                  || (policies[CG_SIM_D1] == CG_POLICY_LRU
                      && sim_D1.assoc > 1))
              && !(cg_clo.cache_sim && cg_clo.simulate_wb)
              && !cg_clo.cacheuse && !stride_prefetch
              /* A thread switch swaps the private levels at once */
              && !cg_clo.per_thread_caches;
   cg_sim_init(&sim_I1, &sim_D1, sim_L2, &sim_LL, policies, inclusion,
               prefetch, cg_clo.cache_sim && cg_clo.simulate_wb,
               cg_clo.cacheuse, log_mode);
   /* After the simulator: it reads D1's mirror */
   cg_data_init(log_mode);
   if (cg_data_enabled())
      cg_alloc_init();
   cg_data_file_expect();
   if (cg_clo.separate_threads) {
      /* The phase profile reads the cost centres' growth, which a
         thread switch moves into the thread's share */
      if (cg_clo.interval_size > 0) {
         VG_(umsg)("Bad option: --separate-threads=yes: not with "
                   "--interval-size\n");
         VG_(exit)(1);
      }
      cg_thread_counts_init();
   }
   /* Lines of D1's size; 64 bytes if no cache is configured */
   if (cg_clo.sharing)
      cg_sharing_init(configured ? sim_D1.line_size : 64);
   cg_sharing_file_expect();
   cg_log_init(log_mode, cg_clo.sim_thread, (UInt)cg_clo.log_chunks,
               (UInt)cg_clo.log_alloc_limit);
   if (log_mode)
      cg_log_set_filters(cg_sim_i1(), cg_sim_d1());
   /* The data profile simulates the log its own way */
   if (log_mode && cg_sim_split_applies() && !cg_data_enabled())
      cg_log_set_split(cg_clo.sim_split != CG_SPLIT_NEVER ? cg_sim_l1_stage
                                                          : NULL,
                       cg_sim_below_stage, cg_sim_log_entries_in_two_passes,
                       cg_clo.sim_split == CG_SPLIT_ALWAYS);
   cg_log_register_fork_handlers();
   /* The data profile's accesses are not tested by checkers (every
      one is attributed): compiled code keeps its IR tests. */
   cg_tier_init(cg_clo.cache_sim, cg_log_enabled() && !cg_data_enabled(),
                cg_clo.hot_threshold);
   cg_checkers_init(cg_clo.checker_descriptors, (UInt)cg_clo.checker_shapes,
                    cg_clo.checker_wide_constants);
   cg_branch_init();
   if (configured)
      cg_instrument_init(min_line, sim_I1.line_size, sim_LL.line_size);
   else
      /* As 3.21 and later, which classify fetches for --stats=yes by
         caches never configured: lines of one byte. */
      cg_instrument_init(min_line, 1, 1);
}

static void cg_fini(Int exit_code)
{
   CgOutputResult result;

   /* The data profile's buffer first: with the log, it goes into the
      log; and the misses it counts are in the main file. */
   cg_data_sync();
   cg_log_drain();
   /* The lines still resident leave: their loaders are charged (before
      the last interval is written, so that intervals add up) */
   if (cg_clo.cacheuse)
      cg_lineuse_finish();
   cg_intervals_fini();
   cg_bbv_fini();
   cg_costs_fold_all();
   cg_thread_counts_finish();
   cg_output_write(&sim_I1, &sim_D1, sim_L2, &sim_LL, &result);
   cg_thread_counts_write(&sim_I1, &sim_D1, sim_L2, &sim_LL);
   cg_trace_fini();
   cg_data_file_write();
   cg_sharing_file_write();
   cg_summary_print(&result);
   cg_summary_print_stats(&result);
}

static void cg_thread_runs(ThreadId tid, ULong blocks_done)
{
   cg_tier_promote_due(blocks_done);
   cg_control_thread_runs(tid, blocks_done);
   cg_bbv_thread_runs(tid);
   cg_alloc_thread_runs(tid);
   cg_data_thread_runs(tid);
   cg_threads_runs(tid);
   cg_coherence_thread_runs(tid);
   cg_thread_counts_runs(tid);
   cg_sharing_thread_runs(tid);
}

static void cg_thread_created(ThreadId parent, ThreadId child)
{
   cg_threads_created(parent, child);
}

static void cg_thread_exits(ThreadId tid)
{
   cg_control_thread_exits(tid);
   cg_alloc_thread_exits(tid);
   cg_data_thread_exits(tid);
}

static void cg_discard_superblock(Addr orig_addr, VexGuestExtents vge)
{
   BlockInfo* block = cg_costs_lookup_block(orig_addr);
   Bool may_still_run = False;

   cg_data_translation_discarded(block);
   if (block != NULL)
      may_still_run = cg_tier_translation_discarded(
                         orig_addr, block->cold_executions, block->cold);
   cg_costs_discard_block(orig_addr, may_still_run);
}

/*------------------------------------------------------------*/
/*--- exec                                                 ---*/
/*------------------------------------------------------------*/

/* The thread whose exec made files be given up, or 0.  The post hook
   sees that exec only if the core's checks of it failed: a successful
   exec never comes back to this image. */
static ThreadId gave_up_for_exec;

static void report_given_up(const HChar* profile, const HChar* vectors,
                            UInt n_more)
{
   HChar more[48] = "";

   if (n_more > 0)
      VG_(sprintf)(more, " and %u more vector file%s", n_more,
                   n_more == 1 ? "" : "s");
   VG_(umsg)("the program execs: its %s%s%s%s%s%s%s%s %s not written "
             "(nor %s)\n",
             profile != NULL ? "phase profile '" : "",
             profile != NULL ? profile : "",
             profile != NULL ? "'" : "",
             profile != NULL && vectors != NULL ? " and " : "",
             vectors != NULL ? "vectors '" : "",
             vectors != NULL ? vectors : "",
             vectors != NULL ? "'" : "",
             more,
             vectors == NULL ? "is" : "are",
             cg_bbv_enabled() && cg_clo.pc_out_file != NULL
                ? "are its pc file and cachegrind.out"
                : "is its cachegrind.out");
}

/* Before the core's own handling of the exec, which either replaces
   the image or (its checks failing) returns an error to the program. */
static void cg_pre_syscall(ThreadId tid, UInt sysno, UWord* args,
                           UInt n_args)
{
   HChar* profile;
   HChar* vectors;
   UInt n_more;

   if (cg_data_enabled())
      cg_data_drain();      /* a library's symbols may go with a munmap */
   if (LIKELY(sysno != __NR_execve && sysno != __NR_execveat))
      return;
   profile = cg_intervals_give_up_for_exec();
   vectors = cg_bbv_give_up_for_exec(&n_more);
   gave_up_for_exec = profile != NULL || vectors != NULL ? tid : 0;
   if (gave_up_for_exec != 0)
      report_given_up(profile, vectors, n_more);
   VG_(free)(profile);
   VG_(free)(vectors);
}

/* After every system call; of an exec, only one that failed comes
   back.  Then the program goes on, and the files given up start
   again, as a forked child's do (rather than staying off: the same
   path as a fork, and the rest of the run is still profiled). */
static void cg_post_syscall(ThreadId tid, UInt sysno, UWord* args,
                            UInt n_args, SysRes res)
{
   cg_alloc_post_syscall(tid, sysno, args, res);
   if (LIKELY(gave_up_for_exec == 0)
       || gave_up_for_exec != tid
       || (sysno != __NR_execve && sysno != __NR_execveat))
      return;
   gave_up_for_exec = 0;
   if (!sr_isError(res))
      return;
   cg_intervals_exec_failed();
   VG_(umsg)("the exec failed, so the program goes on: the files named "
             "above are started again from here\n");
}

static void cg_pre_clo_init(void)
{
   VG_(details_name)("Cachegrind");
   VG_(details_version)("ng-" CG_PACKAGE_VERSION);
   VG_(details_description)("a cache and branch-prediction profiler");
   VG_(details_copyright_author)(
      "Copyright (C) 2026, and GNU GPL'd, by the cachegrind-ng authors.");
   VG_(details_bug_reports_to)(VG_BUGS_TO);
   VG_(details_avg_translation_sizeB)(500);

   /* The IR we are given depends on these; the counts we reproduce
      were made with them, so they are our defaults too. */
   VG_(clo_vex_control).iropt_register_updates_default
      = VG_(clo_px_file_backed)
      = VexRegUpdSpAtMemAccess;

   VG_(basic_tool_funcs)(cg_post_clo_init, cg_instrument, cg_fini);
   VG_(needs_superblock_discards)(cg_discard_superblock);
   VG_(needs_client_requests)(cg_control_client_request);
   VG_(track_start_client_code)(cg_thread_runs);
   VG_(track_pre_thread_ll_exit)(cg_thread_exits);
   VG_(track_pre_thread_ll_create)(cg_thread_created);
   VG_(needs_syscall_wrapper)(cg_pre_syscall, cg_post_syscall);
   VG_(needs_command_line_options)(cg_options_process,
                                   cg_options_print_usage,
                                   cg_options_print_debug_usage);
   cg_options_set_defaults();
}

VG_DETERMINE_INTERFACE_VERSION(cg_pre_clo_init)
