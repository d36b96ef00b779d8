/* pastend.h: a header, shorter than the profile says. */
static inline int twice(int x)
{
    return 2 * x;
}
