/* diffcalc.c: the source of the --diff test profiles. */
int compute(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += i * i;
    return s;
}

int helper(int x)
{
    return x + 1;
}
