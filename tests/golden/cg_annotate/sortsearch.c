/* sortsearch.c -- golden-test program for cg_annotate.

   Fills an array with pseudo-random numbers, sorts it by insertion
   and looks keys up by binary search.  Deterministic: the same counts
   on every run.  An optional argument sets the array size. */

#include <stdio.h>
#include <stdlib.h>

#define MAX_N 4000

static int data[MAX_N];
static unsigned seed = 12345;

static unsigned next_random(void)
{
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) & 0x7fff;
}

static void fill(int *a, int n)
{
    for (int i = 0; i < n; i++)
        a[i] = (int)next_random();
}

static void insertion_sort(int *a, int n)
{
    for (int i = 1; i < n; i++) {
        int key = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > key) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = key;
    }
}

static int binary_search(const int *a, int n, int key)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (a[mid] == key)
            return mid;
        if (a[mid] < key)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2000;
    if (n < 1 || n > MAX_N)
        n = 2000;
    fill(data, n);
    insertion_sort(data, n);
    int found = 0;
    for (int k = 0; k < 20000; k++)
        if (binary_search(data, n, (int)next_random()) >= 0)
            found++;
    printf("%d of 20000 keys found\n", found);
    return 0;
}
