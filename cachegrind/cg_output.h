/* cg_output.h -- the cachegrind.out file (cg_output.c), and what
   writing it found, which the summary prints. */

#ifndef CG_OUTPUT_H
#define CG_OUTPUT_H

#include "pub_tool_basics.h"
#include "cg_config.h"
#include "cg_tool.h"
#include "cg_costs.h"

typedef struct {
   Bool  written;          /* False: the file could not be opened */
   ULong total[CG_N_EVENTS];
   UInt  n_files, n_fns, n_lines;
} CgOutputResult;

/* Whether the files carry this event (it depends on the options). */
Bool cg_output_event_selected(CgEvent ev);
/* At start-up: tells the writer (cg_file.c) the file's name template. */
void cg_output_expect_file(void);
/* `L2`: NULL without a middle level (--L2). */
void cg_output_write(const CacheGeometry* I1, const CacheGeometry* D1,
                     const CacheGeometry* L2, const CacheGeometry* LL,
                     CgOutputResult* res);
/* Another file of the same form, named the main file's name and
   `suffix`, with the counts `counts_of` gives (a cost centre's share
   of a thread, --separate-threads); its lines with no count left out */
typedef const ULong* (*CgCountsOf)(const CostCentre* cc, void* arg);
void cg_output_write_part(const CacheGeometry* I1, const CacheGeometry* D1,
                          const CacheGeometry* L2, const CacheGeometry* LL,
                          const HChar* suffix, CgCountsOf counts_of,
                          void* arg, CgOutputResult* res);

#endif /* CG_OUTPUT_H */
