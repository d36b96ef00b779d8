/* writes.c -- a known answer for write-backs (tests/refmodel.t): a
   buffer of n lines written cyclically, one byte a line, `passes` times.
   With more lines than LL holds, every write misses LL; once the loop
   has filled LL, each one evicts the line written LL-lines writes
   earlier, which every level above has written back dirty by then: a
   pass adds n DLdmw. */
#include <stdlib.h>

#define LINE 64

int main(int argc, char** argv)
{
   size_t n_lines = argc > 1 ? (size_t)atol(argv[1]) : 512;
   int passes = argc > 2 ? atoi(argv[2]) : 20;
   volatile char* buf = aligned_alloc(4096, n_lines * LINE);
   size_t i;
   int p;

   if (buf == NULL)
      return 1;
   for (p = 0; p < passes; p++)
      for (i = 0; i < n_lines; i++)
         buf[i * LINE] = (char)p;   /* MARK: write */
   return 0;
}
