/* reduce.c: makes a failing bundle smaller while it still fails, section
 * by section (libFuzzer's -minimize_crash works on bytes and keeps every
 * section it cannot cut in one piece).
 *
 *   tests/fuzz/reduce REPLAY IN OUT
 *
 * REPLAY is a replay program (tests/fuzz/replay_queries...); an input
 * fails when `REPLAY -n FILE` exits with a status other than 0 (a crash, a
 * sanitizer's report, an abort).  Each section of IN is taken out in turn,
 * and left out when the bundle still fails without it, until no section
 * can go.  OUT is the smallest failing bundle found, laid out with every
 * CRC computed (mutate.h).  Built by 'make tests/fuzz/reduce'. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mutate.h"

static const char *replay;
static char tmp[] = "/tmp/nbf-reduce-XXXXXX";

static int fails(const nbf_bundle *b)
{
    size_t cap = 64 << 20;
    uint8_t *buf = malloc(cap);
    size_t n = buf ? nbf_write(b, NULL, buf, cap) : 0;
    FILE *f = n ? fopen(tmp, "wb") : NULL;
    int ok = f && fwrite(buf, 1, n, f) == n;
    if (f)
        ok = fclose(f) == 0 && ok;
    free(buf);
    if (!ok)
        return 0;
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, 1);
            dup2(null, 2);
        }
        execl(replay, replay, "-n", tmp, (char *)NULL);
        _exit(127);
    }
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) < 0)
        return 0;
    return !(WIFEXITED(st) && (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 127));
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s REPLAY IN OUT\n", argv[0]);
        return 2;
    }
    replay = argv[1];
    FILE *f = fopen(argv[2], "rb");
    if (!f) {
        perror(argv[2]);
        return 1;
    }
    size_t cap = 64 << 20, n;
    uint8_t *data = malloc(cap);
    n = fread(data, 1, cap, f);
    fclose(f);
    nbf_bundle b;
    if (!nbf_parse(data, n, &b)) {
        fprintf(stderr, "%s: not a binary bundle\n", argv[2]);
        return 1;
    }
    int fd = mkstemp(tmp);
    if (fd < 0)
        return 1;
    close(fd);
    if (!fails(&b)) {
        fprintf(stderr, "%s: laid out again, it does not fail (a layout or CRC fault?)\n", argv[2]);
        unlink(tmp);
        return 1;
    }
    for (int pass = 0, changed = 1; changed && pass < 4; pass++) {
        changed = 0;
        for (size_t i = b.n; i-- > 0;) {
            nbf_bundle t = b;
            nbf_section s = b.s[i];
            memmove(&b.s[i], &b.s[i + 1], (b.n - i - 1) * sizeof *b.s);
            b.n--;
            if (fails(&b)) {
                free(s.data);
                changed = 1;
                fprintf(stderr, "section %zu (type %u) left out\n", i, (unsigned)s.info.type);
            } else {
                b = t;
                memmove(&b.s[i + 1], &b.s[i], (b.n - i - 1) * sizeof *b.s);
                b.s[i] = s;
            }
        }
    }
    size_t total = 0;
    for (size_t i = 0; i < b.n; i++)
        total += b.s[i].len;
    size_t out = nbf_write(&b, NULL, data, cap);
    f = fopen(argv[3], "wb");
    if (!f || fwrite(data, 1, out, f) != out || fclose(f) != 0) {
        perror(argv[3]);
        return 1;
    }
    fprintf(stderr, "%s: %zu sections, %zu bytes (from %zu)\n", argv[3], b.n, out, n);
    unlink(tmp);
    nbf_free(&b);
    free(data);
    return 0;
}
