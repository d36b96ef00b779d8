/* negline.c: a negative line number blocks the matching of every
   later line, so all of them end up past the end. */
int f(void)
{
    return 1;
}
