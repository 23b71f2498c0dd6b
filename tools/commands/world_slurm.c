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
 * here-document is quoted: its text reaches sbatch as written. */
static void job(FILE *f, const nbc_world_plan *p, const char *action, const char *index)
{
    fputs(" <<'EOF'\n#!/bin/sh\nexec ", f);
    nbc_shell_word(f, p->navbake, 0);
    fprintf(f, " world %s ", action);
    nbc_shell_word(f, p->manifest, 0);
    fputs(index, f);
    fputs(" -j \"${SLURM_CPUS_ON_NODE:-1}\" -o ", f);
    nbc_shell_word(f, p->out, 0);
    fputs("\nEOF\n", f);
}

void nbc_world_slurm(FILE *f, const nbc_world_plan *p, const nbc_slurm_opts *o)
{
    fputs("#!/bin/sh\n"
          "# A navbake world's bake on Slurm (navbake world plan, formats/world.md):\n"
          "# the tiles as a job array, then the link, which starts when every tile\n"
          "# action has ended well and is cancelled if one has not.  Run it where\n"
          "# sbatch runs, on a file system every node sees at these paths:\n"
          "#   sh FILE [SBATCH OPTION]...\n"
          "# The options are given to every sbatch.  Prints 'tiles JOBID' for each\n"
          "# array and 'link JOBID'.  The jobs' logs go to the output folder's slurm/.\n"
          "# Plan again after the manifest changes.\n"
          "set -e\n",
          f);
    fputs("dir=", f);
    nbc_shell_word(f, p->out, 0);
    fprintf(f, "\ntiles=%llu\n", (unsigned long long)p->w.columns * p->w.rows);
    fputs("# An array's task ids are below the cluster's MaxArraySize (1001 unless\n"
          "# it says otherwise): a larger world is several arrays.\n"
          "max=$(scontrol show config 2>/dev/null | sed -n 's/^MaxArraySize *= *\\([0-9]*\\).*/\\1/p')\n"
          "[ \"${max:-0}\" -gt 0 ] || max=1001\n"
          "mkdir -p \"$dir/tiles\" \"$dir/slurm\"\n"
          "deps= first=0\n"
          "while [ \"$first\" -lt \"$tiles\" ]; do\n"
          "  n=$((tiles - first))\n"
          "  [ \"$n\" -le \"$max\" ] || n=$max\n"
          "  id=$(sbatch --parsable --job-name=navbake-tiles",
          f);
    fputs(" --array=\"0-$((n - 1))", f);
    if (o->throttle)
        fprintf(f, "%%%lu", o->throttle);
    fputs("\" \\\n    --export=\"ALL,NAVBAKE_FIRST_TILE=$first\"", f);
    requests(f, "tiles-%A_%a.out", o);
    job(f, p, "tile", " --index \"$((SLURM_ARRAY_TASK_ID + NAVBAKE_FIRST_TILE))\"");
    fputs("  )\n"
          "  id=${id%%;*}\n"
          "  echo \"tiles $id\"\n"
          "  deps=\"$deps:$id\"\n"
          "  first=$((first + n))\n"
          "done\n"
          "id=$(sbatch --parsable --job-name=navbake-link --dependency=\"afterok$deps\" \\\n"
          "    --kill-on-invalid-dep=yes",
          f);
    requests(f, "link-%j.out", o);
    job(f, p, "link", "");
    fputs(")\n"
          "echo \"link ${id%%;*}\"\n",
          f);
}
