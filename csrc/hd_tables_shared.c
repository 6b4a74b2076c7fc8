/* The table pointers of a module built with HD_TABLES_SHARED (see hd_eval.h): set once at
 * import from the module that links csrc/hd_tables.c (holdem._eval). */
#ifndef HD_TABLES_SHARED
#error "csrc/hd_tables_shared.c is built with HD_TABLES_SHARED defined (see setup.py)"
#endif
#include "hd_eval.h"

HD_HIDDEN hd_tables_t hd_tables_shared;

void hd_tables_share(const hd_tables_t *t) { hd_tables_shared = *t; }
