/* tiefile-b.c */
int b_one(void) { return 1; }
int b_two(void) { return 2; }
