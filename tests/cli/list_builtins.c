/*
 * list_builtins.c -- prints every wp.* builtin the checker knows, one per
 * line, so tests/cli/docs_test.sh can compare the list with the builtin
 * table of docs/language.md.  The list is the compiler's own X-macro table
 * (base.h), the same one builtin_lookup() searches.
 */
#include <stdio.h>
#include "base.h"

int main(void) {
  for (int i = 0; i < BI_COUNT; i++)
    printf("%s\n", builtin_names[i]);
  return 0;
}
