/* Cache-hostile walk: fill a large 2-D array row by row, then sum it
 * column by column so consecutive accesses are a full row apart. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

#define ROWS 384
#define COLS 512

static int32_t grid[ROWS][COLS];

static void fill(void)
{
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
            grid[r][c] = (r * 31 + c * 7) & 0xff;
}

static int64_t sum_by_columns(void)
{
    int64_t total = 0;
    for (int c = 0; c < COLS; c++)
        for (int r = 0; r < ROWS; r++)
            total += grid[r][c] * (int64_t)(c + 1);
    return total;
}

static int64_t diagonal_stride(void)
{
    /* A second hostile pattern: large stride that wraps around. */
    int64_t total = 0;
    int r = 0, c = 0;
    for (int i = 0; i < ROWS * 64; i++) {
        total += grid[r][c];
        r = (r + 17) % ROWS;
        c = (c + 129) % COLS;
    }
    return total;
}

/* An optional argument repeats the walks (the benchmark sizes it). */
int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 1;
    int64_t a = 0, b = 0;
    for (int rep = 0; rep < reps; rep++) {
        fill();
        a += sum_by_columns();
        b += diagonal_stride();
    }
    printf("matrix_walk: colsum=%lld stride=%lld\n", (long long)a, (long long)b);
    return 0;
}
