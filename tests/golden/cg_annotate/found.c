/* found.c: the only source of missing.cgout that exists. */
int present(void)
{
    return 42;
}
