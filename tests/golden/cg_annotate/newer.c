/* newer.c: edited after it was profiled (its mtime is newer than the
   data file's, set by the tests). */
int edited(int x)
{
    return x * 3;
}
