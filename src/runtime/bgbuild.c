/*
 * bgbuild.c -- a build that runs in a child process while the caller goes
 * on: the PTX tier's NVRTC build (Note [PTX tier] in cuda_module.c).
 *
 * Design choice: a process, not a thread.  See Note [background builds].
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runtime.h"
#include "bgbuild.h"

/* Note [background builds]
 * The PTX tier runs a module on kern's PTX at once and builds the final
 * code with NVRTC meanwhile.  That build used to run on a thread of the
 * process (Note [build threads] in its first form), and on fresh H100
 * machines about one cold CUDA run in eight hung or crashed (issue #22):
 * NVRTC, the driver's PTX JIT and process exit then share one address
 * space, one set of exit handlers and one dynamic loader.  Two ways that
 * cannot be made safe from outside the vendor libraries:
 *  - exit() runs the handlers registered with atexit/__cxa_atexit in the
 *    reverse order of registration.  NVRTC registers the destructors of its
 *    function-local statics when it first reaches them -- during the first
 *    compile, so after any handler of ours -- and exit() then destroys them
 *    while the build thread is still inside NVRTC (a crash), or destroys a
 *    lock it waits on (a hang), before our handler could wait for it;
 *  - NVRTC and the driver's JIT (libnvidia-ptxjitcompiler) are two copies of
 *    one compiler, run at once on two threads of one process.
 * So the build runs in a child process: fork(), the child compiles, stores
 * the result in the kernel cache (rename: atomic for processes sharing the
 * cache), writes it down a pipe and _exit()s.  The parent never runs NVRTC
 * for such a module, and what happens to the build is independent of what
 * the parent does:
 *  - exit, or death by a signal: nothing to wait for; the child finishes
 *    and fills the cache for the next run (a SIGPIPE it would get writing
 *    to the closed pipe is ignored), or is killed with the process group
 *    (a terminal's ^C);
 *  - the module, the context or the device going away: kern__bg_free
 *    closes the pipe and never waits; the child does not touch any device;
 *  - two processes: each build stores under its own temporary name and
 *    renames (cache.c), so they never see half an entry.
 * The child must be careful, being the fork of a process that may have
 * other threads: it closes every inherited descriptor (so a shell's
 * `$(kern run ...)` or a test harness reading the parent's output does not
 * wait for the build), resets the signals it relies on, calls only the
 * build function (which touches no lock of kern's) and _exit()s, so no
 * exit handler of the parent's libraries runs in it.  glibc makes malloc,
 * stdio and the dynamic loader usable after fork; a lock of NVRTC's held by
 * another thread of the parent at the fork (another NVRTC compile in
 * flight) would block the child, which alarm() ends after
 * the caller's time limit: the parent then sees a failed build and keeps the
 * PTX.  Builds are bounded twice: at most KERN__BG_MAX children per
 * process (a start beyond that is refused, and the caller builds in the
 * foreground), and, when there is a cache directory, at most one running
 * NVRTC per processor per cache directory across processes: a child first
 * takes one of ncpu flock()ed slot files there and waits for one when all
 * are taken (the kernel drops the lock when the child ends, however it
 * ends).  Children are reaped by whoever next starts, polls or frees a
 * build; an application that reaps every child itself (SIGCHLD ignored,
 * waitpid(-1)) loses nothing, since the result comes down the pipe. */

enum { KERN__BG_MAX = 16 };
enum { BG_MAGIC = 0x6b62676e }; /* "kbgn" */

struct kern__bg {
  pid_t pid;
  int fd; /* the pipe's read end, -1 once read */
  int state;
  void *image;
  size_t size;
  struct timespec next; /* the next unforced look at the pipe */
  char why[512];
};

/* Every child not yet reaped, whether its build is still wanted or not. */
static pthread_mutex_t bg_mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
  pid_t pid;
  int owned; /* a kern__bg still wants its result: collect() reaps it */
} bg_pids[KERN__BG_MAX];
static int bg_npids;

/* Under bg_mu: forgets the children nobody waits for that have ended. */
static void reap_locked(void) {
  for (int i = 0; i < bg_npids;) {
    pid_t r = bg_pids[i].owned ? 0 : waitpid(bg_pids[i].pid, NULL, WNOHANG);
    if (r == bg_pids[i].pid || (r < 0 && errno == ECHILD))
      bg_pids[i] = bg_pids[--bg_npids];
    else
      i++;
  }
}

/* Under bg_mu: pid's slot, or -1. */
static int find_locked(pid_t pid) {
  for (int i = 0; i < bg_npids; i++)
    if (bg_pids[i].pid == pid) return i;
  return -1;
}

static int write_full(int fd, const void *p, size_t n) {
  const char *c = p;
  while (n) {
    ssize_t w = write(fd, c, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    c += w;
    n -= (size_t)w;
  }
  return 0;
}

/* 0 when all n bytes came, 1 at end of file before any, -1 otherwise. */
static int read_full(int fd, void *p, size_t n) {
  char *c = p;
  size_t got = 0;
  while (got < n) {
    ssize_t r = read(fd, c + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) return got ? -1 : 1;
    got += (size_t)r;
  }
  return 0;
}

typedef struct bg_header {
  uint32_t magic;
  uint32_t ok;
  uint64_t size; /* bytes that follow: the image, or the reason */
} bg_header;

/* In the child: one of ncpu build slots under dir (Note [background
 * builds]); the descriptor stays open, and so locked, until _exit. */
static void take_slot(const char *dir) {
  char path[4096];
  if (snprintf(path, sizeof path, "%s/.build-slots", dir) >= (int)sizeof path)
    return;
  (void)mkdir(path, 0700);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1) n = 1;
  if (n > 64) n = 64;
  int fds[64];
  for (long i = 0; i < n; i++) {
    fds[i] = -1;
    if (snprintf(path, sizeof path, "%s/.build-slots/%ld", dir, i) >=
        (int)sizeof path)
      return;
    fds[i] = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fds[i] >= 0 && flock(fds[i], LOCK_EX | LOCK_NB) == 0) return;
  }
  int fd = fds[getpid() % n];
  if (fd >= 0)
    while (flock(fd, LOCK_EX) != 0 && errno == EINTR) {
    }
}

/* In the child, after fork: never returns. */
static void child_main(int wfd, kern__bg_fn fn, void *arg,
                       const char *slot_dir, unsigned timeout_s) {
  /* The pipe moves to descriptor 3; 0-2 become /dev/null; every other
   * inherited descriptor is closed. */
  int null = open("/dev/null", O_RDWR);
  if (wfd != 3) {
    if (dup2(wfd, 3) < 0) _exit(127);
    wfd = 3;
  }
  for (int fd = 0; fd < 3; fd++)
    if (null >= 0 && null != fd) dup2(null, fd);
#ifdef SYS_close_range
  if (syscall(SYS_close_range, 4u, ~0u, 0u) != 0)
#endif
  {
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536) max = 65536;
    for (long fd = 4; fd < max; fd++) close((int)fd);
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &sa, NULL);
  sa.sa_handler = SIG_DFL;
  sigaction(SIGALRM, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGSEGV, &sa, NULL);
  sigaction(SIGBUS, &sa, NULL);
  sigaction(SIGABRT, &sa, NULL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  alarm(timeout_s);

  if (slot_dir) take_slot(slot_dir);
  void *image = NULL;
  size_t size = 0;
  char why[512];
  why[0] = 0;
  int ok = fn(arg, &image, &size, why, sizeof why) == 0 && image;
  bg_header h = {BG_MAGIC, (uint32_t)ok, ok ? size : strlen(why)};
  if (write_full(wfd, &h, sizeof h) == 0)
    (void)write_full(wfd, ok ? image : why, (size_t)h.size);
  _exit(0);
}

kern__bg *kern__bg_start(kern__bg_fn fn, void *arg, const char *slot_dir,
                         unsigned timeout_s, char *why, size_t whysz) {
  kern__bg *b = kern__calloc(1, sizeof *b);
  if (!b) {
    snprintf(why, whysz, "out of memory");
    return NULL;
  }
  b->fd = -1;
  pthread_mutex_lock(&bg_mu);
  reap_locked();
  if (bg_npids >= KERN__BG_MAX) {
    pthread_mutex_unlock(&bg_mu);
    snprintf(why, whysz, "%d background builds are running already",
             bg_npids);
    kern__free(b);
    return NULL;
  }
  /* A slot is reserved under the lock and filled after the fork: no lock
   * of ours is held across fork() (the child never takes it, but
   * ThreadSanitizer loses track of a mutex held there). */
  int slot = bg_npids++;
  bg_pids[slot].pid = 0;
  bg_pids[slot].owned = 1;
  pthread_mutex_unlock(&bg_mu);
  int p[2];
  pid_t pid = -1;
  int e = 0;
  if (pipe2(p, O_CLOEXEC) != 0) {
    e = errno;
    snprintf(why, whysz, "pipe: %s", strerror(e));
  } else {
    pid = fork();
    if (pid == 0) child_main(p[1], fn, arg, slot_dir, timeout_s);
    e = errno;
    close(p[1]);
    if (pid < 0) {
      close(p[0]);
      snprintf(why, whysz, "fork: %s", strerror(e));
    }
  }
  pthread_mutex_lock(&bg_mu);
  /* The slot may have moved while the lock was free (reap_locked swaps
   * the last entry into a freed one): find it again as the reserved one. */
  int i = find_locked(0);
  if (pid < 0) {
    if (i >= 0) bg_pids[i] = bg_pids[--bg_npids];
    pthread_mutex_unlock(&bg_mu);
    kern__free(b);
    return NULL;
  }
  if (i >= 0) bg_pids[i].pid = pid;
  pthread_mutex_unlock(&bg_mu);
  b->pid = pid;
  b->fd = p[0];
  b->state = KERN__BG_RUNNING;
  return b;
}

/* Reads the child's message once the pipe has something (or has closed). */
static void collect(kern__bg *b) {
  bg_header h;
  int r = read_full(b->fd, &h, sizeof h);
  if (r == 0 && h.magic == BG_MAGIC && h.size <= ((uint64_t)1 << 32)) {
    char *body = kern__malloc(h.size ? (size_t)h.size : 1);
    if (!body) {
      snprintf(b->why, sizeof b->why, "out of memory reading the build");
    } else if (read_full(b->fd, body, (size_t)h.size) != 0) {
      snprintf(b->why, sizeof b->why, "the build's result was cut short");
      kern__free(body);
    } else if (h.ok) {
      b->image = body;
      b->size = (size_t)h.size;
    } else {
      snprintf(b->why, sizeof b->why, "%.*s", (int)h.size, body);
      if (!b->why[0]) snprintf(b->why, sizeof b->why, "the build failed");
      kern__free(body);
    }
  }
  close(b->fd);
  b->fd = -1;
  /* The child has written everything or has ended: reap it if it has. */
  int status = 0;
  pthread_mutex_lock(&bg_mu);
  pid_t w = waitpid(b->pid, &status, r == 1 ? 0 : WNOHANG);
  int i = find_locked(b->pid);
  if (i >= 0) {
    if (w == b->pid || (w < 0 && errno == ECHILD))
      bg_pids[i] = bg_pids[--bg_npids];
    else
      bg_pids[i].owned = 0; /* still exiting: reap_locked's */
  }
  pthread_mutex_unlock(&bg_mu);
  if (r == 1) { /* no message at all: the child died */
    if (w == b->pid && WIFSIGNALED(status))
      snprintf(b->why, sizeof b->why,
               "the build process was killed by signal %d (%s)%s",
               WTERMSIG(status), strsignal(WTERMSIG(status)),
               WTERMSIG(status) == SIGALRM ? ": it took longer than the "
                                             "background build's limit"
                                           : "");
    else if (w == b->pid)
      snprintf(b->why, sizeof b->why,
               "the build process exited with status %d and no result",
               WEXITSTATUS(status));
    else
      snprintf(b->why, sizeof b->why, "the build process ended with no result");
  } else if (r < 0 && !b->why[0]) {
    snprintf(b->why, sizeof b->why, "the build's result was unreadable");
  }
  b->state = b->image ? KERN__BG_READY : KERN__BG_FAILED;
}

int kern__bg_poll(kern__bg *b, int wait) {
  if (!b) return KERN__BG_FAILED;
  if (b->state != KERN__BG_RUNNING) return b->state;
  if (!wait) {
    /* A launch may call this millions of times a second: look at the pipe
     * at most once a millisecond (the coarse clock is a vDSO read). */
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
    if (now.tv_sec < b->next.tv_sec ||
        (now.tv_sec == b->next.tv_sec && now.tv_nsec < b->next.tv_nsec))
      return KERN__BG_RUNNING;
    b->next = now;
    b->next.tv_nsec += 1000000;
    if (b->next.tv_nsec >= 1000000000) {
      b->next.tv_sec++;
      b->next.tv_nsec -= 1000000000;
    }
  }
  struct pollfd pf = {b->fd, POLLIN, 0};
  int r;
  do r = poll(&pf, 1, wait ? -1 : 0);
  while (r < 0 && errno == EINTR);
  if (r == 0) return KERN__BG_RUNNING;
  collect(b);
  return b->state;
}

const void *kern__bg_image(const kern__bg *b, size_t *size) {
  if (!b || b->state != KERN__BG_READY) return NULL;
  if (size) *size = b->size;
  return b->image;
}

const char *kern__bg_why(const kern__bg *b) {
  return b && b->why[0] ? b->why : "";
}

void kern__bg_drop_image(kern__bg *b) {
  if (!b) return;
  kern__free(b->image);
  b->image = NULL;
  b->size = 0;
}

void kern__bg_free(kern__bg *b) {
  if (!b) return;
  if (b->fd >= 0) close(b->fd); /* the child finishes alone */
  pthread_mutex_lock(&bg_mu);
  int i = b->state == KERN__BG_RUNNING ? find_locked(b->pid) : -1;
  if (i >= 0) bg_pids[i].owned = 0;
  reap_locked();
  pthread_mutex_unlock(&bg_mu);
  kern__free(b->image);
  kern__free(b);
}

int kern__bg_children(void) {
  pthread_mutex_lock(&bg_mu);
  reap_locked();
  int n = bg_npids;
  pthread_mutex_unlock(&bg_mu);
  return n;
}
