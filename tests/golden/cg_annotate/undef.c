/* undef.c: counts given as '.', or left out, stay undefined. */
static int table[16];

int lookup(int i)
{
    return table[i & 15];
}

void store(int i, int v)
{
    table[i & 15] = v;
}

int main(void)
{
    store(3, 4);
    return lookup(3);
}
