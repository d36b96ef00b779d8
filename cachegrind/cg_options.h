/* cg_options.h -- the command-line options and --help text (cg_options.c). */

#ifndef CG_OPTIONS_H
#define CG_OPTIONS_H

#include "pub_tool_basics.h"
#include "cg_config.h"

#define CG_MAX_TOGGLE_PATTERNS 16
#define CG_LOG_MAX_CHUNKS      256   /* --log-chunks */
#define CG_DATA_MAX_CALLERS    32    /* --data-callers */

/* --sim-split (cg_log.c) */
enum { CG_SPLIT_NEVER, CG_SPLIT_WHEN_BEHIND, CG_SPLIT_ALWAYS };

typedef struct {
   Bool          cache_sim;
   Bool          branch_sim;
   Bool          sim_thread;      /* simulate the access log in a thread */
   Int           sim_split;       /* CG_SPLIT_*: L1s in the client thread */
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
   CacheGeometry I1, D1, L2, LL;
   Bool          I1_given, D1_given, L2_given, LL_given; /* L2_given: a
                                     middle level is simulated */
   /* What is counted when (cg_control.c) */
   Bool          instr_at_start;
   const HChar*  toggle_patterns[CG_MAX_TOGGLE_PATTERNS];
   Int           n_toggle_patterns;
   /* Phase profile (cg_intervals.c); interval_size 0 = off */
   ULong         interval_size;
   const HChar*  intervals_out_file;
   Long          interval_lines;  /* per event and interval, 0 = none */
   /* SimPoint basic block vectors (cg_bbv.c); bb_out_file NULL = off */
   const HChar*  bb_out_file;
   ULong         bb_interval_size;
   const HChar*  pc_out_file;      /* NULL = none */
   /* Data-centric profile (cg_data.c, cg_alloc.c) */
   Bool          data_profile;
   const HChar*  data_out_file;
   Long          data_callers;
   Long          data_stride;      /* 0: detected */
   /* Lines threads share (cg_sharing.c) */
   Bool          sharing;
   const HChar*  sharing_out_file;
   Bool          separate_threads; /* cg_thread_counts.c */
   const HChar*  caches;           /* --caches: as given (cg_main.c) */
   Bool          per_thread_caches; /* --caches=per-thread */
   const HChar*  I1_policy;        /* as given (cg_main.c checks them) */
   const HChar*  D1_policy;
   const HChar*  L2_policy;
   const HChar*  LL_policy;
   ULong         seed;             /* the random policies' generator */
   const HChar*  LL_inclusion;     /* as given (cg_main.c checks it) */
   const HChar*  cpu;              /* --cpu: a preset, or "host"; NULL */
   Bool          simulate_wb;      /* --simulate-wb (cg_hierarchy.c) */
   Bool          cacheuse;         /* --cacheuse (cg_lineuse.c) */
   UInt          model_given;      /* CG_GIVEN_* of the options given,
                                     which a preset must not change */
   const HChar*  D1_prefetch;      /* as given (cg_main.c checks them) */
   const HChar*  L2_prefetch;
   const HChar*  LL_prefetch;
   const HChar*  trace_out_file;   /* the access trace (debug option;
                                     cg_trace.c); NULL = none */
} CgOptions;

enum {
   /* (the presets leave the L1s' policies alone: no bits for them) */
   CG_GIVEN_L2_POLICY = 1 << 2, CG_GIVEN_LL_POLICY = 1 << 3,
   CG_GIVEN_INCLUSION = 1 << 4, CG_GIVEN_D1_PREFETCH = 1 << 5,
   CG_GIVEN_L2_PREFETCH = 1 << 6, CG_GIVEN_LL_PREFETCH = 1 << 7
};

extern CgOptions cg_clo;

void cg_options_set_defaults(void);
Bool cg_options_process(const HChar* arg);
void cg_options_print_usage(void);
void cg_options_print_debug_usage(void);

#endif /* CG_OPTIONS_H */
