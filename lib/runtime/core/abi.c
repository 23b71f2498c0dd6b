/* abi.c: the ABI guard (navbake.h, "The ABI guard").  A program passes the
 * version and the sizes of the public structs its navbake.h declared where
 * it makes its first handle and where it initialises a query; a struct of
 * another size would be read or written past its end, so a mismatch is
 * refused there, naming the struct, as zlib's inflateInit refuses a
 * z_stream of another size. */
#include "core/base.h"

#define NAME_(t) #t,
static const char *const names[] = {NB_ABI_STRUCTS(NAME_)};
#undef NAME_
#define SIZE_(t) (uint32_t) sizeof(t),
static const uint32_t sizes[] = {NB_ABI_STRUCTS(SIZE_)};
#undef SIZE_
#define NSTRUCTS (sizeof sizes / sizeof sizes[0])

uint32_t nb_abi_size(unsigned i) { return i < NSTRUCTS ? sizes[i] : 0; }

const char *nb_abi_name(unsigned i) { return i < NSTRUCTS ? names[i] : NULL; }

nb_status nbi_abi_check_list(const nb_abi *abi, const char *header, const char *const *lnames,
                             const uint32_t *lsizes, size_t n, nb_err *err)
{
    if (!abi || !abi->sizes)
        return nbi_fail(err, NB_ERR_ARG, "no nb_abi given (call through %s's macros)", header);
    if (abi->major != NB_VERSION_MAJOR)
        return nbi_fail(err, NB_ERR_VERSION,
                        "the program was compiled with %s %u.%u, this library is %s: "
                        "rebuild the program against this library's %s",
                        header, abi->major, abi->minor, NB_VERSION_STRING, header);
    /* 1.0 is the first of its major version: every struct must be as it
     * is here.  A later minor version accepts the smaller sizes of the
     * minors before it (structs grow only at the end). */
    if (abi->count != n)
        return nbi_fail(err, NB_ERR_VERSION,
                        "the program's %s %u.%u declares %u public structs, this library "
                        "(%s) %u: rebuild the program against this library's %s",
                        header, abi->major, abi->minor, abi->count, NB_VERSION_STRING,
                        (unsigned)n, header);
    for (size_t i = 0; i < n; i++)
        if (abi->sizes[i] != lsizes[i])
            return nbi_fail(err, NB_ERR_VERSION,
                            "the program's %s %u.%u has %s of %u bytes, this library (%s) "
                            "of %u: rebuild the program against this library's %s",
                            header, abi->major, abi->minor, lnames[i], abi->sizes[i],
                            NB_VERSION_STRING, lsizes[i], header);
    return NB_OK;
}

nb_status nb_abi_check(const nb_abi *abi, nb_err *err)
{
    return nbi_abi_check_list(abi, "navbake.h", names, sizes, NSTRUCTS, err);
}

nb_status nbi_abi_ok(const nb_abi *abi, unsigned i)
{
    return abi && abi->sizes && abi->major == NB_VERSION_MAJOR && i < abi->count &&
                   i < NSTRUCTS && abi->sizes[i] == sizes[i]
               ? NB_OK
               : NB_ERR_VERSION;
}
