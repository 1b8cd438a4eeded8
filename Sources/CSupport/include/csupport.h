// CSupport: small Linux helpers. (Filled in as needed.)
#ifndef CSUPPORT_H
#define CSUPPORT_H
int csupport_placeholder(void);
#endif
