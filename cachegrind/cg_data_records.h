/* cg_data_records.h -- the data profile's records as its file's writer
   reads them: objects, and the (object, line) and (object, field)
   records that hold the counts (made and counted in cg_data.c, written
   by cg_data_file.c). */

#ifndef CG_DATA_RECORDS_H
#define CG_DATA_RECORDS_H

#include "pub_tool_basics.h"
#include "cg_costs.h"
#include "cg_options.h"     /* CG_DATA_MAX_CALLERS */

typedef enum {
   DATA_HEAP,     /* a block of malloc, new, realloc, ... */
   DATA_MMAP,     /* anonymous memory mapped by the program itself */
   DATA_GLOBAL,   /* an ELF data symbol (.data, .bss, .rodata) */
   DATA_STACK,    /* a thread's stack */
   DATA_OTHER,    /* anything else */
   DATA_N_KINDS
} DataKind;

/* Counts of an object, a line or a field: Dr D1mr DLmr Dw D1mw DLmw. */
#define N_DATA_COUNTS 6
#define READ_BASE  0
#define WRITE_BASE 3

typedef struct {
   const HChar* file;
   const HChar* fn;
   Int          line;
} SiteFrame;

typedef struct _DataObject {
   struct _DataObject* next_in_bucket;   /* first: Table's link */
   /* What the per-access path reads, in the first cache line */
   Bool         has_fields;
   UWord        stride;     /* 0: not known yet (offsets kept plain) */
   UWord        stride_mask; /* stride - 1 if a power of two, else 0 */
   ULong        stride_magic; /* else ceil(2^44 / stride), or 0 (below) */
   DataKind     kind;
   UInt         id;
   struct _DataObject* next_created;
   UWord        hash;
   const HChar* name;       /* global: the symbol; stack: "thread N" */
   Addr         start;      /* global: the symbol's address */
   const HChar* objfile;    /* global: the object file holding it */
   struct _DataBlock* global_block;
   ULong        blocks;
   ULong        bytes;
   /* Element size detection */
   UWord        first_block_size;
   UWord        delta_gcd;   /* of the distances seen, 0: none */
   UWord        widest_access;
   UInt         accesses_seen;
   struct _FieldRec* fields;   /* this object's, newest first */
   Addr         frames[CG_DATA_MAX_CALLERS];  /* heap, mmap */
   UInt         n_frames;
   SiteFrame*   site;       /* the frames described, at creation */
} DataObject;

/* Records are hashed by their object's id, not its address: the
   client's allocations (and so objects' addresses) depend on when the
   simulator thread lets it reuse blocks, and the output's order, from
   the tables, must not. */
typedef struct _LineRec {
   struct _LineRec* next_in_bucket;
   UWord        hash;
   DataObject*  obj;
   CostCentre*  cc;
   ULong        count[N_DATA_COUNTS];
} LineRec;

typedef struct _FieldRec {
   struct _FieldRec* next_in_bucket;
   UWord        hash;
   struct _FieldRec* next_of_object;
   DataObject*  obj;        /* NULL once folded into another record */
   UWord        offset;
   ULong        count[N_DATA_COUNTS];
} FieldRec;

#endif /* CG_DATA_RECORDS_H */
