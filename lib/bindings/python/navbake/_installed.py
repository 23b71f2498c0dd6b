# Written by `make install` with the libdir the library was installed in;
# None in the source tree (the library is then found as _lib.py says).
LIBDIR = None
