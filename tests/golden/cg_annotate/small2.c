int f(int x)
{
    return x * 1200;
}
int g(void) { return 7; }
