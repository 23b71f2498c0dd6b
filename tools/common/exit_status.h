/* exit_status.h: the exit codes of every command, navbake's subcommands and
 * the bakers alike, in one place.  Each section-1 page's EXIT STATUS and
 * the README's Commands list them.  A script tells "no" from "failed" by
 * the code alone, as grep's 1 and 2 do: a command that answers a question
 * (is there a path, a cell, a free segment?) prints its answer on standard
 * output whatever it is, and says which kind of answer with its code. */
#ifndef NB_EXIT_STATUS_H
#define NB_EXIT_STATUS_H

#include "navbake.h"

/* Success: the work done; a path or a cell found, the segment free. */
#define NBC_EXIT_OK 0
/* Failure: a bundle that cannot be read or is damaged, an input or output
 * error, a query the bundle cannot serve (no layer or graph for it). */
#define NBC_EXIT_FAIL 1
/* Usage error: an unknown option, a bad value (a cell off the map among
 * them), a missing argument.  Nothing is printed on standard output. */
#define NBC_EXIT_USAGE 2
/* Answered, and the answer is no: no path, the start or goal blocked,
 * nothing within the radius, the segment blocked, a length that differs. */
#define NBC_EXIT_NO 3
/* Answered in part: the search stopped at its budget (--max-expansions,
 * a node cap) and printed the best partial path it had. */
#define NBC_EXIT_PARTIAL 4

/* The line of --help for a command that answers no question (3 and 4 are
 * for those that do). */
#define NBC_EXIT_HELP "Exit status: 0 on success, 1 on a failure, 2 on a usage error.\n"

/* The exit code of a search's answer.  One case per status and no default,
 * so that a status the runtime gains is a compiler warning here and a line
 * to add. */
int nbc_exit_of_path(nb_path_status status);

#endif
