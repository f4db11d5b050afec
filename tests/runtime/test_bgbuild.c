/*
 * test_bgbuild -- builds in a child process (src/runtime/bgbuild.c, Note
 * [background builds]) with fake builds that sleep, fail, crash or outlive
 * their process, so every path of the PTX tier's background build is
 * tested without a GPU or NVRTC: the result coming back (larger than a pipe
 * holds), failure and crash reasons, the time limit, freeing a build while
 * it runs, a process that exits while its build runs (with an exit handler
 * registered after the start, which destroyed what an in-process build
 * thread still used: issue #22), the child holding none of the parent's
 * descriptors, the per-process limit, the slots that bound builds across
 * processes, and several threads at once (also under ThreadSanitizer).
 *
 * usage: test_bgbuild            (all of the above)
 *        test_bgbuild exit DIR   (a helper mode: start a build, exit)
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bgbuild.h"
#include "kern_test.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void sleep_ms(int ms) {
  struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
  while (nanosleep(&t, &t) != 0 && errno == EINTR) {
  }
}

/* What a fake build does. */
typedef struct fake {
  int sleep_ms;
  size_t size;      /* bytes of pattern to make */
  int fail;         /* return an error */
  int crash;        /* raise SIGSEGV */
  const char *mark; /* a file to write when done, like a cache entry */
  const char **table; /* read after the sleep (the exit test) */
} fake;

static int fake_build(void *arg, void **image, size_t *size, char *why,
                      size_t whysz) {
  fake *f = arg;
  double t0 = now();
  sleep_ms(f->sleep_ms);
  double t1 = now();
  if (f->crash) raise(SIGSEGV);
  if (f->fail) {
    snprintf(why, whysz, "fake failure %d", f->fail);
    return 1;
  }
  unsigned char *p = malloc(f->size ? f->size : 1);
  if (!p) return 1;
  for (size_t i = 0; i < f->size; i++) p[i] = (unsigned char)(i * 7 + 3);
  if (f->mark) {
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s.tmp", f->mark);
    FILE *o = fopen(tmp, "w");
    if (o) {
      fprintf(o, "%.6f %.6f %s\n", t0, t1,
              f->table && *f->table ? *f->table : "(no table)");
      fclose(o);
      rename(tmp, f->mark);
    }
  }
  *image = p;
  *size = f->size;
  return 0;
}

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* Waits up to ms for path to exist. */
static int wait_file(const char *path, int ms) {
  for (int i = 0; i < ms / 10; i++) {
    if (exists(path)) return 1;
    sleep_ms(10);
  }
  return exists(path);
}

static char dir[] = "/tmp/kern-bg-XXXXXX";

static void test_result(void) {
  fake f = {200, 3u << 20, 0, 0, NULL, NULL}; /* 3 MB: many pipe buffers */
  char why[256];
  kern__bg *b = kern__bg_start(fake_build, &f, NULL, 60, why, sizeof why);
  ASSERT(b != NULL);
  EXPECT_EQ(kern__bg_poll(b, 0), KERN__BG_RUNNING);
  EXPECT_EQ(kern__bg_poll(b, 1), KERN__BG_READY);
  size_t n = 0;
  const unsigned char *p = kern__bg_image(b, &n);
  ASSERT(p != NULL);
  EXPECT_EQ(n, f.size);
  int same = 1;
  for (size_t i = 0; i < n; i++)
    if (p[i] != (unsigned char)(i * 7 + 3)) same = 0;
  EXPECT_TRUE(same);
  EXPECT_EQ(kern__bg_poll(b, 0), KERN__BG_READY); /* stays ready */
  kern__bg_drop_image(b);
  EXPECT_TRUE(kern__bg_image(b, &n) == NULL);
  kern__bg_free(b);
}

/* Without wait, a poll comes back at once and the build is found in the
 * end by polling alone, as launches find it. */
static void test_poll_only(void) {
  fake f = {100, 1000, 0, 0, NULL, NULL};
  char why[256];
  kern__bg *b = kern__bg_start(fake_build, &f, NULL, 60, why, sizeof why);
  ASSERT(b != NULL);
  double t0 = now();
  long polls = 0;
  int st;
  while ((st = kern__bg_poll(b, 0)) == KERN__BG_RUNNING && now() - t0 < 10)
    polls++;
  EXPECT_EQ(st, KERN__BG_READY);
  EXPECT_TRUE(polls > 1000); /* each poll returned at once */
  kern__bg_free(b);
}

static void test_failure(void) {
  fake f = {0, 0, 42, 0, NULL, NULL};
  char why[256];
  kern__bg *b = kern__bg_start(fake_build, &f, NULL, 60, why, sizeof why);
  ASSERT(b != NULL);
  EXPECT_EQ(kern__bg_poll(b, 1), KERN__BG_FAILED);
  EXPECT_STREQ(kern__bg_why(b), "fake failure 42");
  EXPECT_TRUE(kern__bg_image(b, NULL) == NULL);
  kern__bg_free(b);

  fake c = {0, 10, 0, 1, NULL, NULL};
  b = kern__bg_start(fake_build, &c, NULL, 60, why, sizeof why);
  ASSERT(b != NULL);
  EXPECT_EQ(kern__bg_poll(b, 1), KERN__BG_FAILED);
  EXPECT_TRUE(strstr(kern__bg_why(b), "killed by signal 11") != NULL);
  kern__bg_free(b);
}

static void test_timeout(void) {
  fake f = {20000, 10, 0, 0, NULL, NULL};
  char why[256];
  double t0 = now();
  kern__bg *b = kern__bg_start(fake_build, &f, NULL, 1, why, sizeof why);
  ASSERT(b != NULL);
  EXPECT_EQ(kern__bg_poll(b, 1), KERN__BG_FAILED);
  EXPECT_TRUE(now() - t0 < 5);
  EXPECT_TRUE(strstr(kern__bg_why(b), "took longer") != NULL);
  kern__bg_free(b);
}

/* Freeing a running build returns at once; the build finishes on its own
 * and leaves its file, as the tier's build leaves its cache entry. */
static void test_free_running(void) {
  char mark[256];
  snprintf(mark, sizeof mark, "%s/free.mark", dir);
  fake f = {500, 100, 0, 0, mark, NULL};
  char why[256];
  kern__bg *b = kern__bg_start(fake_build, &f, NULL, 60, why, sizeof why);
  ASSERT(b != NULL);
  double t0 = now();
  kern__bg_free(b);
  EXPECT_TRUE(now() - t0 < 0.1);
  EXPECT_TRUE(!exists(mark));
  EXPECT_TRUE(wait_file(mark, 5000));
}

/* The child holds none of the parent's descriptors: a pipe the parent
 * made (without O_CLOEXEC) reads end of file as soon as the parent closes
 * its write end, while the build still runs. */
static void test_descriptors(void) {
  int p[2];
  ASSERT(pipe(p) == 0);
  fake f = {2000, 10, 0, 0, NULL, NULL};
  char why[256];
  kern__bg *b = kern__bg_start(fake_build, &f, NULL, 60, why, sizeof why);
  ASSERT(b != NULL);
  close(p[1]);
  double t0 = now();
  char c;
  EXPECT_EQ(read(p[0], &c, 1), 0);
  EXPECT_TRUE(now() - t0 < 1);
  EXPECT_EQ(kern__bg_poll(b, 0), KERN__BG_RUNNING);
  close(p[0]);
  kern__bg_free(b);
}

/* The exit test's helper mode: a build that reads a table after a second,
 * an exit handler registered after the start that destroys the table, and
 * exit at once.  A build on a thread of this process would read the freed
 * table (the crash of issue #22); the child reads its own copy. */
static const char *table;
kern__bg *kern_test_running; /* reachable at exit: LeakSanitizer is quiet */
static void destroy_table(void) {
  char *t = (char *)table;
  table = NULL;
  free(t);
}

static int exit_mode(const char *d) {
  static char mark[256];
  snprintf(mark, sizeof mark, "%s/exit.mark", d);
  table = strdup("table-intact");
  static fake f = {1000, 100, 0, 0, NULL, &table};
  f.mark = mark;
  char why[256];
  kern__bg *b = kern__bg_start(fake_build, &f, NULL, 60, why, sizeof why);
  if (!b) {
    fprintf(stderr, "no build: %s\n", why);
    return 3;
  }
  atexit(destroy_table);
  kern_test_running = b;
  printf("started\n");
  fflush(stdout);
  exit(0); /* with the build running, never freed */
}

static void test_exit_during_build(const char *self) {
  int out[2];
  ASSERT(pipe(out) == 0);
  double t0 = now();
  pid_t pid = fork();
  ASSERT(pid >= 0);
  if (pid == 0) {
    dup2(out[1], 1);
    close(out[0]);
    close(out[1]);
    execl(self, self, "exit", dir, (char *)NULL);
    _exit(127);
  }
  close(out[1]);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  /* Its standard output closes with it, not with the build. */
  char buf[64];
  ssize_t n, total = 0;
  while ((n = read(out[0], buf + total, sizeof buf - 1 - (size_t)total)) > 0)
    total += n;
  buf[total] = 0;
  close(out[0]);
  EXPECT_TRUE(now() - t0 < 0.9); /* the build takes a second */
  EXPECT_STREQ(buf, "started\n");
  char mark[256];
  snprintf(mark, sizeof mark, "%s/exit.mark", dir);
  ASSERT(wait_file(mark, 10000));
  FILE *m = fopen(mark, "r");
  ASSERT(m != NULL);
  char line[256] = "";
  EXPECT_TRUE(fgets(line, sizeof line, m) != NULL);
  fclose(m);
  EXPECT_TRUE(strstr(line, "table-intact") != NULL);
}

/* At most KERN__BG_MAX children per process; beyond, a start is refused
 * with a reason (the load then builds in the foreground). */
static void test_limit(void) {
  kern__bg *b[64];
  fake f = {300, 10, 0, 0, NULL, NULL};
  char why[256] = "";
  int started = 0;
  while (started < 64 &&
         (b[started] = kern__bg_start(fake_build, &f, NULL, 60, why,
                                      sizeof why)))
    started++;
  EXPECT_TRUE(started >= 2 && started < 64);
  EXPECT_TRUE(strstr(why, "running already") != NULL);
  for (int i = 0; i < started; i++) kern__bg_free(b[i]);
  /* Once they end they are reaped, and starts work again. */
  double t0 = now();
  while (kern__bg_children() > 0 && now() - t0 < 10) sleep_ms(20);
  EXPECT_EQ(kern__bg_children(), 0);
  kern__bg *again = kern__bg_start(fake_build, &f, NULL, 60, why, sizeof why);
  EXPECT_TRUE(again != NULL);
  if (again) EXPECT_EQ(kern__bg_poll(again, 1), KERN__BG_READY);
  kern__bg_free(again);
}

/* With a slot directory, no more builds run at once than there are
 * processors, whichever process started them. */
static void test_slots(void) {
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  if (ncpu < 1) ncpu = 1;
  if (ncpu > 8) return; /* would take long; the CI machines have 2 */
  int n = (int)ncpu * 2 + 1;
  kern__bg *b[17];
  fake f[17];
  char marks[17][256];
  char why[256];
  for (int i = 0; i < n; i++) {
    snprintf(marks[i], sizeof marks[i], "%s/slot%d.mark", dir, i);
    f[i] = (fake){150, 10, 0, 0, marks[i], NULL};
    b[i] = kern__bg_start(fake_build, &f[i], dir, 60, why, sizeof why);
    ASSERT(b[i] != NULL);
  }
  double t0[17], t1[17];
  for (int i = 0; i < n; i++) {
    EXPECT_EQ(kern__bg_poll(b[i], 1), KERN__BG_READY);
    kern__bg_free(b[i]);
    FILE *m = fopen(marks[i], "r");
    ASSERT(m != NULL);
    ASSERT_EQ(fscanf(m, "%lf %lf", &t0[i], &t1[i]), 2);
    fclose(m);
  }
  int most = 0;
  for (int i = 0; i < n; i++) { /* builds running when build i started */
    int k = 0;
    for (int j = 0; j < n; j++)
      if (t0[j] <= t0[i] + 1e-4 && t1[j] > t0[i] + 1e-4) k++;
    if (k > most) most = k;
  }
  printf("slots: %d builds, at most %d at once, %ld processors\n", n, most,
         ncpu);
  EXPECT_TRUE(most >= 1 && most <= ncpu);
}

/* Several threads start, poll, wait for and free builds at once. */
static void *thread_main(void *arg) {
  unsigned seed = (unsigned)(uintptr_t)arg;
  fake f = {20, 5000, 0, 0, NULL, NULL};
  for (int i = 0; i < 6; i++) {
    char why[256];
    kern__bg *b = kern__bg_start(fake_build, &f, NULL, 60, why, sizeof why);
    if (!b) {
      sleep_ms(30); /* the limit, with the other threads' builds */
      continue;
    }
    seed = seed * 1103515245u + 12345u;
    switch ((seed >> 16) % 3) {
    case 0:
      kern__bg_free(b); /* while it runs */
      break;
    case 1:
      EXPECT_EQ(kern__bg_poll(b, 1), KERN__BG_READY);
      kern__bg_free(b);
      break;
    default:
      while (kern__bg_poll(b, 0) == KERN__BG_RUNNING) sleep_ms(1);
      EXPECT_TRUE(kern__bg_image(b, NULL) != NULL);
      kern__bg_free(b);
    }
  }
  return NULL;
}

static void test_threads(void) {
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    ASSERT(pthread_create(&t[i], NULL, thread_main, (void *)(uintptr_t)(i + 1)) == 0);
  for (int i = 0; i < 4; i++) ASSERT(pthread_join(t[i], NULL) == 0);
  double t0 = now();
  while (kern__bg_children() > 0 && now() - t0 < 10) sleep_ms(20);
  EXPECT_EQ(kern__bg_children(), 0);
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "exit")) return exit_mode(argv[2]);
  ASSERT(mkdtemp(dir) != NULL);
  test_result();
  test_poll_only();
  test_failure();
  test_timeout();
  test_free_running();
  test_descriptors();
  test_exit_during_build(argv[0][0] == '/' ? argv[0] : "/proc/self/exe");
  test_limit();
  test_slots();
  test_threads();
  char cmd[64];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
  return kern_test_report("test_bgbuild");
}
