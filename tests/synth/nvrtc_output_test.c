/*
 * nvrtc_output_test.c -- `kern synth --validate compile` catches broken
 * CUDA whatever NVRTC is asked to produce (Note [validation output] in
 * src/synth/driver.c).  LTO IR validation (--nvrtc-output ltoir) stops
 * after NVRTC's front end, so it must still reject what the front end
 * rejects, and reject it exactly as the full cubin compile does.
 *
 * Six generated pairs, compiled by kern to the compact CUDA form, go
 * through the validation path of a run (synth_validate_cuda: one NVRTC
 * program for the batch, then pair by pair to find the culprits); two of
 * them have a broken function appended (an undefined identifier, a
 * pointer type error).  For cubin, ptx and ltoir alike exactly those two
 * must fail, with the same NVRTC message, and the other four pass; only
 * the cubin build has ptxas' register counts.  Last, what ltoir does not
 * check: inline PTX that ptxas rejects fails the cubin build; its ltoir
 * verdict is printed (docs/synth.md says why it passes).
 *
 * Skips (77) without NVRTC, unless SYNTH_REQUIRE_NVRTC=1 (.ci/run, which
 * installs it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kern.h"
#include "kern_test.h"
#include "synth.h"

#define NPAIRS 6
#define ERRCAP 512

/* Appended to pairs 1 and 3: each is an error of C++ semantics that only
 * the front end needs to see. */
static const char *const broken[NPAIRS] = {
    NULL,
    "\n__device__ float synth_broken_1(float x) { return x + synth_undefined_q; }\n",
    NULL,
    "\n__device__ void synth_broken_3(float *p) { int *q = p; *q = 1; }\n",
    NULL,
    NULL,
};

static char *cat(const char *a, const char *b) {
  size_t na = strlen(a), nb = strlen(b);
  char *s = malloc(na + nb + 1);
  if (!s) abort();
  memcpy(s, a, na);
  memcpy(s + na, b, nb + 1);
  return s;
}

int main(void) {
  kern_context *ctx = NULL;
  ASSERT_OK(ctx, kern_context_new(NULL, &ctx));
  char *cuda[NPAIRS];
  char names[NPAIRS][48];
  const char *name_p[NPAIRS];
  for (int i = 0; i < NPAIRS; i++) {
    synth_kernel k;
    char id[33], file[64];
    char *warp = synth_pair_warp(7, i, (1u << SC_COUNT) - 1, 3, &k, id);
    ASSERT(warp != NULL);
    snprintf(names[i], sizeof names[i], "%s", k.name);
    name_p[i] = names[i];
    snprintf(file, sizeof file, "%s.py", k.name);
    char *cu = NULL;
    ASSERT_OK(ctx, kern_compile_source(ctx, file, warp, strlen(warp), "cuda-compact", &cu));
    cuda[i] = cat(cu, broken[i] ? broken[i] : "");
    kern_free(cu);
    free(warp);
    synth_kernel_free(&k);
  }

  static const char *const outputs[] = {"cubin", "ptx", "ltoir"};
  int ok[3][NPAIRS], regs[3][NPAIRS];
  static char err[3][NPAIRS][ERRCAP];
  for (int t = 0; t < 3; t++) {
    int rc = synth_validate_cuda((const char *const *)cuda, name_p, NPAIRS, "sm_90", outputs[t],
                                 ok[t], regs[t], &err[t][0][0], ERRCAP);
    if (rc != 0) {
      const char *req = getenv("SYNTH_REQUIRE_NVRTC");
      printf("no NVRTC for %s: %s\n", outputs[t], err[t][0]);
      ASSERT(!(req && !strcmp(req, "1")));
      printf("skip\n");
      return 77;
    }
    for (int i = 0; i < NPAIRS; i++) {
      EXPECT_EQ(ok[t][i], broken[i] ? 0 : 1);
      if (ok[t][i] != (broken[i] ? 0 : 1)) printf("  %s, pair %d: %s\n", outputs[t], i, err[t][i]);
    }
    EXPECT_CONTAINS(err[t][1], "synth_undefined_q");
    EXPECT_CONTAINS(err[t][3], "int *");
    /* ptxas reports registers for a cubin only; nothing else runs it. */
    for (int i = 0; i < NPAIRS; i++)
      if (!broken[i]) EXPECT_TRUE(t == 0 ? regs[t][i] > 0 : regs[t][i] == -1);
  }
  /* The same front end rejects the same text with the same message. */
  for (int t = 1; t < 3; t++) {
    EXPECT_STREQ(err[t][1], err[0][1]);
    EXPECT_STREQ(err[t][3], err[0][3]);
  }

  /* What only ptxas checks: an unknown instruction in inline PTX. */
  char *asm_cu = cat(cuda[0], "\nextern \"C\" __global__ void kern_k_asm_probe(void) "
                              "{ asm volatile(\"bogus.instr;\"); }\n");
  const char *one[1] = {asm_cu};
  int aok[3];
  char aerr[3][ERRCAP];
  for (int t = 0; t < 3; t++)
    ASSERT_EQ(synth_validate_cuda(one, name_p, 1, "sm_90", outputs[t], &aok[t], NULL, aerr[t],
                                  ERRCAP), 0);
  EXPECT_EQ(aok[0], 0);
  EXPECT_CONTAINS(aerr[0], "bogus");
  printf("inline PTX error: cubin %s, ptx %s, ltoir %s (ptxas runs for cubin only)\n",
         aok[0] ? "passes" : "fails", aok[1] ? "passes" : "fails", aok[2] ? "passes" : "fails");
  free(asm_cu);

  for (int i = 0; i < NPAIRS; i++) free(cuda[i]);
  kern_context_free(ctx);
  return kern_test_report("synth_nvrtc_output");
}
