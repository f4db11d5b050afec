/*
 * test_parse.c -- parse_file on whole Warp programs: host code (classes,
 * `if __name__`, decorators, multi-line strings, brackets over lines) is
 * skipped and exactly the kernels, functions and constants are kept.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "lang.h"
#include "kern_test.h"

static Compiler *parse(const char *src, char **err) {
  Compiler *C = kern__calloc(1, sizeof *C);
  C->path = "p.py";
  C->src = src;
  C->len = strlen(src);
  *err = NULL;
  if (setjmp(C->jmp) == 0) {
    parse_file(C);
  } else {
    *err = C->error;
    C->error = NULL;
  }
  return C;
}

static void done(Compiler *C, char *err) {
  compiler_free_memory(C);
  kern__free(C->error);
  kern__free(C);
  kern__free(err);
}

static const char program[] =
    "\"\"\"A complete Warp program.\n"
    "\n"
    "@wp.kernel\n"
    "def in_docstring(a: wp.array(dtype=float)):\n"
    "    pass\n"
    "\"\"\"\n"
    "import os, sys\n"
    "import numpy as np\n"
    "import warp as wp\n"
    "from functools import partial\n"
    "\n"
    "N = wp.constant(16)\n"
    "SCALE = wp.constant(2.5)\n"
    "NOT_CONST = 3\n"
    "TABLE = {\n"
    "    'a': [1, 2,\n"
    "          3],\n"
    "    'b': (4,\n"
    "5),\n"
    "}\n"
    "SRC = '''\n"
    "@wp.func\n"
    "def in_string(x: float) -> float:\n"
    "    return x\n"
    "'''\n"
    "\n"
    "\n"
    "class Host:\n"
    "    \"\"\"doc\"\"\"\n"
    "    @staticmethod\n"
    "    def helper(x, y=2, *args, **kw):\n"
    "        return [i for i in range(x)]\n"
    "\n"
    "    @property\n"
    "    def size(self):\n"
    "        try:\n"
    "            return len(self)\n"
    "        except Exception:\n"
    "            return {\n"
    "                1: 2}\n"
    "\n"
    "\n"
    "@functools.lru_cache(maxsize=None)\n"
    "def cached(n):\n"
    "    return lambda: n\n"
    "\n"
    "\n"
    "@wp.func\n"
    "def square(x: float) -> float:\n"
    "    return x * x\n"
    "\n"
    "\n"
    "@wp.func\n"
    "def pair(a: wp.vec3, b: int):\n"
    "    return a, b\n"
    "\n"
    "\n"
    "@wp.kernel(enable_backward=False)\n"
    "def scale(a: wp.array(dtype=float),\n"
    "          b: wp.array(dtype=float),\n"
    "          s: float):\n"
    "    i = wp.tid()\n"
    "    b[i] = square(a[i]) * s  # comment (\n"
    "\n"
    "\n"
    "@wp.kernel\n"
    "def empty():\n"
    "    pass\n"
    "\n"
    "\n"
    "def host_function(x):\n"
    "    @wp.kernel\n"
    "    def nested_kernel(a: wp.array(dtype=float)):\n"
    "        pass\n"
    "    return x\n"
    "\n"
    "\n"
    "if __name__ == \"__main__\":\n"
    "    wp.init()\n"
    "    a = wp.array(np.ones(N), dtype=float)\n"
    "    wp.launch(scale, dim=N,\n"
    "              inputs=[a, a,\n"
    "                      SCALE])\n"
    "    print(f\"done {a}\")\n"
    "    async def later():\n"
    "        await x\n"
    "    with open('x') as f:\n"
    "        pass\n";

static void test_program(void) {
  char *err;
  Compiler *C = parse(program, &err);
  EXPECT_TRUE(err == NULL);
  if (err)
    fprintf(stderr, "%s\n", err);
  EXPECT_TRUE(C->mod != NULL);
  if (!err && C->mod) {
    Module *m = C->mod;
    EXPECT_STREQ(m->wp, "wp");
    const char *names[8];
    int nparams[8], kernel[8], n = 0;
    for (Func *f = m->funcs; f; f = f->next) {
      if (n < 8) {
        names[n] = f->name;
        nparams[n] = f->nparams;
        kernel[n] = f->is_kernel;
      }
      n++;
    }
    EXPECT_EQ(n, 4);
    if (n == 4) {
      EXPECT_STREQ(names[0], "square");
      EXPECT_EQ(nparams[0], 1);
      EXPECT_EQ(kernel[0], 0);
      EXPECT_STREQ(names[1], "pair");
      EXPECT_EQ(nparams[1], 2);
      EXPECT_EQ(kernel[1], 0);
      EXPECT_STREQ(names[2], "scale");
      EXPECT_EQ(nparams[2], 3);
      EXPECT_EQ(kernel[2], 1);
      EXPECT_STREQ(names[3], "empty");
      EXPECT_EQ(nparams[3], 0);
      EXPECT_EQ(kernel[3], 1);
    }
    Func *sq = m->funcs;
    EXPECT_STREQ(sq->params[0].name, "x");
    EXPECT_TRUE(sq->ret_annot != NULL);
    EXPECT_EQ(sq->pos.line, 49);
    Func *sc = sq->next->next;
    EXPECT_STREQ(sc->params[0].name, "a");
    EXPECT_STREQ(sc->params[1].name, "b");
    EXPECT_STREQ(sc->params[2].name, "s");
    EXPECT_EQ(sc->params[2].pos.line, 61);
    EXPECT_TRUE(sc->ret_annot == NULL);
    EXPECT_TRUE(sc->body != NULL);

    /* wp.constant() values, then plain module-level values: NOT_CONST = 3
     * is parsed (a kernel may use it), TABLE and SRC are recorded without
     * an expression (using them in a kernel is an error that names them) */
    int nc = 0, npy = 0;
    const char *cn[4], *pn[4];
    Node *pv[4];
    for (Sym *s = m->consts; s; s = s->next) {
      if (s->pyglobal) {
        if (npy < 4) {
          pn[npy] = s->name;
          pv[npy] = s->value;
        }
        npy++;
        continue;
      }
      if (nc < 4)
        cn[nc] = s->name;
      nc++;
    }
    EXPECT_EQ(nc, 2);
    if (nc == 2) {
      EXPECT_STREQ(cn[0], "N");
      EXPECT_STREQ(cn[1], "SCALE");
    }
    EXPECT_EQ(npy, 3);
    if (npy == 3) {
      EXPECT_STREQ(pn[0], "NOT_CONST");
      EXPECT_TRUE(pv[0] != NULL && pv[0]->kind == N_INT && pv[0]->ival == 3);
      EXPECT_STREQ(pn[1], "TABLE");
      EXPECT_TRUE(pv[1] == NULL);
      EXPECT_STREQ(pn[2], "SRC");
      EXPECT_TRUE(pv[2] == NULL);
    }
  }
  done(C, err);
}

/* Other spellings of the import. */
static void test_imports(void) {
  char *err;
  Compiler *C = parse("import warp\n\n@warp.kernel\ndef k(a: warp.array(dtype=float)):\n    pass\n", &err);
  EXPECT_TRUE(err == NULL);
  if (!err) {
    EXPECT_STREQ(C->mod->wp, "warp");
    EXPECT_TRUE(C->mod->funcs && C->mod->funcs->is_kernel);
  }
  done(C, err);

  C = parse("import numpy as np, warp as w\n\n@w.func\ndef f(x: float, y: float) -> float:\n    return x\n", &err);
  EXPECT_TRUE(err == NULL);
  if (!err) {
    EXPECT_STREQ(C->mod->wp, "w");
    EXPECT_TRUE(C->mod->funcs && !C->mod->funcs->is_kernel);
    EXPECT_EQ(C->mod->funcs->nparams, 2);
  }
  done(C, err);

  /* no warp import: an error at 1:1 */
  C = parse("import numpy as np\nx = 1\n", &err);
  EXPECT_TRUE(err != NULL);
  EXPECT_TRUE(err && strstr(err, "p.py:1:1: error: the file does not import warp") == err);
  done(C, err);

  /* only host code: no kernels, no error */
  C = parse("import warp as wp\n\nclass A:\n    pass\n", &err);
  EXPECT_TRUE(err == NULL);
  if (!err) {
    EXPECT_TRUE(C->mod->funcs == NULL);
    EXPECT_TRUE(C->mod->consts == NULL);
  }
  done(C, err);
}

/* Parse errors carry positions. */
static void test_errors(void) {
  char *err;
  Compiler *C = parse("import warp as wp\n@wp.kernel\ndef k(a: float)\n    pass\n", &err);
  EXPECT_STREQ(err, "p.py:3:16: error: expected ':', found end of line\n"
                     "def k(a: float)\n               ^");
  done(C, err);

  C = parse("import warp as wp\n@wp.kernel\ndef k(a):\n    pass\n", &err);
  EXPECT_TRUE(err && strstr(err, "p.py:3:7: error: parameter 'a' of 'k' needs a type annotation") == err);
  done(C, err);

  C = parse("import warp as wp\n@wp.kernel\ndef k():\n    x = 1\n        y = 2\n", &err);
  EXPECT_TRUE(err && strstr(err, "p.py:5:9: error: unexpected indent") == err);
  done(C, err);

  C = parse("import warp as wp\nN = wp.constant(1, 2)\n", &err);
  EXPECT_TRUE(err && strstr(err, "p.py:2:8: error: wp.constant() takes exactly one argument") == err);
  done(C, err);
}

int main(void) {
  test_program();
  test_imports();
  test_errors();
  return kern_test_report("lang_parse");
}
