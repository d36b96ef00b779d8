/* tiefile-a.c */
int a_one(void) { return 1; }
int a_two(void) { return 2; }
