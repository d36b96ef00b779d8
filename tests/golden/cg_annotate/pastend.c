/* pastend.c: shorter than the profile says. */
int count(int n)
{
    return n + 1;
}
