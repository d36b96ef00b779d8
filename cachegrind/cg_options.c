/* cg_options.c -- the tool's command-line options and --help text.

   Owns: cg_clo (the parsed options) and the validation of option
   values, with the error messages users see.
   Must not: decide the final cache configuration (cg_config.c does,
   once the host's caches are known). */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"
#include "cg_tool.h"

CgOptions cg_clo;

void cg_options_set_defaults(void)
{
   VG_(memset)(&cg_clo, 0, sizeof cg_clo);
   cg_clo.cache_sim       = True;
   cg_clo.branch_sim      = False;
   cg_clo.out_file_format = "cachegrind.out.%p";
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
   else if (VG_STR_CLO(arg, "--LL", value) || VG_STR_CLO(arg, "--L2", value)) {
      parse_cache_option(arg, value, &cg_clo.LL);
      cg_clo.LL_given = True;
   }
   else if VG_STR_CLO(arg, "--cachegrind-out-file", cg_clo.out_file_format) {}
   else if VG_BOOL_CLO(arg, "--cache-sim",  cg_clo.cache_sim)  {}
   else if VG_BOOL_CLO(arg, "--branch-sim", cg_clo.branch_sim) {}
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
"    --cache-sim=yes|no               collect cache stats? [yes]\n"
"    --branch-sim=yes|no              collect branch prediction stats? [no]\n"
"    --cachegrind-out-file=<file>     output file name [cachegrind.out.%%p]\n"
   );
}

void cg_options_print_debug_usage(void)
{
   VG_(printf)("    (none)\n");
}
