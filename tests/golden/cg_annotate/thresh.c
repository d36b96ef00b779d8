/* thresh.c: one line per function of thresh.cgout. */
void f2(void) { }
void f3(void) { }
void f4(void) { }
void f5(void) { }
void f6(void) { }
void f7(void) { }
void f8(void) { }
void f9(void) { }
void f10(void) { }
void f11(void) { }
void f12(void) { }
void f13(void) { }
void f14(void) { }
void f15(void) { }
