/* replay.c: main() for a libFuzzer target built without libFuzzer, so that
 * make check replays the committed corpus with the normal compiler (and
 * under ASan+UBSan in make check-sanitize).  Linked with one fuzz_*.c.
 *
 *   replay_TARGET [-n] [FILE|DIR]...
 *
 * Every file named, and every file in every directory named (in name
 * order, not recursively), is passed to LLVMFuzzerTestOneInput in a fresh
 * buffer of exactly its size, as libFuzzer does.  The output is TAP, one
 * test per input: each runs in a child process, so a crash, a sanitizer's
 * report or a hang (NB_FUZZ_TIMEOUT seconds, 60 by default) fails that
 * input alone and names it.  -n runs them all in this process instead (for
 * a debugger).  With no operand, $top_srcdir/tests/fuzz/corpus/TARGET is
 * replayed (top_srcdir defaults to .). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifndef NB_FUZZ_CORPUS
#error "NB_FUZZ_CORPUS (the corpus directory's name) must be defined"
#endif

typedef struct {
    char **v;
    size_t n, cap;
} list;

static void die(const char *what, const char *path)
{
    /* A plan of one failed test makes the harness report the reason. */
    printf("1..1\nnot ok 1 - %s: %s: %s\n", path, what, strerror(errno));
    exit(1);
}

static void push(list *l, char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        if (!l->v)
            die("out of memory", s);
    }
    l->v[l->n++] = s;
}

static char *join(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *s = malloc(la + lb + 2);
    if (!s)
        die("out of memory", a);
    memcpy(s, a, la);
    s[la] = '/';
    memcpy(s + la + 1, b, lb + 1);
    return s;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds PATH, or the regular files in it when it is a directory. */
static void collect(list *l, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        die("cannot stat", path);
    if (!S_ISDIR(st.st_mode)) {
        char *f = strdup(path);
        if (!f)
            die("out of memory", path);
        push(l, f);
        return;
    }
    DIR *d = opendir(path);
    if (!d)
        die("cannot open directory", path);
    size_t first = l->n;
    struct dirent *e;
    errno = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char *f = join(path, e->d_name);
        if (stat(f, &st) != 0)
            die("cannot stat", f);
        if (S_ISREG(st.st_mode))
            push(l, f);
        else
            free(f);
    }
    if (errno)
        die("cannot read directory", path);
    closedir(d);
    qsort(l->v + first, l->n - first, sizeof *l->v, by_name);
}

/* Runs the target on the file's bytes; returns 0, or -1 with errno set
 * when the file cannot be read. */
static int run(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf)
            break;
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        uint8_t *more = realloc(buf, cap *= 2);
        if (!more) {
            free(buf);
            buf = NULL;
        } else {
            buf = more;
        }
    }
    int bad = !buf || ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        errno = buf ? EIO : ENOMEM;
        return -1;
    }
    /* An exact copy, so that reading past the end is caught. */
    uint8_t *data = malloc(n ? n : 1);
    if (!data) {
        free(buf);
        errno = ENOMEM;
        return -1;
    }
    memcpy(data, buf, n);
    free(buf);
    (void)LLVMFuzzerTestOneInput(data, n);
    free(data);
    return 0;
}

/* The name printed for a path: from the corpus directory on. */
static const char *label(const char *path)
{
    const char *last = strrchr(path, '/');
    if (!last)
        return path;
    const char *p = last;
    while (p > path && p[-1] != '/')
        p--;
    return p;
}

int main(int argc, char **argv)
{
    int inprocess = 0, opt;
    while ((opt = getopt(argc, argv, "n")) != -1) {
        if (opt != 'n') {
            fprintf(stderr, "usage: %s [-n] [FILE|DIR]...\n", argv[0]);
            return 2;
        }
        inprocess = 1;
    }
    list files = {0};
    if (optind == argc) {
        const char *top = getenv("top_srcdir");
        char *dir = join(top && *top ? top : ".", "tests/fuzz/corpus/" NB_FUZZ_CORPUS);
        collect(&files, dir);
        free(dir);
    }
    for (int i = optind; i < argc; i++)
        collect(&files, argv[i]);
    unsigned timeout = 60;
    const char *t = getenv("NB_FUZZ_TIMEOUT");
    if (t && atoi(t) > 0)
        timeout = (unsigned)atoi(t);

    printf("1..%zu\n", files.n);
    fflush(stdout);
    size_t failed = 0;
    for (size_t i = 0; i < files.n; i++) {
        const char *path = files.v[i];
        char why[128] = "";
        if (inprocess) {
            if (run(path) != 0)
                snprintf(why, sizeof why, "cannot read: %s", strerror(errno));
        } else {
            pid_t pid = fork();
            if (pid < 0) {
                snprintf(why, sizeof why, "cannot fork: %s", strerror(errno));
            } else if (pid == 0) {
                alarm(timeout);
                if (run(path) != 0) {
                    fprintf(stderr, "%s: %s\n", path, strerror(errno));
                    exit(125);
                }
                exit(0); /* (so LeakSanitizer looks, per input) */
            } else {
                int st;
                while (waitpid(pid, &st, 0) < 0)
                    if (errno != EINTR) {
                        snprintf(why, sizeof why, "waitpid: %s", strerror(errno));
                        break;
                    }
                if (!why[0] && WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
                    snprintf(why, sizeof why, "took longer than %u s (NB_FUZZ_TIMEOUT)", timeout);
                else if (!why[0] && WIFSIGNALED(st))
                    snprintf(why, sizeof why, "killed by signal %d", WTERMSIG(st));
                else if (!why[0] && WEXITSTATUS(st) != 0)
                    snprintf(why, sizeof why, "exit status %d", WEXITSTATUS(st));
            }
        }
        if (why[0]) {
            failed++;
            printf("not ok %zu - %s: %s\n# reproduce: %s -n %s\n", i + 1, label(path), why,
                   argv[0], path);
        } else {
            printf("ok %zu - %s\n", i + 1, label(path));
        }
        fflush(stdout);
    }
    for (size_t i = 0; i < files.n; i++)
        free(files.v[i]);
    free(files.v);
    return failed ? 1 : 0;
}
