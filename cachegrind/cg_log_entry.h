/* cg_log_entry.h -- one entry of the access log: how compiled code,
   the cold helpers and the group checkers encode an access, and what
   the simulator (cg_sim.c) decodes.

   Two words.  The first is the cost centre (16-byte aligned) with a
   code in its low bits, the second the address, on top of which an odd
   size or a fetch's length sits.  Codes: 0 fetch (length in the second
   word); 1-6 read of 1, 2, 4, 8, 16, 32 bytes, 7 read of the size in
   the second word; the same plus 8 for writes; 8 a guarded access
   whose guard held (size in the second word, and whether it writes;
   its helper counted it).  The first word's top 16 bits are not the
   cost centre's (user-space addresses have fewer than 48 bits): a
   shared checker's data entry carries its test's constants there
   (cg_checkers.c, DATA_TEST_SHIFT), which the simulator ignores. */

#ifndef CG_LOG_ENTRY_H
#define CG_LOG_ENTRY_H

#include "pub_tool_basics.h"

#define LOG_CODE_MASK      15
#if VG_WORDSIZE == 8
#define LOG_CC_MASK        ((((UWord)1 << 48) - 1) & ~(UWord)LOG_CODE_MASK)
#else
#define LOG_CC_MASK        (~(UWord)LOG_CODE_MASK)
#endif
#define LOG_CODE_FETCH     0
#define LOG_CODE_WRITE     8
#define LOG_CODE_GUARDED   8
#define LOG_CODE_OTHER_SIZE 7
#define LOG_SIZE_SHIFT     (sizeof(UWord) * 8 - 8)   /* 56 */
#define LOG_ADDR_MASK      (((UWord)1 << LOG_SIZE_SHIFT) - 1)
#define LOG_GUARDED_WRITE  ((UWord)1 << (LOG_SIZE_SHIFT - 1))

/* The code of a data access of `size` bytes. */
static inline UWord cg_log_entry_code(Int size, Bool is_write)
{
   UWord code;

   switch (size) {
   case 1:  code = 1; break;
   case 2:  code = 2; break;
   case 4:  code = 3; break;
   case 8:  code = 4; break;
   case 16: code = 5; break;
   case 32: code = 6; break;
   default: code = LOG_CODE_OTHER_SIZE; break;
   }
   return is_write ? code + LOG_CODE_WRITE : code;
}

#endif /* CG_LOG_ENTRY_H */
