/* sub/dir/deep.c: found through -Isub/dir/. */
int deep(int v)
{
    return v << 2;
}
