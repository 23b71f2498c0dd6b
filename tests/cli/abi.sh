#!/bin/sh
# abi.sh: the ABI guard.  A program compiled with a navbake.h whose public
# struct has another size (a field added to nb_aa_query, as a 1.x header
# of the future or a stale copy would have it), or with another major
# version, gets NB_ERR_VERSION naming the struct from the first call that
# makes a handle and from a query's _init, which writes nothing; the same
# program built with the library's own header works.  A binding that
# declares the structs itself checks its sizes with nb_abi_check.
. "$top_srcdir/tests/support/lib.sh"
cd "$tmp" || exit 1
CC=${CC:-cc}
cat >use.c <<'C'
#include <navbake.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
    nb_aa_query q;
    nb_err err;
    nb_bundle *b = NULL;
    memset(&q, 0xab, sizeof q);
    nb_status qs = nb_aa_query_init(&q);
    unsigned char first = *(unsigned char *)&q;
    nb_status st = nb_bundle_open(argc > 1 ? argv[1] : "none.nbk", 0, NULL, &b, &err);
    printf("init %d untouched %d open %d %s\n", (int)qs, first == 0xab, (int)st,
           st ? err.msg : "ok");
    nb_bundle_close(b);
    return 0;
}
C
cat >binding.c <<'C'
#include <navbake.h>
#include <stdio.h>
/* A binding's own table of sizes, one of them wrong. */
int main(void)
{
    uint32_t sizes[64];
    unsigned n = 0;
    while (nb_abi_name(n))
        sizes[n] = nb_abi_size(n), n++;
    nb_abi abi = {NB_VERSION_MAJOR, NB_VERSION_MINOR, n, sizes};
    nb_err err;
    printf("%d", (int)nb_abi_check(&abi, &err));
    sizes[3] += 8;
    printf(" %d %s\n", (int)nb_abi_check(&abi, &err), err.msg);
    return 0;
}
C
mkdir -p grown/inc major/inc
# A field added at the end of nb_aa_query (a pointer: an int might fit in the
# padding after the last field, leaving the size as it was).
awk '/^typedef struct nb_aa_query \{/ { inq = 1 }
     inq && /^\} nb_aa_query;/ { print "    void *added_later;"; inq = 0 }
     { print }' "$top_srcdir/lib/include/navbake.h" >grown/inc/navbake.h
sed 's/^#define NB_VERSION_MAJOR 1$/#define NB_VERSION_MAJOR 2/' "$top_srcdir/lib/include/navbake.h" >major/inc/navbake.h
ok "the grown header differs from the library's in nb_aa_query alone" \
  sh -c "! cmp -s grown/inc/navbake.h '$top_srcdir/lib/include/navbake.h' && grep -c added_later grown/inc/navbake.h | grep -qx 1"
link() { # DIR PROGRAM.c OUT
  $CC -std=c99 -Wall -Wextra -Werror -I"$1" -c "$2" -o "$3.o" &&
    "$top_builddir/libtool" --mode=link --tag=CC $CC $NB_SAN_CFLAGS -o "$3" "$3.o" \
      "$top_builddir/lib/libnavbake.la" >/dev/null
}
run() { "$top_builddir/libtool" --mode=execute "$@"; }
bundle=$top_builddir/sample.nbk
[ -f "$bundle" ] || bundle=$top_srcdir/tests/data/unit-v1.nbb
ok "a program builds with the library's own navbake.h" link "$top_srcdir/lib/include" use.c own
ok "one with a grown nb_aa_query builds" link grown/inc use.c use-grown
ok "one with another major version builds" link major/inc use.c use-major
status run ./own "$bundle"
like "the library's own header: the init and the open work" "$out" "init 0 untouched 0 open 0 ok"
status run ./use-grown "$bundle"
like "a struct of another size: NB_ERR_VERSION from the query's _init, which writes nothing" \
  "$out" "init 6 untouched 1 open 6 "
like "... and from nb_bundle_open, naming the struct and both sizes" "$out" \
  "the program's navbake.h 1.0 has nb_aa_query of "
like "... (the library's size)" "$out" "bytes, this library (1.0.0) of "
status run ./use-major "$bundle"
like "another major version: NB_ERR_VERSION saying both versions" "$out" \
  "open 6 the program was compiled with navbake.h 2.0, this library is 1.0.0"
ok "a binding's own table builds" link "$top_srcdir/lib/include" binding.c binding
status run ./binding
like "nb_abi_check: its own sizes pass, one wrong size is named" "$out" "0 6 the program's navbake.h 1.0 has nb_agent of"
finish
