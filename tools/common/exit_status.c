/* exit_status.c: a search's answer as an exit code (exit_status.h). */
#include "exit_status.h"

int nbc_exit_of_path(nb_path_status status)
{
    switch (status) {
    case NB_PATH_FOUND: return NBC_EXIT_OK;
    case NB_PATH_NONE:
    case NB_PATH_START_BLOCKED:
    case NB_PATH_GOAL_BLOCKED:
    case NB_PATH_BEYOND_RADIUS:
    case NB_PATH_PARTIAL: return NBC_EXIT_NO; /* the goal is not reached */
    case NB_PATH_LIMIT: return NBC_EXIT_PARTIAL;
    }
    return NBC_EXIT_FAIL; /* not a status: a result never filled */
}
