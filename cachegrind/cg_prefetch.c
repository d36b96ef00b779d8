/* cg_prefetch.c -- which lines a level's prefetcher fetches ahead
   (cg_prefetch.h states the rules).

   Owns: each prefetcher's state (the stream table).
   Must not: touch a cache level; cg_hierarchy.c does the fetching. */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "cg_prefetch.h"
#include "cg_tool.h"

#define STREAM_PAGE_BITS 12
#define STREAM_DISTANCE  5    /* lines ahead */

/* In CgPrefetchKind's order */
static const HChar* const kind_names[] = {
   "none", "next-line", "stream", "stride"
};

Bool cg_prefetch_from_name(const HChar* name, CgPrefetchKind* kind)
{
   Int i = cg_name_index(kind_names,
                         sizeof kind_names / sizeof kind_names[0], name);

   if (i < 0)
      return False;
   *kind = (CgPrefetchKind)i;
   return True;
}

void cg_prefetch_init(CgPrefetcher* pf, CgPrefetchKind kind, Int line_bits)
{
   VG_(memset)(pf, 0, sizeof *pf);
   pf->kind = kind;
   pf->line_bits = line_bits;
}

/* One stream's step; True (and the block in *out) if it fetches */
static Bool stream_step(CgPrefetcher* pf, Addr addr, UWord* out)
{
   UInt s = (UInt)((addr >> STREAM_PAGE_BITS) % CG_PREFETCH_STREAMS);
   UWord line = addr >> pf->line_bits;
   UWord last = pf->last_line[s];
   Long* run = &pf->run[s];
   Bool fetch = False;

   if (line == last)
      return False;
   if (*run == 0) {
      if (line == last + 1)
         *run = 1;
      else if (line == last - 1)
         *run = -1;
   } else if (*run > 0) {
      if (line == last + 1) {
         (*run)++;
         fetch = *run >= 2;
         *out = line + STREAM_DISTANCE;
      } else {
         *run = 0;
      }
   } else {
      if (line == last - 1) {
         (*run)--;
         /* (none below line 0) */
         fetch = *run <= -2 && line >= STREAM_DISTANCE;
         *out = line - STREAM_DISTANCE;
      } else {
         *run = 0;
      }
   }
   pf->last_line[s] = line;
   return fetch;
}

#define STRIDE_CONFIDENT 2

/* The stride table's step; True (and the block in *out) if it fetches */
static Bool stride_step(CgPrefetcher* pf, Addr addr, Addr pc, UWord* out)
{
   CgStrideEntry* e = &pf->stride[pc % CG_PREFETCH_STRIDE_ENTRIES];
   Long distance = (Long)(Word)(addr - e->last_addr);   /* signed on x86 too */

   if (e->pc != pc) {
      e->pc = pc;
      e->last_addr = addr;
      e->stride = 0;
      e->confidence = 0;
      return False;
   }
   if (distance != 0 && distance == e->stride) {
      if (e->confidence < STRIDE_CONFIDENT)
         e->confidence++;
   } else {
      e->stride = distance;
      e->confidence = 0;
   }
   e->last_addr = addr;
   /* (none below address 0) */
   if (e->confidence < STRIDE_CONFIDENT
       || (e->stride < 0 && addr < (Addr)-e->stride))
      return False;
   *out = (addr + (Addr)e->stride) >> pf->line_bits;
   return True;
}

Bool cg_prefetch_needs_pc(CgPrefetchKind kind)
{
   return kind == CG_PREFETCH_STRIDE;
}

Int cg_prefetch_lines(CgPrefetcher* pf, Addr addr, Addr pc,
                      const UWord* triggers, Int n_triggers, UWord out[2])
{
   Int i;

   switch (pf->kind) {
   case CG_PREFETCH_NEXT_LINE:
      for (i = 0; i < n_triggers; i++)
         out[i] = triggers[i] + 1;
      return n_triggers;
   case CG_PREFETCH_STREAM:
      return stream_step(pf, addr, &out[0]) ? 1 : 0;
   case CG_PREFETCH_STRIDE:
      return stride_step(pf, addr, pc, &out[0]) ? 1 : 0;
   default:
      return 0;
   }
}
