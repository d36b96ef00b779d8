/* cg_options.c -- the tool's command-line options and --help text.

   Owns: cg_clo (the parsed options) and the validation of option
   values, with the error messages users see.
   Must not: decide the final cache configuration (cg_config.c does,
   once the host's caches are known). */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"
#include "cg_options.h"
#include "cg_config.h"
#include "cg_cpu.h"
#include "cg_vgcompat.h"

CgOptions cg_clo;

void cg_options_set_defaults(void)
{
   VG_(memset)(&cg_clo, 0, sizeof cg_clo);
   cg_clo.cache_sim       = !CG_CACHE_SIM_OFF_BY_DEFAULT;
   cg_clo.branch_sim      = False;
   cg_clo.sim_thread      = True;
   cg_clo.sim_split       = CG_SPLIT_WHEN_BEHIND;
   cg_clo.log_chunks      = 32;
   cg_clo.log_alloc_limit = CG_LOG_MAX_CHUNKS;
   cg_clo.hot_threshold   = 0;
   cg_clo.inline_miss_paths = 4 * 1024 * 1024;
   cg_clo.checker_descriptors = True;
   cg_clo.checker_shapes = 32768;
   cg_clo.checker_wide_constants = False;
   cg_clo.sim_vector = True;
   cg_clo.vex_checks = False;
   cg_clo.out_file_format = "cachegrind.out.%p";
   cg_clo.instr_at_start  = True;
   cg_clo.intervals_out_file = "cachegrind.intervals.%p";
   cg_clo.interval_lines = 10;
   cg_clo.bb_interval_size = 100000000;
   cg_clo.data_profile = False;
   cg_clo.data_out_file = "cachegrind.data.%p";
   cg_clo.data_callers = 4;
   cg_clo.data_stride = 0;
   cg_clo.sharing = False;
   cg_clo.separate_threads = False;
   cg_clo.caches = "shared";
   cg_clo.sharing_out_file = "cachegrind.sharing.%p";
   cg_clo.I1_policy = "lru";
   cg_clo.D1_policy = "lru";
   cg_clo.L2_policy = "lru";
   cg_clo.LL_policy = "lru";
   cg_clo.seed = 1;
   cg_clo.LL_inclusion = "nine";
   cg_clo.D1_prefetch = "none";
   cg_clo.L2_prefetch = "none";
   cg_clo.LL_prefetch = "none";
}

/* A positive instruction count, with an optional k, M or G suffix
   (powers of 1000).  Ends the run with a message if malformed. */
static ULong parse_instruction_count(const HChar* arg, const HChar* value)
{
   HChar* end;
   Long n = VG_(strtoll10)(value, &end);
   ULong scale = 1;

   switch (*end) {
   case 'k': case 'K': scale = 1000ULL;       end++; break;
   case 'M': case 'm': scale = 1000000ULL;    end++; break;
   case 'G': case 'g': scale = 1000000000ULL; end++; break;
   default: break;
   }
   if (end == value || *end != '\0' || n <= 0
       || (ULong)n > 0xFFFFFFFFFFFFULL / scale)
      VG_(fmsg_bad_option)(arg, "expected a positive number of "
                           "instructions, optionally with a k, M or G "
                           "suffix\n");
   return (ULong)n * scale;
}

/* One integer as Valgrind's strtoll10 reads it (spaces, sign, digits;
   no digits reads as 0).  False if it does not fit an Int. */
static Bool read_cache_number(const HChar** cursor, Int* out)
{
   HChar* end;
   Long value = VG_(strtoll10)(*cursor, &end);

   *cursor = end;
   *out = (Int)value;
   return value == (Long)(Int)value;
}

/* "<size>,<assoc>,<line_size>" and nothing else.  Syntax errors,
   overflow and unusable geometry each have their own message; all of
   them end the run. */
static void parse_cache_option(const HChar* arg, const HChar* value,
                               CacheGeometry* geom)
{
   const HChar* cursor = value;
   Int numbers[3];
   Bool fits = True;
   Int i;
   const HChar* problem;

   for (i = 0; i < 3; i++) {
      fits = read_cache_number(&cursor, &numbers[i]) && fits;
      if (i < 2) {
         if (*cursor != ',')
            goto bad_syntax;
         cursor++;
      }
   }
   if (*cursor != '\0')
      goto bad_syntax;
   if (!fits)
      VG_(fmsg_bad_option)(arg, "One of the cache parameters was too large "
                                "and overflowed.\n");

   geom->size      = numbers[0];
   geom->assoc     = numbers[1];
   geom->line_size = numbers[2];
   problem = cg_geometry_problem(geom);
   if (problem == NULL)
      return;
   VG_(fmsg)("%s\n", problem);

bad_syntax:
   VG_(fmsg_bad_option)(arg, "Bad argument '%s'\n", value);
}

Bool cg_options_process(const HChar* arg)
{
   const HChar* value;

   if VG_STR_CLO(arg, "--I1", value) {
      parse_cache_option(arg, value, &cg_clo.I1);
      cg_clo.I1_given = True;
   }
   else if VG_STR_CLO(arg, "--D1", value) {
      parse_cache_option(arg, value, &cg_clo.D1);
      cg_clo.D1_given = True;
   }
   else if VG_STR_CLO(arg, "--LL", value) {
      parse_cache_option(arg, value, &cg_clo.LL);
      cg_clo.LL_given = True;
   }
   /* Cachegrind 3.19 took --L2 as an old spelling of --LL: here it is
      the middle level (manual 2.1 and 5.8) */
   else if VG_STR_CLO(arg, "--L2", value) {
      parse_cache_option(arg, value, &cg_clo.L2);
      cg_clo.L2_given = True;
   }
   else if VG_STR_CLO(arg, "--cachegrind-out-file", cg_clo.out_file_format) {}
   else if VG_BOOL_CLO(arg, "--cache-sim",  cg_clo.cache_sim)  {}
   else if VG_BOOL_CLO(arg, "--branch-sim", cg_clo.branch_sim) {}
   else if VG_BOOL_CLO(arg, "--sim-thread", cg_clo.sim_thread) {}
   else if VG_STR_CLO(arg, "--sim-split", value) {
      if (VG_(strcmp)(value, "yes") == 0)
         cg_clo.sim_split = CG_SPLIT_WHEN_BEHIND;
      else if (VG_(strcmp)(value, "no") == 0)
         cg_clo.sim_split = CG_SPLIT_NEVER;
      else if (VG_(strcmp)(value, "always") == 0)
         cg_clo.sim_split = CG_SPLIT_ALWAYS;
      else
         VG_(fmsg_bad_option)(arg, "the value is yes, no or always\n");
   }
   else if VG_BINT_CLO(arg, "--log-chunks", cg_clo.log_chunks,
                       2, CG_LOG_MAX_CHUNKS) {}
   else if VG_BINT_CLO(arg, "--log-alloc-limit", cg_clo.log_alloc_limit,
                       1, CG_LOG_MAX_CHUNKS) {}
   else if VG_BINT_CLO(arg, "--hot-threshold", cg_clo.hot_threshold,
                       0, 1000000000) {}
   else if VG_BINT_CLO(arg, "--inline-miss-paths", cg_clo.inline_miss_paths,
                       0, (Long)1 << 40) {}
   else if VG_BOOL_CLO(arg, "--checker-descriptors",
                       cg_clo.checker_descriptors) {}
   else if VG_BINT_CLO(arg, "--checker-shapes", cg_clo.checker_shapes,
                       0, 32768) {}
   else if VG_BOOL_CLO(arg, "--checker-wide-constants",
                       cg_clo.checker_wide_constants) {}
   else if VG_BOOL_CLO(arg, "--sim-vector", cg_clo.sim_vector) {}
   else if VG_BOOL_CLO(arg, "--vex-checks", cg_clo.vex_checks) {}
   else if VG_BOOL_CLO(arg, "--instr-at-start", cg_clo.instr_at_start) {}
   else if VG_STR_CLO(arg, "--toggle-collect", value) {
      if (cg_clo.n_toggle_patterns == CG_MAX_TOGGLE_PATTERNS)
         VG_(fmsg_bad_option)(arg, "at most %d --toggle-collect patterns\n",
                              CG_MAX_TOGGLE_PATTERNS);
      if (value[0] == '\0')
         VG_(fmsg_bad_option)(arg, "the pattern is empty\n");
      cg_clo.toggle_patterns[cg_clo.n_toggle_patterns++] = value;
   }
   else if VG_STR_CLO(arg, "--interval-size", value)
      cg_clo.interval_size = parse_instruction_count(arg, value);
   else if VG_STR_CLO(arg, "--intervals-out-file", cg_clo.intervals_out_file) {}
   else if VG_BINT_CLO(arg, "--interval-lines", cg_clo.interval_lines,
                       0, 100000) {}
   else if VG_STR_CLO(arg, "--bb-out-file", cg_clo.bb_out_file) {}
   else if VG_STR_CLO(arg, "--bb-interval-size", value)
      cg_clo.bb_interval_size = parse_instruction_count(arg, value);
   else if VG_STR_CLO(arg, "--pc-out-file", cg_clo.pc_out_file) {}
   else if VG_BOOL_CLO(arg, "--data-profile", cg_clo.data_profile) {}
   else if VG_STR_CLO(arg, "--data-out-file", cg_clo.data_out_file) {}
   else if VG_BOOL_CLO(arg, "--sharing", cg_clo.sharing) {}
   else if VG_BOOL_CLO(arg, "--separate-threads", cg_clo.separate_threads) {}
   else if VG_STR_CLO(arg, "--caches", cg_clo.caches) {}
   else if VG_STR_CLO(arg, "--sharing-out-file", cg_clo.sharing_out_file) {}
   else if VG_BINT_CLO(arg, "--data-callers", cg_clo.data_callers,
                       1, CG_DATA_MAX_CALLERS) {}
   else if VG_BINT_CLO(arg, "--data-stride", cg_clo.data_stride,
                       1, 1 << 20) {}
   else if VG_STR_CLO(arg, "--I1-policy", cg_clo.I1_policy) {}
   else if VG_STR_CLO(arg, "--D1-policy", cg_clo.D1_policy) {}
   else if VG_STR_CLO(arg, "--L2-policy", cg_clo.L2_policy)
      cg_clo.model_given |= CG_GIVEN_L2_POLICY;
   else if VG_STR_CLO(arg, "--LL-inclusion", cg_clo.LL_inclusion)
      cg_clo.model_given |= CG_GIVEN_INCLUSION;
   else if VG_STR_CLO(arg, "--D1-prefetch", cg_clo.D1_prefetch)
      cg_clo.model_given |= CG_GIVEN_D1_PREFETCH;
   else if VG_STR_CLO(arg, "--L2-prefetch", cg_clo.L2_prefetch)
      cg_clo.model_given |= CG_GIVEN_L2_PREFETCH;
   else if VG_STR_CLO(arg, "--LL-prefetch", cg_clo.LL_prefetch)
      cg_clo.model_given |= CG_GIVEN_LL_PREFETCH;
   else if VG_BOOL_CLO(arg, "--simulate-wb", cg_clo.simulate_wb) {}
   else if VG_BOOL_CLO(arg, "--cacheuse", cg_clo.cacheuse) {}
   else if VG_STR_CLO(arg, "--cpu", cg_clo.cpu) {
      /* As --help: at once, whatever else the command line says */
      if (VG_(strcmp)(cg_clo.cpu, "list") == 0) {
         cg_cpu_print_list();
         VG_(exit)(0);
      }
   }
   else if VG_STR_CLO(arg, "--trace-out-file", cg_clo.trace_out_file) {}
   else if VG_STR_CLO(arg, "--LL-policy", cg_clo.LL_policy)
      cg_clo.model_given |= CG_GIVEN_LL_POLICY;
   else if VG_STR_CLO(arg, "--seed", value) {
      HChar* end;
      cg_clo.seed = VG_(strtoull10)(value, &end);
      if (value[0] == '\0' || *end != '\0')
         VG_(fmsg_bad_option)(arg, "the seed is a decimal number\n");
   }
   else
      return False;
   return True;
}

void cg_options_print_usage(void)
{
   VG_(printf)(
"    --I1=<size>,<assoc>,<line_size>  set I1 cache manually\n"
"    --D1=<size>,<assoc>,<line_size>  set D1 cache manually\n"
"    --LL=<size>,<assoc>,<line_size>  set LL cache manually\n"
"    --cpu=<name>|host|list           every level's geometry, policy,\n"
"                                     inclusion and prefetchers of a CPU\n"
"                                     preset; host: this machine's levels, L2\n"
"                                     included; list: print the presets and\n"
"                                     exit (with any program, which does not\n"
"                                     run); explicit options override [none]\n"
"    --L2=<size>,<assoc>,<line_size>  add a middle level between the L1s and\n"
"                                     LL, with events I2mr D2mr D2mw [none]\n"
"    --cache-sim=yes|no               collect cache stats? [%s]\n"
"    --branch-sim=yes|no              collect branch prediction stats? [no]\n"
"    --cachegrind-out-file=<file>     output file name [cachegrind.out.%%p]\n"
"    --LL-policy=lru|plru|srrip|brrip|random\n"
"                                     LL's replacement policy (manual 5.7);\n"
"                                     lru is Cachegrind 3.19's [lru]\n"
"    --I1-policy=lru|plru|random      I1's [lru]\n"
"    --D1-policy=lru|plru|random      D1's [lru]\n"
"    --L2-policy=lru|plru|srrip|brrip|random  L2's [lru]\n"
"    --LL-inclusion=nine|inclusive|exclusive\n"
"                                     LL against the levels above it (manual\n"
"                                     5.9); nine is Cachegrind 3.19's [nine]\n"
"    --D1-prefetch=none|next-line|stride  D1's prefetcher (manual 5.10) [none]\n"
"    --L2-prefetch=none|next-line|stream|stride  L2's [none]\n"
"    --LL-prefetch=none|stream        LL's [none]\n"
"    --simulate-wb=no|yes             dirty lines and write-backs: events\n"
"                                     ILdmr DLdmr DLdmw (manual 5.12) [no]\n"
"    --cacheuse=no|yes                bytes of each loaded line never used, and\n"
"                                     1000/uses, charged to the loading line:\n"
"                                     SpLoss1 SpLoss2 AcCost1 AcCost2 (5.13) [no]\n"
"    --seed=<n>                       seed of brrip's and random's generator:\n"
"                                     the same counts on every run [1]\n"
"\n"
"  what is counted when:\n"
"    --instr-at-start=yes|no          count and simulate from the start? [yes]\n"
"                                     (client requests in <valgrind/cachegrind.h>\n"
"                                     CACHEGRIND_START/STOP_INSTRUMENTATION switch it)\n"
"    --toggle-collect=<pattern>       count only while a function matching\n"
"                                     <pattern> (wildcards * and ?) is active;\n"
"                                     may be given several times [off]\n"
"\n"
"  phase profile:\n"
"    --interval-size=<n>[k|M|G]       write one record of every event per <n>\n"
"                                     instructions, for cg_phases [off]\n"
"    --intervals-out-file=<file>      its name [cachegrind.intervals.%%p]\n"
"    --interval-lines=<n>             with each record, the <n> source lines\n"
"                                     with the most of each event in it, with\n"
"                                     all their counts (0: none; for cg_annotate\n"
"                                     --html's heat map) [10]\n"
"\n"
"  SimPoint basic block vectors:\n"
"    --bb-out-file=<file>             write them to <file> (threads other than\n"
"                                     the first to <file>.<tid>) [off]\n"
"    --bb-interval-size=<n>[k|M|G]    instructions per vector [100000000]\n"
"    --pc-out-file=<file>             also write block ids -> addresses and\n"
"                                     functions to <file> [none]\n"
"\n"
"  data-centric profile (read it with cg_annotate --data):\n"
"    --data-profile=no|yes            attribute every data access and its\n"
"                                     misses to the object holding its address:\n"
"                                     heap block (by allocation site), anonymous\n"
"                                     mapping, global, thread stack, other [no]\n"
"    --data-out-file=<file>           its file [cachegrind.data.%%p]\n"
"    --data-callers=<n>               frames of an allocation site [4]\n"
"    --data-stride=<n>                element size for the per-field counts\n"
"                                     [detected]\n"
"\n"
"  threads (read it with cg_annotate --sharing):\n"
"    --sharing=no|yes                 report the cache lines that threads\n"
"                                     share and write (false and true\n"
"                                     sharing), by bytes and source line [no]\n"
"    --sharing-out-file=<file>        its file [cachegrind.sharing.%%p]\n"
"    --caches=shared|per-thread       one set of caches for all threads, or\n"
"                                     each its own I1, D1 and L2 over the\n"
"                                     shared LL, kept coherent (event D1cm)\n"
"                                     [shared]\n"
"    --separate-threads=no|yes        also write each thread's counts to\n"
"                                     <out file>.<n> (n: 1 the main thread,\n"
"                                     then in order of creation) [no]\n"
"\n"
"  speed:\n"
"    --sim-thread=yes|no              simulate the accesses the compiled code\n"
"                                     cannot settle in a second thread, beside\n"
"                                     the client (same counts) [yes]\n"
"    --hot-threshold=<n>              translate a block first cold (its cache\n"
"                                     tests made by a C helper: slower to run),\n"
"                                     again hot once it has run <n> times (same\n"
"                                     counts); 0: hot at once [0]\n",
   CG_CACHE_SIM_OFF_BY_DEFAULT ? "no" : "yes");
}

void cg_options_print_debug_usage(void)
{
   VG_(printf)(
"    --checker-descriptors=no|yes     groups of the same shape share one group\n"
"                                     checker, which reads what differs from a\n"
"                                     descriptor (same counts) [yes]\n"
"    --checker-shapes=<n>             at most <n> shapes share checkers; groups\n"
"                                     of other shapes get their own (same\n"
"                                     counts) [32768]\n"
"    --checker-wide-constants=no|yes  group checkers reach counters through\n"
"                                     64-bit addresses and compare with 64-bit\n"
"                                     constants even where 32 bits would do, as\n"
"                                     they must where 32 do not (same counts) [no]\n"
"    --inline-miss-paths=<n>          with --checker-descriptors=no, the first\n"
"                                     <n> bytes of group checkers get their miss\n"
"                                     paths' work inline: faster, but more code\n"
"                                     (same counts) [4194304]\n"
"    --log-chunks=<n>                 the access log's ring holds <n> chunks of\n"
"                                     16384 accesses (256 KiB each) for the\n"
"                                     simulator thread: more ride out longer\n"
"                                     pauses of that thread (same counts) [32]\n"
"    --log-alloc-limit=<n>            allocate at most <n> of those chunks, as\n"
"                                     if memory ran out: the rest share the\n"
"                                     first's memory (same counts) [256]\n"
"    --sim-split=yes|no|always        where the general path of the cache\n"
"                                     models takes the log (a next-line D1\n"
"                                     prefetcher, under nine), the client thread\n"
"                                     looks the L1s up before a hand-over and\n"
"                                     the simulator thread the levels below:\n"
"                                     where measured faster (yes), or for\n"
"                                     every chunk (same counts) [yes]\n"
"    --sim-vector=yes|no              the simulator of the access log looks\n"
"                                     up 8-, 12- and 16-way L1 sets with AVX2\n"
"                                     vector instructions where the host has\n"
"                                     them (same counts) [yes]\n"
"    --trace-out-file=<file>          write every simulated access, in the\n"
"                                     simulation's order, to <file> (%%p: pid),\n"
"                                     in Lackey's --trace-mem format with cost\n"
"                                     centres, for the tests' reference model\n"
"                                     (slow; same counts) [none]\n"
"    --vex-checks=no|yes              VEX sanity-checks each block's IR, and\n"
"                                     cleans it up after instrumentation, as\n"
"                                     for other tools (slower translation;\n"
"                                     same counts) [no]\n"
   );
}
