/* osfile.h: the operating system's files as open.c needs them (open,
 * kind and size, read, map), behind one interface: POSIX or Windows
 * (osfile.c).  Each call that fails fills err with the path and the
 * system's reason.  Internal. */
#ifndef NB_OSFILE_H
#define NB_OSFILE_H

#include "core/base.h"

typedef struct nbi_file {
    void *handle; /* a Windows HANDLE */
    int fd;       /* a POSIX descriptor */
    int is_stdin;
} nbi_file;

typedef enum nbi_file_kind {
    NBI_FILE_REGULAR, /* a file with a size, that can be mapped */
    NBI_FILE_DIR,
    NBI_FILE_STREAM /* a pipe, a terminal, a device: read to its end */
} nbi_file_kind;

/* Opens path read-only; "-" is standard input (not closed by
 * nbi_file_close).  a is what a long path is widened in, on Windows. */
nb_status nbi_file_open(nbi_file *f, const char *path, const nb_allocator *a, nb_err *err);
nb_status nbi_file_stat(nbi_file *f, const char *name, nbi_file_kind *kind, uint64_t *size,
                        nb_err *err);
/* Reads up to n bytes at offset off, or from the current position when
 * off is NBI_FILE_NEXT; *got is 0 at the end. */
#define NBI_FILE_NEXT UINT64_MAX
nb_status nbi_file_read(nbi_file *f, void *p, size_t n, uint64_t off, size_t *got,
                        const char *name, nb_err *err);
/* Maps the first size bytes read-only and shared; the mapping outlives
 * the file's handle. */
nb_status nbi_file_map(nbi_file *f, size_t size, void **out, const char *name, nb_err *err);
void nbi_file_unmap(void *p, size_t size);
void nbi_file_close(nbi_file *f);
/* How many of the size bytes mapped at p this process has in memory now:
 * on Linux the pages its page table maps (/proc/self/pagemap), elsewhere
 * on POSIX the file's pages in memory (mincore, which counts the system's
 * page cache whoever mapped it); where the system cannot say (Windows),
 * size: an upper bound. */
size_t nbi_file_resident(const void *p, size_t size);
/* Gives back the whole pages within the size bytes at p of a read-only
 * file mapping: the process stops holding them, and a later read maps
 * them again from the file, the same bytes (so a reader on another thread
 * reading them meanwhile stays correct: it only waits for a page fault).
 * Returns the bytes given back; 0 where the system has no such call. */
size_t nbi_file_release(const void *p, size_t size);
/* Asks that the size bytes mapped at p be mapped in small pages from now
 * on (undoes nbi_file_map's huge page advice): memory then follows the
 * pages read, not the 2 MiB around each.  Advice only. */
void nbi_file_small_pages(const void *p, size_t size);
/* Gives the processor to another thread: a wait on a lock that a thread
 * holds while it maps a tile (stream/world_handle.c). */
void nbi_os_yield(void);

#endif
