/* tiefile-c.c */
int c_one(void) { return 1; }
int c_two(void) { return 2; }
