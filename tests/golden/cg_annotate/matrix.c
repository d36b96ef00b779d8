/* matrix.c -- golden-test program for cg_annotate.

   Multiplies two square matrices twice: in i-j-k order, which walks
   one operand by columns (a cache miss on almost every access), and in
   i-k-j order, which walks everything by rows. */

#include <stdio.h>

#define N 96

static double a[N][N], b[N][N], c[N][N];

static void init(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i][j] = (double)(i + j) / N;
            b[i][j] = (double)(i - j) / N;
        }
}

static void multiply_ijk(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double sum = 0.0;
            for (int k = 0; k < N; k++)
                sum += a[i][k] * b[k][j];
            c[i][j] = sum;
        }
}

static void multiply_ikj(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            c[i][j] = 0.0;
    for (int i = 0; i < N; i++)
        for (int k = 0; k < N; k++) {
            double r = a[i][k];
            for (int j = 0; j < N; j++)
                c[i][j] += r * b[k][j];
        }
}

static double trace(void)
{
    double t = 0.0;
    for (int i = 0; i < N; i++)
        t += c[i][i];
    return t;
}

int main(void)
{
    init();
    multiply_ijk();
    double t1 = trace();
    multiply_ikj();
    double t2 = trace();
    printf("traces %.3f %.3f\n", t1, t2);
    return 0;
}
