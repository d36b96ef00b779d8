/* inc/inc_only.c: found only through -I inc. */
int from_include_dir(int v)
{
    if (v > 10)
        return v - 10;
    return v;
}
