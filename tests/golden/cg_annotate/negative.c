/* negative.c: a diff of two runs can hold negative counts. */
int slower(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += i;
    return s;
}

int faster(int n)
{
    return n * (n - 1) / 2;
}
