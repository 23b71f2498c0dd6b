/* cli.h: what the command-line tools share: messages in the Unix manner,
 * exit codes (exit_status.h) and value parsing. */
#ifndef NB_CLI_H
#define NB_CLI_H

#include <stdio.h>
#include <string.h>

#include "bake.h"
#include "exit_status.h"

/* The program name used in messages ("navbake info", "mkclear"). */
extern const char *nbc_prog;

/* "prog: message" on standard error; returns NBC_EXIT_FAIL. */
int nbc_fail(const char *fmt, ...) NBP_PRINTF(1, 2);
/* Prints an nb_err; returns NBC_EXIT_FAIL. */
int nbc_fail_err(const nb_err *err);
/* "prog: message" and a pointer to --help; returns NBC_EXIT_USAGE. */
int nbc_usage(const char *fmt, ...) NBP_PRINTF(1, 2);
/* After getopt_long's own message on an option it does not know or that
 * lacks its value: the pointer to --help alone (one error, not two);
 * returns NBC_EXIT_USAGE. */
int nbc_bad_option(void);
/* Prints "prog (navbake) VERSION"; returns NBC_EXIT_OK. */
int nbc_version(void);

/* A whole number in [min, max] from an option's value; on error prints a
 * usage message naming the option and returns 0. */
int nbc_uint(const char *opt, const char *text, unsigned long min, unsigned long max,
             unsigned long *out);
/* --neighbourhood: 8, 24 or 48 (the cells at distance 1, 2 or 3). */
int nbc_neighbourhood(const char *text, unsigned long *out);
/* A finite real in [min, max]. */
int nbc_real(const char *opt, const char *text, double min, double max, double *out);
/* "X,Y", two whole numbers from -2^31 to 2^31 - 1 (nbc_cell_on_map says
 * whether they name a cell). */
int nbc_point(const char *opt, const char *text, long *x, long *y);
/* 1 when cell (x, y) is on a w x h map; else a usage message naming the
 * option and the map's size ("--from -1,5 is outside the 64 x 40 map
 * (cells 0,0 to 63,39)") and 0. */
int nbc_cell_on_map(const char *opt, long x, long y, unsigned long w, unsigned long h);
/* "X,Y", two finite reals, within [xmin, xmax] x [ymin, ymax]; else a
 * usage message naming the option and 0. */
int nbc_real_point(const char *opt, const char *text, double xmin, double xmax, double ymin,
                   double ymax, double *x, double *y);
/* A whole number from 0 to 2^64 - 1 (a seed); else a usage message. */
int nbc_uint64(const char *opt, const char *text, uint64_t *out);

/* Samples every step along a path of length len, both ends included: so
 * that no command prints without bound, at most NBC_MAX_SAMPLES.  On
 * success *last is the index of the last (at len), and the samples are
 * i * step for i < *last; else a usage message naming the option, and 0. */
#define NBC_MAX_SAMPLES 1000000
int nbc_samples(const char *opt, double step, double len, size_t *last);

/* --format FORM for every tool that writes a bundle: "binary" or "sqlite"
 * (or "auto": by the output's name, the default).  On error prints a usage
 * message and returns 0.  The writer takes the result:
 * nbb_builder_write_format(builder, out, format, &err). */
int nbc_format(const char *opt, const char *text, nbb_format *out);
/* Its getopt_long entry (long only) and the value getopt_long returns: far
 * from 256, where the tools number their own long-only options. */
#define NBC_OPT_FORMAT 0x4e42
#define NBC_FORMAT_OPTION {"format", required_argument, NULL, NBC_OPT_FORMAT}
#define NBC_FORMAT_HELP \
    "      --format FORM  write the bundle as 'binary' or 'sqlite' (default: sqlite\n" \
    "                     when OUT ends in .sqlite, .sqlite3 or .db, else binary)\n"
/* Prints s as a JSON string, quoted and escaped: control characters as
 * \u00XX, and each byte that is not part of valid UTF-8 as the code point
 * of the same value, so that the output is always valid JSON (to standard
 * output, or f). */
void nbc_json_string(const char *s);
void nbc_json_string_to(FILE *f, const char *s);
/* s for plain text: every byte outside printable ASCII (control
 * characters, DEL, anything from 0x80) as \xHH and a backslash as \\, so
 * that a name never sends a terminal escape code.  Written into buf
 * (len bytes; cut short if it does not fit); returns buf. */
const char *nbc_printable(const char *s, char *buf, size_t len);
/* The room nbc_printable needs for a name of NB_NAME_MAX bytes. */
#define NBC_PRINTABLE_NAME (4 * NB_NAME_MAX + 1)

/* -j N, --threads N of the bakers: 1 to NBB_MAX_THREADS. */
int nbc_threads(const char *opt, const char *text, unsigned *out);
#define NBC_THREADS_HELP \
    "  -j, --threads N       threads to bake on, 1 to 256 (default: the online CPUs,\n" \
    "                        %u here); the bytes are the same for any number\n"

/* Microseconds of the monotonic clock. */
double nbc_now_us(void);

/* 1 when standard error is a terminal (progress may be shown). */
int nbc_progress_ok(void);

/* Writes to a stream and checks it at the end: a full disk or a closed
 * pipe is a failure, not silence.  Returns NBC_EXIT_FAIL on a write error. */
int nbc_close_stdout(void);

#endif
