/* progress.h: what a long-running tool shows while it works.  On a
 * terminal, one line on standard error rewritten in place (what, how far,
 * the rate and an estimate of the time left), erased when the work ends;
 * nothing when standard error is not a terminal or with -q; with
 * --progress=json, one JSON object a line on standard error whatever it
 * is, for build systems.  Redrawn at most every 0.2 s (JSON: 0.5 s), so
 * that reporting costs a clock read per update. */
#ifndef NB_PROGRESS_H
#define NB_PROGRESS_H

typedef enum nbc_progress_mode {
    NBC_PROGRESS_AUTO = 0, /* the line when standard error is a terminal */
    NBC_PROGRESS_NONE,     /* -q, --progress=none */
    NBC_PROGRESS_JSON      /* --progress=json */
} nbc_progress_mode;

/* --progress=WHEN: auto, none or json.  On error prints a usage message
 * and returns 0. */
int nbc_progress_mode_parse(const char *text, nbc_progress_mode *out);
/* Its getopt_long entry and value (long only, far from the tools' own). */
#define NBC_OPT_PROGRESS 0x4e43
#define NBC_PROGRESS_OPTION {"progress", required_argument, NULL, NBC_OPT_PROGRESS}
#define NBC_PROGRESS_HELP \
    "      --progress WHEN  auto (default: a line on standard error when it is a\n" \
    "                     terminal), none, or json (a JSON object a line, always)\n"

typedef struct nbc_progress {
    int out;           /* 0 nothing, 1 the terminal line, 2 JSON */
    const char *what;  /* "baking clearance" */
    double total;      /* units of work in all (cells, tables, lines) */
    const char *unit;  /* their name, plural */
    double start, next; /* microseconds: when it began, when to draw next */
    double fraction;
    int width;         /* of the line last drawn, to blank what it leaves */
} nbc_progress;

/* Starts a task of total units (total 0: no rate is shown).  quiet (-q)
 * turns NBC_PROGRESS_AUTO off; an explicit json stays. */
void nbc_progress_start(nbc_progress *p, nbc_progress_mode mode, int quiet, const char *what,
                        double total, const char *unit);
/* The fraction done, 0 to 1; takes an nbc_progress * as arg, so that it is
 * an nbb_progress_fn for the bake side. */
void nbc_progress_update(void *arg, double fraction);
/* The same with units done. */
void nbc_progress_units(nbc_progress *p, double done);
/* Erases the line before the tool writes to standard error itself (the
 * next update draws it again). */
void nbc_progress_clear(nbc_progress *p);
/* Ends the task: erases the line (the tool's own output follows); JSON
 * says it finished, and how long it took. */
void nbc_progress_end(nbc_progress *p);

#endif
