/* sample.c -- the program the README's first command profiles.

   Sums a square matrix twice: row by row (consecutive addresses, one
   D1 miss per 64-byte line) and column by column (a new line on almost
   every access).  The annotated output shows the difference on the
   two loops' source lines. */

#include <stdio.h>
#include <stdlib.h>

#define N 512

static double sum_by_rows(const double* m)
{
   double total = 0.0;
   for (int row = 0; row < N; row++)
      for (int col = 0; col < N; col++)
         total += m[row * N + col];
   return total;
}

static double sum_by_columns(const double* m)
{
   double total = 0.0;
   for (int col = 0; col < N; col++)
      for (int row = 0; row < N; row++)
         total += m[row * N + col];
   return total;
}

int main(void)
{
   double* m = malloc(sizeof(double) * N * N);
   if (m == NULL)
      return 1;
   for (int i = 0; i < N * N; i++)
      m[i] = (double)(i % 7);
   printf("rows: %.0f  columns: %.0f\n", sum_by_rows(m), sum_by_columns(m));
   free(m);
   return 0;
}
