/* cyclic.c -- a known answer for LL's replacement policies
   (tests/refmodel.t): a buffer of 1.5 times LL's lines read cyclically,
   one byte a line.  With the test's caches (D1 of 16 lines, so that
   every read reaches LL; LL of 8 ways), each LL set sees 12 lines in
   turn: under LRU every read misses LL (a cyclic scan longer than the
   set), while BRRIP, which inserts most lines "distant", keeps most of
   one set's worth and misses far less. */
#include <stdlib.h>

#define LINE 64

int main(int argc, char** argv)
{
   size_t n_lines = argc > 1 ? (size_t)atol(argv[1]) : 384;
   int passes = argc > 2 ? atoi(argv[2]) : 50;
   volatile char* buf = aligned_alloc(4096, n_lines * LINE);
   unsigned sum = 0;
   size_t i;
   int p;

   if (buf == NULL)
      return 1;
   for (i = 0; i < n_lines; i++)
      buf[i * LINE] = (char)i;
   for (p = 0; p < passes; p++)
      for (i = 0; i < n_lines; i++)
         sum += (unsigned char)buf[i * LINE];   /* MARK: scan */
   return sum == 0x12345678u;
}
