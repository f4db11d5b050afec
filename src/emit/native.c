/*
 * native.c -- @wp.func_native functions and wp.address_of() in the three
 * dialects (Note [native snippets] in lower/check_native.c).
 *
 * A native function is emitted as a prototype where kern's other user
 * functions go and as a definition at the very end of the module, whose
 * body is the snippet verbatim.  The parameters keep their Python names; a
 * wp.ref[T] parameter is, like any other (Note [reference parameters] in
 * common.c), a value plus a pointer k_refN to the caller's variable, and
 * the snippet's name for it aliases *k_refN: a C++ reference on CUDA,
 * exactly as Warp declares it, and a macro around the body in C and
 * OpenCL C, which have no references.  The macro replaces the name
 * everywhere in the snippet, so there a ref parameter named like a member
 * the snippet uses (`x` beside `p.x`) breaks it: a compile error.
 *
 * Note [snippet containment]: the snippet is text kern does not parse, and
 * it is pasted into the generated source; it can do anything native code
 * does (that is what it is for, and kern_options.no_native refuses it for
 * untrusted files).  What the layout guarantees is that a malformed
 * snippet cannot silently change kern's own code:
 *  - the definitions come after every kernel and helper, so a #define, an
 *    #undef or a #pragma in a snippet reaches only the snippets after it,
 *    never code kern generated (the preprocessor works top to bottom);
 *  - an unbalanced `{` leaves the last function open (a compile error at
 *    the end of the file) or nests the next native definition inside it,
 *    which no dialect allows for a `static` function (GNU C's nested
 *    functions cannot be static); an extra `}` leaves the rest of the
 *    snippet and the closing brace at file scope, again a compile error;
 *  - an unterminated comment or #if swallows the closing brace: a compile
 *    error;
 *  - the snippet is followed by a newline, so a trailing // comment cannot
 *    hide the closing brace.
 * In the compact CUDA form (Note [compact CUDA]) many modules share one
 * NVRTC program, so there a snippet's macros reach the modules after its
 * own; that form is for datasets of generated kernels, which have none.
 * The compile error names the snippet's lines in the kernel file: a #line
 * directive (C and CUDA; kern emits none for OpenCL) maps the body to the
 * string literal's lines, exact when the snippet is one literal without
 * escaped newlines.  A NUL byte is refused, since compilers drop it with a
 * mere warning.
 */
#include <string.h>
#include "emit.h"

/* The signature, in the layout callers use (emit_function in common.c):
 * the parameters, then a pointer per wp.ref parameter. */
static const char *native_sig(Emit *E, IrFunc *f) {
  Buf sig;
  buf_init(&sig, E->C);
  buf_printf(&sig, "%s %s %s(", E->T->fn_qual, emit_ctype(E, f->ret),
             f->symbol);
  int i = 0;
  for (IrVar *p = f->params; p; p = p->next, i++)
    buf_printf(&sig, "%s%s %s", i ? ", " : "", emit_ctype(E, p->ty),
               p->name);
  for (IrVar *p = f->params; p; p = p->next)
    if (p->byref)
      buf_printf(&sig, ", %s *k_ref%d", emit_ctype(E, p->ty), p->index);
  if (i == 0)
    buf_puts(&sig, "void");
  buf_puts(&sig, ")");
  return sig.p;
}

void emit_native_function(Emit *E, IrFunc *f) {
  if (!f->called)
    return; /* Warp builds only the functions kernels use */
  if (E->T->id == KERN_TARGET_VULKAN) { /* C or CUDA text is no GLSL */
    const char *line = "#error kern: the vulkan target cannot run "
                       "@wp.func_native snippets (C and CUDA source)\n";
    if (emit_need(E, line))
      emit_pre(E, line, "%s", line);
    return;
  }
  if (memchr(f->native, 0, (size_t)f->native_len))
    diag_error(E->C, f->native_pos, "the snippet of '%s' contains a NUL "
               "character", f->name);
  const char *sig = native_sig(E, f);
  emit_line(E, "%s;", sig);
  emit_line(E, "%s", "");

  Buf *b = &E->natives;
  bool cuda = E->T->id == KERN_TARGET_CUDA;
  buf_printf(b, "\n/* @wp.func_native %s: its snippet, verbatim */\n",
             f->name);
  buf_printf(b, "%s {\n", sig);
  int i = 0;
  for (IrVar *p = f->params; p; p = p->next, i++) {
    if (!p->byref)
      continue;
    if (cuda)
      buf_printf(b, "%s &%s = *k_ref%d;\n", emit_ctype(E, p->ty),
                 f->native_names[i], p->index);
    else
      buf_printf(b, "#define %s (*k_ref%d)\n", f->native_names[i],
                 p->index);
  }
  if (E->T->id != KERN_TARGET_OPENCL && f->native_pos.line > 0)
    buf_printf(b, "#line %d \"%s\"\n", f->native_pos.line,
               emit_line_path(E, E->m->path));
  buf_putn(b, f->native, (size_t)f->native_len);
  buf_puts(b, "\n}\n");
  i = 0;
  for (IrVar *p = f->params; p; p = p->next, i++)
    if (p->byref && !cuda)
      buf_printf(b, "#undef %s\n", f->native_names[i]);
}

/* wp.address_of(x): x's storage, an lvalue in every dialect (a variable,
 * `data[index]`, `(s).f_name`, `(v).c[i]`, chains of these). */
void emit_address(Emit *E, Buf *b, IrExpr *e) {
  /* OpenCL: emitted alike, refused when loaded (check_native.c) */
  buf_puts(b, "((uint64_t)&(");
  emit_expr(E, b, e->a);
  buf_puts(b, "))");
}
