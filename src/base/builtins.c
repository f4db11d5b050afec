/*
 * builtins.c -- names of the wp.* functions kern knows.
 *
 * The table is the X-macro list in lang.h, so ids and names cannot
 * disagree.  Typing rules live in check.c, spelling in each emitter.
 */
#include <string.h>
#include "base.h"

const char *const builtin_names[BI_COUNT] = {
#define X(id, name) name,
    BUILTIN_LIST(X)
#undef X
};

int builtin_lookup(const char *name) {
  /* The first character is compared inline: this runs for every call in
   * every kernel, over some hundreds of names. */
  for (int i = 0; i < BI_COUNT; i++)
    if (builtin_names[i][0] == name[0] && !strcmp(builtin_names[i], name))
      return i;
  return -1;
}
