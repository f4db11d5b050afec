/*
 * bgbuild.h -- a build in a child process (bgbuild.c, Note [background
 * builds]).
 *
 *   kern__bg_start       fork a child that runs fn(arg)
 *   kern__bg_poll        look (or wait) for its result
 *   kern__bg_image       the bytes it made
 *   kern__bg_why         why it failed
 *   kern__bg_drop_image  free the bytes once used
 *   kern__bg_free        let go of it; never waits
 *   kern__bg_children    children not yet reaped (for tests)
 *   kern__bg_enter_compiler / kern__bg_leave_compiler
 *                        around a foreground compile: no fork meanwhile
 *   kern__bg_allow_sanitized
 *                        let a sanitized build fork (tests whose children
 *                        allocate nothing)
 *
 * Thread-safety: distinct kern__bg may be used from any threads at once;
 * one kern__bg by one thread at a time.
 */
#ifndef KERN_BGBUILD_H
#define KERN_BGBUILD_H

#include <stddef.h>

typedef struct kern__bg kern__bg;

/* Runs in the child.  On success returns 0 with *image (any allocation;
 * the child exits without freeing it) and *size; on failure nonzero with a
 * message in why. */
typedef int (*kern__bg_fn)(void *arg, void **image, size_t *size, char *why,
                           size_t whysz);

enum { KERN__BG_RUNNING, KERN__BG_READY, KERN__BG_FAILED };

/* Forks a child that runs fn(arg) (arg is the parent's memory as it is at
 * the fork) and ends within timeout_s seconds.  slot_dir, when not NULL, is
 * a directory of ours where children of every process take one of ncpu
 * slots before they build.  NULL, with the reason in why, when no child
 * can be started (too many running, fork refused): build in the
 * foreground then. */
kern__bg *kern__bg_start(kern__bg_fn fn, void *arg, const char *slot_dir,
                         unsigned timeout_s, char *why, size_t whysz);
/* KERN__BG_RUNNING, _READY or _FAILED.  wait: block until it is not
 * running.  Without wait, cheap enough for every launch (it looks at the
 * pipe at most once a millisecond). */
int kern__bg_poll(kern__bg *b, int wait);
const void *kern__bg_image(const kern__bg *b, size_t *size);
const char *kern__bg_why(const kern__bg *b);
void kern__bg_drop_image(kern__bg *b);
void kern__bg_free(kern__bg *b);
int kern__bg_children(void);
void kern__bg_enter_compiler(void);
void kern__bg_leave_compiler(void);
void kern__bg_allow_sanitized(int yes);

#endif
