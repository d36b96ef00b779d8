/* nonl.c: no newline at the end */
int a;
int b;
int c; /* last line, no newline */