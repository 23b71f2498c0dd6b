#!/bin/sh
# sqlite-schema.sh SQL: prints SQL (formats/sqlite.sql) as the C header
# lib/bake/sqlite/sqlite_schema.h, one string the SQLite writer runs
# (make writes it there).  Backslashes and quotes are escaped; every line
# keeps its newline.
[ $# -eq 1 ] || { echo "usage: sqlite-schema.sh SQL" >&2; exit 2; }
echo '/* Made from formats/sqlite.sql by make: do not edit. */'
echo 'static const char nbb_sqlite_schema[] ='
${SED:-sed} -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$/\\n"/' "$1" || exit 1
echo '    ;'
