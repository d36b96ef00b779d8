/* nodata.c: named on the command line, but not in the profile. */
int unused(void)
{
    return 0;
}
