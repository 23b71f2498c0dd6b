/* world_slurm.c: a world's plan as a shell script that submits it to Slurm
 * with sbatch: the tiles as a job array (one navbake world tile --index a
 * task), then the link as a job that starts once every tile action has
 * ended well (afterok) and is cancelled if one has not.  One script that
 * runs sbatch, rather than batch files for the user to chain: the link's
 * dependency needs the array's job id, known only at submission. */
#include "world_plan.h"

/* " --NAME='VALUE'" when the value was given. */
static void request(FILE *f, const char *name, const char *value)
{
    if (!value)
        return;
    fprintf(f, " --%s=", name);
    nbc_shell_word(f, value, 0);
}

static void requests(FILE *f, const char *log, const nbc_slurm_opts *o)
{
    fprintf(f, " \\\n    --chdir=\"$dir\" --output=\"$dir/slurm/%s\"", log);
    request(f, "partition", o->partition);
    request(f, "time", o->time);
    request(f, "mem", o->mem);
    fputs(" \"$@\"", f);
}

/* The batch script sbatch reads from standard input: one navbake action,
 * on the CPUs Slurm gave it (not every CPU of the node).  The
 * here-document is quoted: its text reaches sbatch as written.  pick:
 * the line that finds the task's tile, or none. */
static void job(FILE *f, const nbc_world_plan *p, const char *action, const char *pick,
                const char *index)
{
    fputs(" <<'EOF'\n#!/bin/sh\n", f);
    fputs(pick, f);
    fputs("exec ", f);
    nbc_shell_word(f, p->navbake, 0);
    fprintf(f, " world %s ", action);
    nbc_shell_word(f, p->manifest, 0);
    fputs(index, f);
    fputs(" -j \"${SLURM_CPUS_ON_NODE:-1}\" -o ", f);
    nbc_shell_word(f, p->out, 0);
    fputs("\nEOF\n", f);
}

/* The loop that submits `count` tile actions as arrays below
 * MaxArraySize (task t of an array is action first + t), each array
 * waiting for the jobs in $deps when `after`; the arrays' ids are
 * printed as "KIND ID" and gathered in $ids. */
static void arrays(FILE *f, const nbc_world_plan *p, const nbc_slurm_opts *o, const char *kind,
                   size_t count, int after, const char *pick, const char *index)
{
    fprintf(f,
            "first=0 ids=\n"
            "while [ \"$first\" -lt %zu ]; do\n"
            "  n=$((%zu - first))\n"
            "  [ \"$n\" -le \"$max\" ] || n=$max\n"
            "  id=$(sbatch --parsable --job-name=navbake-%s",
            count, count, kind);
    if (after)
        fputs(" --dependency=\"afterok$deps\" --kill-on-invalid-dep=yes", f);
    fputs(" --array=\"0-$((n - 1))", f);
    if (o->throttle)
        fprintf(f, "%%%lu", o->throttle);
    fputs("\" \\\n    --export=\"ALL,NAVBAKE_FIRST_TILE=$first\"", f);
    char log[32];
    snprintf(log, sizeof log, "%s-%%A_%%a.out", kind);
    requests(f, log, o);
    job(f, p, "tile", pick, index);
    fprintf(f,
            "  )\n"
            "  id=${id%%%%;*}\n"
            "  echo \"%s $id\"\n"
            "  ids=\"$ids:$id\"\n"
            "  first=$((first + n))\n"
            "done\n",
            kind);
}

/* A list the tasks read, one line a task: "$dir/slurm/NAME.list". */
static void list(FILE *f, const nbc_world_plan *p, const char *name, int twins)
{
    fprintf(f, "cat >\"$dir/slurm/%s.list\" <<'EOF'\n", name);
    size_t n = (size_t)p->w.columns * p->w.rows;
    for (size_t i = 0; i < n; i++) {
        uint32_t t = p->twin[i];
        if (twins && t != i)
            fprintf(f, "%zu %u,%u\n", i, t % p->w.columns, t / p->w.columns);
        else if (!twins && t == i)
            fprintf(f, "%zu\n", i);
    }
    fputs("EOF\n", f);
}

void nbc_world_slurm(FILE *f, const nbc_world_plan *p, const nbc_slurm_opts *o)
{
    int twins = p->twin && p->twins;
    fputs("#!/bin/sh\n"
          "# A navbake world's bake on Slurm (navbake world plan, formats/world.md):\n"
          "# the tiles as a job array, then the link, which starts when every tile\n"
          "# action has ended well and is cancelled if one has not.  Run it where\n"
          "# sbatch runs, on a file system every node sees at these paths:\n"
          "#   sh FILE [SBATCH OPTION]...\n"
          "# The options are given to every sbatch.  Prints 'tiles JOBID' for each\n"
          "# array and 'link JOBID'.  The jobs' logs go to the output folder's slurm/.\n"
          "# Plan again after the manifest changes.\n",
          f);
    if (twins)
        fputs("# Tiles baked from the same cells as another (twins) are updated from\n"
              "# its bundle by arrays of their own ('twins JOBID'), which start once\n"
              "# every other tile action has ended well.\n",
              f);
    fputs("set -e\n", f);
    fputs("dir=", f);
    nbc_shell_word(f, p->out, 0);
    fputs("\n# An array's task ids are below the cluster's MaxArraySize (1001 unless\n"
          "# it says otherwise): a larger world is several arrays.\n"
          "max=$(scontrol show config 2>/dev/null | sed -n 's/^MaxArraySize *= *\\([0-9]*\\).*/\\1/p')\n"
          "[ \"${max:-0}\" -gt 0 ] || max=1001\n"
          "mkdir -p \"$dir/tiles\" \"$dir/slurm\"\n",
          f);
    size_t n = (size_t)p->w.columns * p->w.rows;
    if (!twins)
        arrays(f, p, o, "tiles", n, 0, "", " --index \"$((SLURM_ARRAY_TASK_ID + NAVBAKE_FIRST_TILE))\"");
    else {
        /* The task's line of its list (the batch script runs in $dir). */
        list(f, p, "tiles", 0);
        list(f, p, "twins", 1);
        arrays(f, p, o, "tiles", n - p->twins, 0,
               "t=$(sed -n \"$((SLURM_ARRAY_TASK_ID + NAVBAKE_FIRST_TILE + 1))p\" slurm/tiles.list)\n",
               " --index \"$t\"");
        fputs("deps=$ids\n", f);
        arrays(f, p, o, "twins", p->twins, 1,
               "set -- $(sed -n \"$((SLURM_ARRAY_TASK_ID + NAVBAKE_FIRST_TILE + 1))p\" "
               "slurm/twins.list)\n",
               " --index \"$1\" --twin \"$2\"");
    }
    fputs(twins ? "deps=$deps$ids\n" : "deps=$ids\n", f);
    fputs("id=$(sbatch --parsable --job-name=navbake-link --dependency=\"afterok$deps\" \\\n"
          "    --kill-on-invalid-dep=yes",
          f);
    requests(f, "link-%j.out", o);
    job(f, p, "link", "", "");
    fputs(")\n"
          "echo \"link ${id%%;*}\"\n",
          f);
}
