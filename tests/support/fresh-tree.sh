#!/bin/sh
# fresh-tree.sh DIR [CONFIGURE-ARG...]: a tree of its own for a run of the
# suite built another way (check-sanitize.sh, check-tsan.sh): DIR removed,
# made again by 'make distdir' (so a file missing from the distribution
# fails there), and configured with -q and the CONFIGURE-ARGs.  $MAKE is
# the make to run (make passes its own).  Each step is printed first.
[ $# -ge 1 ] || { echo "usage: fresh-tree.sh DIR [CONFIGURE-ARG...]" >&2; exit 2; }
set -e
dir=$1
shift
echo "rm -rf $dir"
rm -rf "$dir"
echo "${MAKE:-make} distdir distdir=$dir"
${MAKE:-make} distdir distdir="$dir"
echo "cd $dir && ./configure -q $*"
cd "$dir"
./configure -q "$@"
