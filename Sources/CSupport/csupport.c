#include "csupport.h"
int csupport_placeholder(void) { return 0; }
