/*
 * similar_test.c -- Note [near duplicates] (src/synth/similar.c): what the
 * normalisation strips and what the MinHash similarity sees.  Renaming
 * variables and changing constants must give the same structural hash and
 * signature; a kernel with one statement changed out of many must stay a
 * near duplicate (estimated Jaccard >= SYNTH_NEAR_JACCARD) but not a
 * structural one; unrelated generated kernels must be neither; and the
 * counting over a file (synth_near_duplicates) must find exactly the
 * planted near duplicates.
 */
#include <stdlib.h>
#include <string.h>
#include "kern_test.h"
#include "synth.h"

typedef struct {
  char nh[33], mh[SYNTH_MH_BINS * 4 + 1];
  uint16_t bins[SYNTH_MH_BINS];
} Sig;

static void sig(const char *src, Sig *s) {
  synth_normalize(src, s->nh, s->mh);
  for (int b = 0; b < SYNTH_MH_BINS; b++) {
    char hx[5] = {s->mh[4 * b], s->mh[4 * b + 1], s->mh[4 * b + 2], s->mh[4 * b + 3], 0};
    s->bins[b] = (uint16_t)strtoul(hx, NULL, 16);
  }
}

static double similarity(const Sig *a, const Sig *b) {
  int same = 0;
  for (int k = 0; k < SYNTH_MH_BINS; k++) same += a->bins[k] == b->bins[k];
  return (double)same / SYNTH_MH_BINS;
}

static const char *base =
    "import warp as wp\n\n\n@wp.kernel\n"
    "def @@(x0: wp.array(dtype=wp.float32), out0: wp.array(dtype=wp.float32)):\n"
    "    i = wp.tid()\n"
    "    v0 = wp.sin(x0[i]) * 2.5\n"
    "    v1 = (v0 + x0[wp.clamp(i + 3, 0, 99)]) * 0.25\n"
    "    v2 = wp.max(v1, v0 - 1.0)\n"
    "    v3 = wp.sqrt(wp.abs(v2)) + wp.cos(v1)\n"
    "    v4 = float(0.0)\n"
    "    for t0 in range(3):\n"
    "        v4 += v3 * float(t0)\n"
    "        v4 = wp.min(v4, 8.0)\n"
    "    v5 = wp.where(v4 > 1.0, v4, v3)\n"
    "    v6 = (v5 * v5) - (v2 / (wp.abs(v1) + 0.5))\n"
    "    v7 = wp.exp(wp.clamp(v6, -8.0, 8.0))\n"
    "    out0[i] = v7 + v5 * 3.0\n";

/* The same kernel with other names and other constants. */
static const char *renamed =
    "import warp as wp\n\n\n@wp.kernel\n"
    "def kabc(a: wp.array(dtype=wp.float32), b: wp.array(dtype=wp.float32)):\n"
    "    tid = wp.tid()\n"
    "    q = wp.sin(a[tid]) * 7.125\n"
    "    r = (q + a[wp.clamp(tid + 1, 0, 31)]) * 0.5\n"
    "    s = wp.max(r, q - 4.0)\n"
    "    u = wp.sqrt(wp.abs(s)) + wp.cos(r)\n"
    "    w = float(1.0)\n"
    "    for k in range(5):\n"
    "        w += u * float(k)\n"
    "        w = wp.min(w, 2.0)\n"
    "    y = wp.where(w > 3.0, w, u)\n"
    "    z = (y * y) - (s / (wp.abs(r) + 1.5))\n"
    "    e = wp.exp(wp.clamp(z, -2.0, 2.0))\n"
    "    b[tid] = e + y * 1.0\n";

int main(void) {
  Sig a, b, c, d;
  sig(base, &a);
  sig(renamed, &b);
  /* Names and numbers are stripped: a structural duplicate. */
  EXPECT_STREQ(a.nh, b.nh);
  EXPECT_STREQ(a.mh, b.mh);
  EXPECT_DBL_EQ(similarity(&a, &b), 1.0);

  /* One operator changed in one of fourteen lines: not structurally equal,
   * still a near duplicate. */
  char *one = strdup(base);
  char *at = strstr(one, "wp.max(v1");
  ASSERT(at != NULL);
  memcpy(at, "wp.min", 6);
  sig(one, &c);
  EXPECT_TRUE(strcmp(a.nh, c.nh) != 0);
  double s1 = similarity(&a, &c);
  printf("one operator changed: similarity %.3f\n", s1);
  EXPECT_TRUE(s1 >= SYNTH_NEAR_JACCARD);
  EXPECT_TRUE(s1 < 1.0);

  /* Operators and builtins are not stripped: a different body is far. */
  const char *other =
      "import warp as wp\n\n\n@wp.kernel\n"
      "def @@(x0: wp.array(dtype=wp.int32), out0: wp.array(dtype=wp.int32)):\n"
      "    i = wp.tid()\n"
      "    v0 = (x0[i] & 1023) << (i & 7)\n"
      "    if v0 > 4:\n"
      "        v0 = v0 // 3\n"
      "    wp.atomic_add(out0, 0, v0 % 17)\n";
  sig(other, &d);
  EXPECT_TRUE(similarity(&a, &d) < 0.3);

  /* Counting over a "file": 40 generated kernels of different categories,
   * then base, renamed (a duplicate of base) and one (near base). */
  enum { N = 43 };
  uint16_t *mh = calloc((size_t)N * SYNTH_MH_BINS, sizeof *mh);
  ASSERT(mh != NULL);
  for (int i = 0; i < 40; i++) {
    synth_kernel k;
    ASSERT_EQ(synth_generate(99, (uint64_t)i, i % SC_COUNT, 3, &k), 0);
    Sig g;
    sig(k.source, &g);
    memcpy(mh + (size_t)i * SYNTH_MH_BINS, g.bins, sizeof g.bins);
    synth_kernel_free(&k);
  }
  memcpy(mh + (size_t)40 * SYNTH_MH_BINS, a.bins, sizeof a.bins);
  memcpy(mh + (size_t)41 * SYNTH_MH_BINS, b.bins, sizeof b.bins);
  memcpy(mh + (size_t)42 * SYNTH_MH_BINS, c.bins, sizeof c.bins);
  EXPECT_EQ(synth_near_duplicates(mh, N), 2);
  EXPECT_EQ(synth_near_duplicates(mh, 41), 0);
  double sim[N];
  synth_similarity_sample(mh, N, sim);
  EXPECT_DBL_EQ(sim[N - 1], 1.0); /* renamed vs base */
  EXPECT_TRUE(sim[0] == 0.0);      /* the first kernel has no earlier one */
  free(mh);
  free(one);
  return kern_test_report("synth_similar");
}
