/* test_killed_write.c: a writer killed with SIGKILL leaves its temporary
 * file (BUNDLE.tmp-PID-N) behind, since nothing runs in it after the
 * signal; the next bake of the same output removes it.  First a process
 * that holds one and kills itself (always), then mkclear itself, stopped
 * with SIGSTOP while its temporary file exists and then killed (skipped
 * when the write is over before the file is seen).  tests/cli/stale-temp.sh
 * checks which files a bake removes and which it keeps. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

/* The name of the first entry of dir that starts with prefix, in a static
 * buffer, or NULL. */
static const char *find_entry(const char *dir, const char *prefix)
{
    static char name[256];
    DIR *d = opendir(dir);
    const char *found = NULL;
    for (struct dirent *e; d && !found && (e = readdir(d));)
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) {
            snprintf(name, sizeof name, "%s", e->d_name);
            found = name;
        }
    if (d)
        closedir(d);
    return found;
}

static int killed_by(int status, int sig)
{
    return WIFSIGNALED(status) && WTERMSIG(status) == sig;
}

static void library_writer(const nbi_legend *legend, const nbi_agentset *agents,
                           const nbb_grid *grid)
{
    const char *dir = tu_path(tu_tmpdir(), "lib");
    tu_system("mkdir -p '%s'", dir);
    const char *path = tu_path(dir, "s.nbk");
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        nbb_tempfile t;
        nb_err err;
        static uint8_t block[1 << 16];
        memset(block, 0x5a, sizeof block);
        if (nbb_tempfile_create(&t, path, &err) != NB_OK)
            _exit(1);
        for (int i = 0; i < 16; i++)
            if (write(t.fd, block, sizeof block) != (ssize_t)sizeof block)
                _exit(1);
        kill(getpid(), SIGKILL);
        _exit(2);
    }
    int status;
    waitpid(pid, &status, 0);
    ok(killed_by(status, SIGKILL), "a writer killed with SIGKILL while it holds a temporary file");
    char name[64];
    snprintf(name, sizeof name, "s.nbk.tmp-%ld-0", (long)pid);
    struct stat sb;
    ok(stat(tu_path(dir, name), &sb) == 0 && sb.st_size == 16 << 16,
       "leaves it behind, as written (%s)", name);
    nb_err err;
    if (!ok(tu_write_cleared(path, legend, agents, grid, 0, &err) == NB_OK, "the next bake"))
        diag("%s", err.msg);
    ok(stat(tu_path(dir, name), &sb) != 0, "removes it");
    is_int(tu_count_entries(dir), 1, "and leaves only the bundle");
}

/* A map of side n (about a fifth obstacles) in a MovingAI file. */
static int write_map(const char *path, unsigned n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    tu_rng r = {11};
    fprintf(f, "type octile\nheight %u\nwidth %u\nmap\n", n, n);
    for (unsigned y = 0; y < n; y++) {
        for (unsigned x = 0; x < n; x++)
            putc(tu_below(&r, 5) ? '.' : '@', f);
        putc('\n', f);
    }
    return fclose(f);
}

/* mkclear to dir/big.nbk, caught while its temporary file exists: 1 when
 * it was stopped there and killed (*name the file), 0 when its write was
 * over first. */
static int kill_mkclear(const char *mkclear, const char *map, const char *dir, char *name,
                        size_t cap)
{
    const char *out = tu_path(dir, "big.nbk");
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execl(mkclear, "mkclear", "-q", map, "-o", out, (char *)NULL);
        _exit(127);
    }
    const char *seen = NULL;
    int status;
    for (;;) {
        if ((seen = find_entry(dir, "big.nbk.tmp-")) != NULL) {
            kill(pid, SIGSTOP);
            if (waitpid(pid, &status, WUNTRACED) != pid || !WIFSTOPPED(status))
                return 0; /* it was done */
            /* Stopped: if the file is still there, it holds it. */
            if ((seen = find_entry(dir, "big.nbk.tmp-")) != NULL)
                break;
            kill(pid, SIGCONT);
        }
        if (waitpid(pid, &status, WNOHANG) == pid)
            return 0;
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    snprintf(name, cap, "%s", seen);
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return killed_by(status, SIGKILL);
}

static void tool_writer(void)
{
    const char *top = getenv("top_builddir");
    if (!top) {
        skip(5, "top_builddir not set: mkclear not found");
        return;
    }
    char mkclear[1024];
    snprintf(mkclear, sizeof mkclear, "%s/tools/mkclear", top);
    const char *dir = tu_path(tu_tmpdir(), "tool");
    const char *map = tu_path(tu_tmpdir(), "big.map");
    tu_system("mkdir -p '%s'", dir);
    if (!ok(write_map(map, 2000) == 0, "a 2000 x 2000 map")) {
        skip(4, "no map");
        return;
    }
    char name[256];
    int caught = 0;
    for (int attempt = 0; attempt < 5 && !caught; attempt++)
        caught = kill_mkclear(mkclear, map, dir, name, sizeof name);
    if (!caught) {
        skip(4, "mkclear's write was always over before its temporary file was seen");
        return;
    }
    struct stat sb;
    ok(stat(tu_path(dir, name), &sb) == 0, "mkclear, stopped while writing and killed, leaves %s",
       name);
    ok(tu_system("'%s' -q '%s' -o '%s'", mkclear, map, tu_path(dir, "big.nbk")) == 0,
       "mkclear again");
    ok(stat(tu_path(dir, name), &sb) != 0, "removes it");
    ok(find_entry(dir, "big.nbk.tmp-") == NULL && tu_count_entries(dir) == 1,
       "and leaves only the bundle");
}

int main(void)
{
    nbi_legend legend;
    nbi_agentset agents;
    nbb_grid grid;
    tu_read_sample(&legend, &agents, &grid);
    library_writer(&legend, &agents, &grid);
    tool_writer();
    nbb_grid_free(&grid);
    return done_testing();
}
