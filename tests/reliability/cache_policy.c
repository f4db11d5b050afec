/*
 * cache_policy.c -- the kernel cache is an optimisation on every backend
 * (Note [cache policy] in src/runtime/cache.c), shown end to end through the
 * public API on the CPU and, when a platform exists, OpenCL:
 *   - a read-only cache directory, and a full one, still load and run
 *     (the CPU build used to live inside the cache directory and failed);
 *   - after a load whose cache was refused or unwritable no error is left
 *     in the context, so a later real error -- a debug-mode out-of-bounds
 *     report -- is the one kern_last_error shows (OpenCL used to keep the
 *     cache's message and hide it);
 *   - a FIFO planted at an entry's path neither hangs the load (it used to
 *     block in open() forever; alarm() turns a hang into a failure) nor is
 *     loaded, and the rebuilt entry replaces it.
 * A read-only directory is a 0500 directory for an ordinary user; root
 * ignores modes, so as root the test makes a private mount namespace and
 * mounts a read-only tmpfs (and a tiny full one for the full case), and
 * where that is not allowed it uses /proc, a read-only directory that root
 * owns.  The full-disk case needs the mount and is skipped without it.
 */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include "test.h"

static const char kSrc[] =
    "import warp as wp\n\n@wp.kernel\n"
    "def k(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32)):\n"
    "    i = wp.tid()\n"
    "    y[i] = x[i + 2] * 2.0\n";

#define N 64

/* Loads kSrc on backend `dev` ("cpu", "opencl") with the cache in dir and
 * debug mode on: the load must succeed and leave no error; an in-bounds
 * launch gives the right answer; an out-of-bounds one fails with the
 * debug report as the context's error. */
static void load_and_check(const char *dir, const char *dev_name) {
  kern_options o = KERN_OPTIONS_INIT;
  o.cache_dir = dir;
  o.num_threads = 2;
  o.debug = 1;
  kern_context *ctx;
  ASSERT_OK(NULL, kern_context_new(&o, &ctx));
  kern_device dev;
  ASSERT_OK(ctx, kern_device_find(ctx, dev_name, &dev));
  kern_module *m;
  ASSERT_OK(ctx, kern_module_load_string(ctx, dev, "policy.py", kSrc,
                                         sizeof kSrc - 1, &m));
  ASSERT_STR_EQ(kern_last_error(ctx), "");
  kern_kernel *k;
  ASSERT_OK(ctx, kern_module_get_kernel(m, "k", &k));
  kern_type f32 = {KERN_KIND_SCALAR, KERN_SCALAR_FLOAT32, 1, 1};
  int64_t n = N;
  kern_array *x, *y;
  ASSERT_OK(ctx, kern_array_new(ctx, dev, f32, 1, &n, &x));
  ASSERT_OK(ctx, kern_array_new(ctx, dev, f32, 1, &n, &y));
  float h[N];
  for (int i = 0; i < N; i++) h[i] = (float)i;
  ASSERT_OK(ctx, kern_array_upload(x, h, sizeof h));
  kern_arg args[2] = {kern_arg_array(x), kern_arg_array(y)};
  int64_t inside = N - 2;
  ASSERT_OK(ctx, kern_launch(k, 1, &inside, 2, args));
  ASSERT_OK(ctx, kern_array_download(y, h, sizeof h));
  for (int i = 0; i < N - 2; i++) ASSERT(h[i] == 2.0f * (float)(i + 2));
  ASSERT_EQ(kern_launch(k, 1, &n, 2, args), KERN_ERROR_OUT_OF_BOUNDS);
  ASSERT_CONTAINS(kern_last_error(ctx), "out of bounds");
  kern_context_free(ctx);
}

static int have_opencl(void) {
  kern_context *ctx;
  ASSERT_OK(NULL, kern_context_new(NULL, &ctx));
  kern_backend_info bi = KERN_BACKEND_INFO_INIT;
  ASSERT_OK(ctx, kern_backend_get(ctx, KERN_BACKEND_OPENCL, &bi));
  int ok = bi.available;
  if (!ok) printf("no OpenCL platform (%s): OpenCL cases skipped\n", bi.reason);
  kern_context_free(ctx);
  return ok;
}

static void on_every_backend(const char *dir, int ocl, const char *what) {
  load_and_check(dir, "cpu");
  if (ocl) load_and_check(dir, "opencl");
  printf("%s: loads, no error left, the later real error shows\n", what);
}

/* The one entry file in dir whose name ends in ext. */
static void only_entry(const char *dir, const char *ext, char *out,
                       size_t size) {
  DIR *d = opendir(dir);
  ASSERT(d != NULL);
  struct dirent *e;
  int found = 0;
  size_t el = strlen(ext);
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (l > el && strcmp(e->d_name + l - el, ext) == 0) {
      snprintf(out, size, "%s/%s", dir, e->d_name);
      found++;
    }
  }
  closedir(d);
  ASSERT_EQ(found, 1);
}

/* Item 11: a FIFO at the entry's path. */
static void fifo_entry(const char *dev_name, const char *ext) {
  char dir[512], entry[1024];
  snprintf(dir, sizeof dir, "%s/fifo-%s", test_tmp, dev_name);
  load_and_check(dir, dev_name); /* makes the entry */
  only_entry(dir, ext, entry, sizeof entry);
  ASSERT_EQ(unlink(entry), 0);
  ASSERT_EQ(mkfifo(entry, 0600), 0);
  alarm(120); /* a blocking open() would hang here for ever */
  load_and_check(dir, dev_name);
  alarm(0);
  struct stat st;
  ASSERT_EQ(lstat(entry, &st), 0);
  ASSERT(S_ISREG(st.st_mode)); /* the rebuild replaced the FIFO */
  printf("%s: a FIFO at the entry's path is skipped and replaced\n", dev_name);
}

static char mounted[2][512]; /* unmounted at exit, before test_cleanup */

static void unmount_all(void) {
  for (int i = 0; i < 2; i++)
    if (mounted[i][0]) umount2(mounted[i], MNT_DETACH);
}

/* A private mount namespace, so the test's mounts vanish with it. */
static int private_mounts(void) {
  static int state = -1;
  if (state < 0) {
    state = unshare(CLONE_NEWNS) == 0 &&
            mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0;
    if (state) atexit(unmount_all);
  }
  return state;
}

/* A read-only directory this user owns (mode 0700 or 0500), or NULL. */
static const char *read_only_dir(char *buf, size_t size) {
  snprintf(buf, size, "%s/ro", test_tmp);
  ASSERT_EQ(mkdir(buf, 0700), 0);
  if (geteuid() != 0) {
    ASSERT_EQ(chmod(buf, 0500), 0);
    return buf;
  }
  if (private_mounts() &&
      mount("tmpfs", buf, "tmpfs", MS_RDONLY, "mode=0700,size=64k") == 0) {
    snprintf(mounted[0], sizeof mounted[0], "%s", buf);
    return buf;
  }
  printf("cannot mount a read-only tmpfs (%s): using /proc\n",
         strerror(errno));
  return "/proc";
}

/* A full tmpfs (root only), or NULL. */
static const char *full_dir(char *buf, size_t size) {
  snprintf(buf, size, "%s/full", test_tmp);
  ASSERT_EQ(mkdir(buf, 0700), 0);
  if (geteuid() != 0 || !private_mounts() ||
      mount("tmpfs", buf, "tmpfs", 0, "mode=0700,size=64k") != 0)
    return NULL;
  snprintf(mounted[1], sizeof mounted[1], "%s", buf);
  char p[600];
  snprintf(p, sizeof p, "%s/filler", buf);
  FILE *f = fopen(p, "wb");
  ASSERT(f != NULL);
  static char block[4096];
  while (fwrite(block, 1, sizeof block, f) == sizeof block && fflush(f) == 0) {
  }
  fclose(f);
  return buf;
}

/* With an argument, runs only that case: readonly, full, refused, fifo. */
int main(int argc, char **argv) {
  test_setup();
  const char *only = argc > 1 ? argv[1] : NULL;
#define CASE(name) (!only || strcmp(only, name) == 0)
  int ocl = have_opencl();

  char buf[512];
  if (CASE("readonly"))
    on_every_backend(read_only_dir(buf, sizeof buf), ocl,
                     "read-only cache directory");
  char fbuf[512];
  const char *full = CASE("full") ? full_dir(fbuf, sizeof fbuf) : NULL;
  if (full)
    on_every_backend(full, ocl, "full cache file system");
  else if (CASE("full"))
    printf("full cache file system: skipped (needs root and mount)\n");

  /* Refused (writable by others): the same on every backend. */
  if (CASE("refused")) {
    char refused[512];
    snprintf(refused, sizeof refused, "%s/refused", test_tmp);
    ASSERT_EQ(mkdir(refused, 0700), 0);
    ASSERT_EQ(chmod(refused, 0777), 0);
    on_every_backend(refused, ocl, "refused cache directory");
  }

  if (CASE("fifo")) {
    fifo_entry("cpu", ".so");
    if (ocl) fifo_entry("opencl", ".clbin");
  }
#undef CASE
  printf("cache policy: ok\n");
  return 0;
}
