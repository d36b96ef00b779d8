/* cg_vgcompat.h -- where the tool interface of the Valgrind releases
   the tool builds against (3.19 to 3.24) differs, in one place.

   configure finds out which form the installed headers have (a compile
   test each, not a version number, so a release in between is handled
   by what it has) and defines in cg_vgconfig.h, which every object
   includes first (Makefile.am):
     CG_SHADOW_ALLOC_SYSRES  VG_(am_shadow_alloc) returns SysRes (3.22
                             and later) rather than a pointer or NULL;
     CG_OOM_TAKES_ERROR      VG_(out_of_memory_NORETURN) takes the
                             failed call's error as a third argument;
     CG_VG_MAJOR, CG_VG_MINOR the release's number, for behaviour that
                             follows the Cachegrind of that release. */

#ifndef CG_VGCOMPAT_H
#define CG_VGCOMPAT_H

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_mallocfree.h"

/* True when built against Valgrind major.minor or later. */
#define CG_VG_AT_LEAST(major, minor) \
   (CG_VG_MAJOR > (major) || (CG_VG_MAJOR == (major) && CG_VG_MINOR >= (minor)))

/* Behaviour that follows the Cachegrind of the release built against.
   From 3.21 on, Cachegrind simulates no caches unless asked
   (--cache-sim=yes), then prints no cache configuration and writes no
   desc: lines, and labels the summary's first lines "I refs:" and
   "D refs:". */
#define CG_CACHE_SIM_OFF_BY_DEFAULT  CG_VG_AT_LEAST(3, 21)
#define CG_CACHE_CONFIG_ONLY_IF_SIM  CG_VG_AT_LEAST(3, 21)
#define CG_SUMMARY_LABEL_I_REFS \
   (CG_VG_AT_LEAST(3, 21) ? "I refs:       " : "I   refs:     ")
#define CG_SUMMARY_LABEL_D_REFS \
   (CG_VG_AT_LEAST(3, 21) ? "D refs:       " : "D   refs:     ")

/* The message when cachegrind.out cannot be opened (a %s: its name). */
#define CG_CANNOT_OPEN_OUTPUT_FMT                                        \
   (CG_VG_AT_LEAST(3, 21)                                                \
    ? "error: can't open output data file '%s'\n"                       \
      "       ... so detailed results will be missing.\n"               \
    : "error: can't open cache simulation output file '%s'\n"           \
      "       ... so simulation results will be missing.\n")

/* Fresh zeroed memory from the address space manager, outside the
   client's range; NULL if there is none. */
static inline void* cg_shadow_alloc(SizeT bytes)
{
#if CG_SHADOW_ALLOC_SYSRES
   SysRes res = VG_(am_shadow_alloc)(bytes);
   return sr_isError(res) ? NULL : (void*)sr_Res(res);
#else
   return VG_(am_shadow_alloc)(bytes);
#endif
}

/* Ends the run with the core's out-of-memory message. */
__attribute__((noreturn))
static inline void cg_out_of_memory(const HChar* who, SizeT bytes)
{
#if CG_OOM_TAKES_ERROR
   VG_(out_of_memory_NORETURN)(who, bytes, 0);
#else
   VG_(out_of_memory_NORETURN)(who, bytes);
#endif
}

/* The core's raw system call, which the tool headers do not declare
   (cg_file.c needs link(2)); the same in every release from 3.19. */
extern SysRes VG_(do_syscall)(UWord sysno, RegWord a1, RegWord a2,
                              RegWord a3, RegWord a4, RegWord a5,
                              RegWord a6, RegWord a7, RegWord a8);

#endif /* CG_VGCOMPAT_H */
