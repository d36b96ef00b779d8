/* cg_summary.h -- the summary on stderr and the --stats=yes lines
   (cg_summary.c). */

#ifndef CG_SUMMARY_H
#define CG_SUMMARY_H

#include "cg_output.h"

void cg_summary_print(const CgOutputResult* res);
void cg_summary_print_stats(const CgOutputResult* res);

#endif /* CG_SUMMARY_H */
