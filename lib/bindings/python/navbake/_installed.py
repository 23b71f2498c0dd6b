# Written by `make install`: the libdir libnavbake was installed in, and the
# same relative to this package's directory (which still holds when the
# installed tree is moved or installed under DESTDIR).  None in the source
# tree, where the library is found as _lib.py says.
LIBDIR = None
LIBDIR_FROM_PACKAGE = None
