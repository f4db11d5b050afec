/*
 * check_native.c -- @wp.func_native functions and wp.address_of().
 *
 * Note [native snippets]: Warp's @wp.func_native(snippet) makes a function
 * whose body is the snippet, C++ text pasted into the generated code; the
 * Python body is ignored.  kern does the same on every target: the snippet
 * becomes the body of a function of the target's language (C11 for the
 * CPU, CUDA C++ for NVRTC, OpenCL C), so it must be valid there -- a snippet
 * using C++ features compiles on CUDA only, and the C compiler's error,
 * mapped by #line to the snippet's lines in the kernel file, says so.
 *
 * What the snippet sees is what Warp's snippets are written against:
 *  - each parameter under its Python name, with the C type of its Warp
 *    scalar type (float32 is `float`, int32 `int32_t`, uint64 `uint64_t`,
 *    bool kern's `kbool`); only scalars are allowed, since a vector, matrix,
 *    struct or array would be kern's C layout, not Warp's C++ classes
 *    (wp::vec3 with its operators), and no Warp snippet could use it;
 *  - a wp.ref[T] parameter as an assignable name of type T that aliases the
 *    caller's variable (emit/native.c: a C++ reference on CUDA, as in Warp,
 *    and a macro around the snippet in C and OpenCL C);
 *  - `return v;` returning the declared type.
 * adj_snippet and replay_snippet are accepted and ignored: kern has no
 * autodiff.  A native call is taken to have effects (it may write through
 * any address it is given), so it is never dropped or reordered.
 *
 * wp.address_of(x) is the address of x's storage as a uint64, for a
 * snippet to read or write through: x is a local variable, an array
 * element, a struct field or a vector or matrix component, or a chain of
 * these (outers[i].inner.value), as in Warp 1.19.  OpenCL has no flat
 * address space in which such a number means anything, so the runtime
 * refuses to load a module using it on OpenCL (kc_result.no_opencl); the
 * compiler's answer is the same for every target (Note
 * [target-independent status] in fuzz/fuzz_compiler.c).
 */
#include <string.h>
#include "check.h"

/* Names a snippet cannot have as a parameter: keywords of C, C++ and
 * OpenCL C (the parameter could not be written in the snippet), and
 * kern's own prefixes (the function's hidden parameters and the
 * generated helpers). */
static bool reserved_name(const char *s) {
  static const char *const kw[] = {
      "auto", "bool", "case", "catch", "char", "class", "const", "constant",
      "constexpr", "default", "delete", "do", "double", "enum", "explicit",
      "extern", "float", "friend", "global", "goto", "half", "inline", "int",
      "kernel", "local", "long", "mutable", "namespace", "new", "operator",
      "private", "protected", "public", "register", "restrict", "short",
      "signed", "sizeof", "static", "struct", "switch", "template", "this",
      "throw", "true", "false", "typedef", "typename", "union", "unsigned",
      "using", "virtual", "void", "volatile", "NULL", NULL};
  for (int i = 0; kw[i]; i++)
    if (!strcmp(s, kw[i]))
      return true;
  return !strncmp(s, "k_", 2) || !strncmp(s, "K_", 2) ||
         !strncmp(s, "kern", 4) || !strncmp(s, "_wp", 3) || s[0] == '_';
}

static void native_type_ok(Ctx *X, const Type *t, Pos pos, const char *what) {
  if (t->kind == TY_SCALAR && !(sc_is_float(t->sc) && sc_bits(t->sc) == 16))
    return;
  ERR(pos, "%s of a @wp.func_native function is %s; kern's snippets take "
           "and return scalars other than 16-bit floats (a snippet would "
           "see kern's C layout of other types, not Warp's C++ classes)",
      what, TN(t));
}

/* Before the generic and wp.Function checks: the signature a snippet can
 * have. */
void check_native_sig(Ctx *X, Func *f) {
  if (f->ret && f->ret->kind != TY_VOID)
    native_type_ok(X, f->ret, f->ret_annot->pos, "the return type");
  for (int i = 0; i < f->nparams; i++) {
    Param *p = &f->params[i];
    if (!p->annot)
      ERR(p->pos, "parameter '%s' of a @wp.func_native function needs a "
                  "type annotation", p->name);
    if (p->defval)
      ERR(p->defval->pos, "default values of @wp.func_native parameters are "
                          "not supported");
    const Type *t = check_type_expr(X, p->annot, arena_printf(X->C,
                                    "parameter '%s'", p->name));
    native_type_ok(X, t, p->annot->pos,
                   arena_printf(X->C, "parameter '%s'", p->name));
    if (reserved_name(p->name))
      ERR(p->pos, "parameter '%s' of a @wp.func_native function has a name "
                  "the generated code reserves (a C, C++ or OpenCL keyword, "
                  "or kern's k_/kern/_ prefixes); rename it", p->name);
  }
}

/* After the parameters are made: the IR function is the snippet. */
void check_native_body(Ctx *X, Func *f, IrFunc *irf) {
  irf->native_names = arena_alloc(X->C, sizeof(char *) *
                                          (size_t)(f->nparams + 1));
  int i = 0;
  for (IrVar *v = irf->params; v; v = v->next, i++) {
    irf->native_names[i] = f->params[i].name;
    v->name = v->byref ? arena_printf(X->C, "k_val%d", i) : f->params[i].name;
  }
  irf->native = f->native;
  irf->native_len = f->native_len;
  irf->native_pos = f->native_pos;
  X->dead = true; /* the snippet returns; nothing follows it */
}

/* Is e storage with an address: a variable, an array element, or a field
 * or component of one? */
static bool addressable(IrExpr *e) {
  switch (e->kind) {
  case E_VAR:
    return e->var->ty->kind != TY_ARRAY;
  case E_LOAD:
    return true;
  case E_FIELD:
    return e->ty->kind != TY_ARRAY && addressable(e->a);
  case E_COMP:
    /* a matrix row is built by a helper, not stored as a row */
    return !(e->a->ty->kind == TY_MAT && !e->c) && addressable(e->a);
  default:
    return false;
  }
}

IrExpr *check_address_of(Ctx *X, Node *call) {
  Node *a = call->args;
  if (!a || a->next || call->kwargs)
    ERR(call->pos, "wp.address_of() takes exactly one positional argument");
  if (a->kind != N_NAME && a->kind != N_ATTR && a->kind != N_SUBSCRIPT)
    ERR(a->pos, "wp.address_of() needs something addressable (a local "
                "variable, an array element, a struct field or a vector or "
                "matrix component), not an expression");
  if (a->kind == N_NAME && !check_find_local(X, a->name)) {
    if (check_find_const(X, a->name))
      ERR(a->pos, "wp.address_of() of the constant '%s': a constant has no "
                  "storage; copy it to a variable first", a->name);
    ERR(a->pos, "wp.address_of() of '%s', which is not a variable", a->name);
  }
  check_not_constant_local(X, a, "wp.address_of() cannot take");
  IrExpr *e = check_expr(X, a);
  if (e->ty->kind == TY_ARRAY)
    ERR(a->pos, "wp.address_of() of an array; take an element's address "
                "(wp.address_of(a[i]))");
  if (!addressable(e))
    ERR(a->pos, "wp.address_of() of a temporary value (a call's result, a "
                "constructed value or a matrix row has no storage): it needs "
                "a local variable, an array element, a struct field or a "
                "vector or matrix component");
  if ((e->ty->kind == TY_SCALAR || e->ty->kind == TY_VEC ||
       e->ty->kind == TY_MAT) && sc_is_float(e->ty->sc) &&
      sc_bits(e->ty->sc) == 16)
    ERR(a->pos, "wp.address_of() of a %s: kern computes 16-bit floats in "
                "float32, so it has no address of the value's own format",
        TN(e->ty));
  if (!X->irm->has_addr) {
    X->irm->has_addr = true;
    X->irm->addr_pos = call->pos;
  }
  IrExpr *r = ir_expr(X->C, E_ADDR, ty_scalar(KERN_SCALAR_UINT64));
  r->a = e;
  r->pos = call->pos;
  return r;
}

/* Note [constant locals]: in Warp, `x = 0` binds x to the literal itself,
 * a compile-time constant with no storage, so wp.address_of(x) and passing
 * x to a wp.ref parameter are errors there ("Error taking a mutable
 * reference to constant local"), while `x = wp.int32(0)` makes a variable.
 * The name stays a constant until it is assigned again, and an assignment
 * inside an if or a loop body becomes a new variable where the block ends
 * (Warp merges the branches' values there).  kern tracks the same:
 * check_literal_assigned records the block depth of a literal assignment,
 * check_literal_leave forgets those made inside a block when it ends (a
 * trail, so the cost is the number of such assignments, not of locals),
 * and both uses refuse a name still marked.  Warp unrolls loops over small
 * constant ranges, which keeps a literal assigned in such a loop a constant
 * after it; kern treats every loop as a block, accepting that case (with
 * the same results) where Warp refuses it. */
void check_literal_assigned(Ctx *X, Node *target, Node *value) {
  if (target->kind != N_NAME || !check_is_literal(value))
    return;
  Local *l = check_find_local(X, target->name);
  if (!l)
    return;
  l->literal = X->block_depth;
  if (X->nlit + 2 > X->caplit) {
    int cap = X->caplit ? 2 * X->caplit : 32;
    int *t = arena_alloc(X->C, sizeof(int) * (size_t)cap);
    if (X->nlit)
      memcpy(t, X->lit_trail, sizeof(int) * (size_t)X->nlit);
    X->lit_trail = t;
    X->caplit = cap;
  }
  /* pairs: the local's index and the depth it was marked at */
  X->lit_trail[X->nlit++] = (int)(l - X->locals);
  X->lit_trail[X->nlit++] = X->block_depth;
}

void check_literal_leave(Ctx *X) {
  while (X->nlit >= 2 && X->lit_trail[X->nlit - 1] > X->block_depth) {
    int depth = X->lit_trail[--X->nlit];
    Local *l = &X->locals[X->lit_trail[--X->nlit]];
    if (l->literal == depth)
      l->literal = 0;
  }
}

void check_not_constant_local(Ctx *X, Node *a, const char *what) {
  if (a->kind != N_NAME)
    return;
  Local *l = check_find_local(X, a->name);
  if (l && l->literal)
    ERR(a->pos, "%s '%s', which Warp treats as a constant here (it was "
                "last assigned a literal); make it a variable: %s = wp.%s(...)",
        what, a->name, a->name, TN(l->ty));
}
