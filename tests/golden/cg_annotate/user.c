/* user.c: named on the command line. */
int user_work(int n)
{
    int t = 0;
    while (n--)
        t += n & 3;
    return t;
}
