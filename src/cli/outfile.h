/*
 * outfile.h -- writing an output file so that nobody ever sees half of it
 * and nothing planted beside it is followed.
 *
 * The tool's outputs (`kern compile -o`, `kern run --save`) go to paths the
 * user names, often in shared directories such as /tmp.  A fixed temporary
 * name like OUT.tmp lets another user plant a symbolic link there and have
 * the tool overwrite the link's target; so the temporary is created with a
 * unique name in the destination's directory, exclusively and without
 * following links (mkostemp: O_CREAT|O_EXCL, plus O_NOFOLLOW), and renamed
 * over the destination only once it is complete.  rename() replaces the
 * destination's directory entry, so even a link at the destination itself is
 * replaced, never written through.
 *
 * Opening is separate from committing so that `kern run` can open every
 * --save file before the launch: an unwritable path is then reported, under
 * the name the user gave, before any work is done.
 *
 * Inputs the user names (a kernel file, a .npy argument) are opened with
 * infile_open, which refuses a directory by name: it would open fine and
 * fail only at the first read, with a message about something else.  A
 * FIFO or pipe is read as cat reads it (kern waits for its writer): the
 * user named it, and `kern run <(generate)` is a use.
 *
 * Exports:
 *   infile_open      open an input for reading without hanging
 *   outfile          an open temporary and the path it will become
 *   outfile_open     create the temporary beside path
 *   outfile_commit   flush, close and rename into place
 *   outfile_discard  close and remove the temporary (safe after commit)
 */
#ifndef KERN_TOOLS_OUTFILE_H
#define KERN_TOOLS_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct outfile {
  FILE *f;          /* write here; NULL once committed or discarded */
  const char *path; /* the destination, as the user gave it (not owned) */
  char *tmp;        /* the temporary's path, malloc'd */
} outfile;

/* Both return 0, or -1 with a one-line message in err that names path
 * (never the temporary), meant to follow "kern: error: ".  After a failed
 * commit the temporary is already removed. */
/* Opens path for reading ("rb"): NULL with errno set on failure, EISDIR
 * for a directory. */
FILE *infile_open(const char *path);

int outfile_open(outfile *o, const char *path, char *err, size_t errsize);
int outfile_commit(outfile *o, char *err, size_t errsize);
void outfile_discard(outfile *o);

#endif /* KERN_TOOLS_OUTFILE_H */
