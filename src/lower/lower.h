/*
 * lower.h -- the lowering floor: typed AST to IR.
 *
 *   check.c   Warp's typing rules, name resolution, definite assignment,
 *             and lowering to the IR, in one walk over the AST
 *
 * Typing and lowering make the same case analysis, so check.c does both in
 * one walk (see its top comment).  That walk needs the AST (lang/) and
 * builds the IR (ir/), so it cannot live in either: it is the floor between
 * them, and the only code that sees both.  lower_module() used to be
 * declared in ir/ir.h, which made the IR include the front end.
 */
#ifndef KERN_LOWER_H
#define KERN_LOWER_H

#include "ir.h"
#include "lang.h"

/* Checks the parsed module in C->mod and lowers it into an IrModule;
 * reports the first error through diag_error(). */
IrModule *lower_module(Compiler *C);

#endif
