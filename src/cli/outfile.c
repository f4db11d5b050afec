/*
 * outfile.c -- exclusive, no-follow temporaries renamed into place
 * (see outfile.h for why).
 */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(char *err, size_t errsize, const char *path, int e) {
  snprintf(err, errsize, "cannot write '%s': %s", path, strerror(e));
  return -1;
}

FILE *infile_open(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat st;
  int e = 0;
  if (fstat(fd, &st) != 0) e = errno;
  else if (S_ISDIR(st.st_mode)) e = EISDIR;
  FILE *f = e ? NULL : fdopen(fd, "rb");
  if (!f) {
    if (!e) e = errno;
    close(fd);
    errno = e;
  }
  return f;
}

int outfile_open(outfile *o, const char *path, char *err, size_t errsize) {
  memset(o, 0, sizeof *o);
  o->path = path;

  /* A directory at the destination would only fail at the rename, after
   * the launch; say so now. */
  struct stat st;
  if (path[0] == '\0') return fail(err, errsize, path, ENOENT);
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    return fail(err, errsize, path, EISDIR);

  /* DIR/.BASE.XXXXXX: in the destination's directory so the rename stays
   * within one file system, hidden, and recognisably ours if left behind by
   * a crash.  A very long base name falls back to a short fixed stem. */
  const char *slash = strrchr(path, '/');
  size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
  const char *base = path + dirlen;
  if (strlen(base) > 200) base = "kern";
  size_t n = dirlen + 1 + strlen(base) + 8;
  o->tmp = malloc(n);
  if (!o->tmp) return fail(err, errsize, path, ENOMEM);
  snprintf(o->tmp, n, "%.*s.%s.XXXXXX", (int)dirlen, path, base);

  /* mkostemp adds O_CREAT|O_EXCL itself; O_NOFOLLOW is belt and braces for
   * the final component, which O_EXCL already refuses to follow. */
  int fd = mkostemp(o->tmp, O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    free(o->tmp);
    o->tmp = NULL;
    return fail(err, errsize, path, e);
  }
  /* mkostemp makes the file 0600; an output should get the permissions an
   * ordinary create would give it.  The tool is single-threaded, so reading
   * the umask by setting it is safe here. */
  mode_t mask = umask(0);
  umask(mask);
  (void)fchmod(fd, 0666 & ~mask);
  o->f = fdopen(fd, "wb");
  if (!o->f) {
    int e = errno;
    close(fd);
    unlink(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
    return fail(err, errsize, path, e);
  }
  return 0;
}

int outfile_commit(outfile *o, char *err, size_t errsize) {
  int e = 0;
  if (!o->f) return fail(err, errsize, o->path, EBADF);
  if (ferror(o->f)) e = errno ? errno : EIO;
  if (fclose(o->f) != 0 && !e) e = errno;
  o->f = NULL;
  if (!e && rename(o->tmp, o->path) != 0) e = errno;
  if (e) {
    unlink(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
    return fail(err, errsize, o->path, e);
  }
  free(o->tmp);
  o->tmp = NULL;
  return 0;
}

void outfile_discard(outfile *o) {
  if (o->f) {
    fclose(o->f);
    o->f = NULL;
    unlink(o->tmp);
  }
  free(o->tmp);
  o->tmp = NULL;
}
