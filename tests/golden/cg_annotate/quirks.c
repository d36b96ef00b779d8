/* quirks.c: the source for quirks.cgout. */
int first(int x)
{
    return x + 1;
}

int second(int x)
{
    return x * 2;
}
