/* cg_instrument.h -- the IR pass: which events, in what order, when
   flushed (cg_instrument.c). */

#ifndef CG_INSTRUMENT_H
#define CG_INSTRUMENT_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

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

#endif /* CG_INSTRUMENT_H */
