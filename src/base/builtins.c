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

bool builtin_draws(int bi) {
  switch (bi) {
  case BI_RANDF: case BI_RANDI: case BI_RANDN: case BI_RANDU: case BI_POISSON:
  case BI_SAMPLE_CDF: case BI_SAMPLE_TRIANGLE: case BI_SAMPLE_UNIT_RING:
  case BI_SAMPLE_UNIT_DISK: case BI_SAMPLE_UNIT_SPHERE_SURFACE:
  case BI_SAMPLE_UNIT_SPHERE: case BI_SAMPLE_UNIT_HEMISPHERE_SURFACE:
  case BI_SAMPLE_UNIT_HEMISPHERE: case BI_SAMPLE_UNIT_SQUARE:
  case BI_SAMPLE_UNIT_CUBE:
    return true;
  }
  return false;
}
