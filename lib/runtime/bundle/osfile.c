/* osfile.c: osfile.h on POSIX (open, fstat, pread, mmap) and on Windows
 * (CreateFileW with the UTF-8 path widened, GetFileSizeEx, ReadFile,
 * CreateFileMapping and MapViewOfFile).  The only file of the runtime that
 * calls the operating system. */
#include <errno.h>

#include "bundle/osfile.h"

#ifdef _WIN32

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

/* The system's reason as errno, so that messages read as they do on POSIX
 * ("No such file or directory"). */
static nb_status fail_win(nb_err *err, const char *what, const char *name)
{
    DWORD e = GetLastError();
    switch (e) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_NAME:
    case ERROR_INVALID_DRIVE:
    case ERROR_BAD_NETPATH: errno = ENOENT; break;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION: errno = EACCES; break;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
    case ERROR_COMMITMENT_LIMIT: errno = ENOMEM; break;
    case ERROR_FILENAME_EXCED_RANGE: errno = ENAMETOOLONG; break;
    default: errno = EIO; break;
    }
    return nbi_fail_errno(err, what, name);
}

nb_status nbi_file_open(nbi_file *f, const char *path, const nb_allocator *a, nb_err *err)
{
    f->fd = -1;
    f->is_stdin = strcmp(path, "-") == 0;
    if (f->is_stdin) {
        f->handle = GetStdHandle(STD_INPUT_HANDLE);
        if (f->handle == NULL || f->handle == INVALID_HANDLE_VALUE) {
            SetLastError(ERROR_INVALID_HANDLE);
            return fail_win(err, "cannot open", "(standard input)");
        }
        return NB_OK;
    }
    wchar_t small[MAX_PATH], *wide = small;
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, NULL, 0);
    if (n <= 0) {
        errno = EILSEQ;
        return nbi_fail_errno(err, "cannot open (not UTF-8)", path);
    }
    if (n > MAX_PATH && !(wide = nbi_alloc_array(a, (size_t)n, sizeof *wide))) {
        errno = ENOMEM;
        return nbi_fail_errno(err, "cannot open", path);
    }
    MultiByteToWideChar(CP_UTF8, 0, path, -1, wide, n);
    /* Others may read, write, rename and delete it meanwhile, as on POSIX;
     * BACKUP_SEMANTICS lets a directory be opened, to be named as one. */
    f->handle = CreateFileW(wide, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                            NULL, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_BACKUP_SEMANTICS,
                            NULL);
    if (wide != small)
        nbi_free(a, wide);
    if (f->handle == INVALID_HANDLE_VALUE)
        return fail_win(err, "cannot open", path);
    return NB_OK;
}

nb_status nbi_file_stat(nbi_file *f, const char *name, nbi_file_kind *kind, uint64_t *size,
                        nb_err *err)
{
    *size = 0;
    *kind = NBI_FILE_STREAM;
    if (GetFileType(f->handle) != FILE_TYPE_DISK)
        return NB_OK;
    BY_HANDLE_FILE_INFORMATION info;
    if (!GetFileInformationByHandle(f->handle, &info)) {
        /* Standard input may be a handle that cannot be asked (Wine gives
         * one for a redirected file): read it as a stream. */
        if (f->is_stdin)
            return NB_OK;
        return fail_win(err, "cannot stat", name);
    }
    if (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) {
        *kind = NBI_FILE_DIR;
        return NB_OK;
    }
    *kind = NBI_FILE_REGULAR;
    *size = (uint64_t)info.nFileSizeHigh << 32 | info.nFileSizeLow;
    return NB_OK;
}

nb_status nbi_file_read(nbi_file *f, void *p, size_t n, uint64_t off, size_t *got,
                        const char *name, nb_err *err)
{
    DWORD want = n > 0x40000000u ? 0x40000000u : (DWORD)n, r = 0;
    OVERLAPPED at = {0};
    at.Offset = (DWORD)off;
    at.OffsetHigh = (DWORD)(off >> 32);
    *got = 0;
    if (!ReadFile(f->handle, p, want, &r, off == NBI_FILE_NEXT ? NULL : &at)) {
        DWORD e = GetLastError();
        if (e == ERROR_HANDLE_EOF || e == ERROR_BROKEN_PIPE)
            return NB_OK; /* the end, or a pipe whose writer closed it */
        return fail_win(err, "read", name);
    }
    *got = r;
    return NB_OK;
}

nb_status nbi_file_map(nbi_file *f, size_t size, void **out, const char *name, nb_err *err)
{
    HANDLE m = CreateFileMappingW(f->handle, NULL, PAGE_READONLY, 0, 0, NULL);
    if (!m)
        return fail_win(err, "cannot map", name);
    *out = MapViewOfFile(m, FILE_MAP_READ, 0, 0, size);
    nb_status st = *out ? NB_OK : fail_win(err, "cannot map", name);
    CloseHandle(m); /* the view keeps the mapping */
    return st;
}

void nbi_file_unmap(void *p, size_t size)
{
    (void)size;
    UnmapViewOfFile(p);
}

void nbi_file_close(nbi_file *f)
{
    if (!f->is_stdin && f->handle != INVALID_HANDLE_VALUE)
        CloseHandle(f->handle);
}

size_t nbi_file_resident(const void *p, size_t size)
{
    (void)p;
    return size;
}

/* VirtualUnlock on pages that are not locked takes them out of the
 * working set (and fails with ERROR_NOT_LOCKED, which is the expected
 * answer); a mapped view's pages are read again from the file when
 * touched.  Not measured here (no Windows machine): advice, as on POSIX. */
size_t nbi_file_release(const void *p, size_t size)
{
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    size_t page = si.dwPageSize ? si.dwPageSize : 4096;
    uintptr_t a = ((uintptr_t)p + page - 1) / page * page, e = ((uintptr_t)p + size) / page * page;
    if (e <= a)
        return 0;
    (void)VirtualUnlock((void *)a, e - a);
    return e - a;
}

void nbi_file_small_pages(const void *p, size_t size) { (void)p, (void)size; }

void nbi_os_yield(void) { SwitchToThread(); }

#else /* POSIX */

#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

nb_status nbi_file_open(nbi_file *f, const char *path, const nb_allocator *a, nb_err *err)
{
    (void)a;
    f->handle = NULL;
    f->is_stdin = strcmp(path, "-") == 0;
    f->fd = f->is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    return f->fd < 0 ? nbi_fail_errno(err, "cannot open", path) : NB_OK;
}

nb_status nbi_file_stat(nbi_file *f, const char *name, nbi_file_kind *kind, uint64_t *size,
                        nb_err *err)
{
    struct stat sb;
    if (fstat(f->fd, &sb) != 0)
        return nbi_fail_errno(err, "cannot stat", name);
    *kind = S_ISDIR(sb.st_mode) ? NBI_FILE_DIR : S_ISREG(sb.st_mode) ? NBI_FILE_REGULAR
                                                                      : NBI_FILE_STREAM;
    *size = *kind == NBI_FILE_REGULAR ? (uint64_t)sb.st_size : 0;
    return NB_OK;
}

nb_status nbi_file_read(nbi_file *f, void *p, size_t n, uint64_t off, size_t *got,
                        const char *name, nb_err *err)
{
    ssize_t r;
    do
        r = off == NBI_FILE_NEXT ? read(f->fd, p, n) : pread(f->fd, p, n, (off_t)off);
    while (r < 0 && errno == EINTR);
    *got = r > 0 ? (size_t)r : 0;
    return r < 0 ? nbi_fail_errno(err, "read", name) : NB_OK;
}

nb_status nbi_file_map(nbi_file *f, size_t size, void **out, const char *name, nb_err *err)
{
    void *m = mmap(NULL, size, PROT_READ, MAP_SHARED, f->fd, 0);
    *out = m == MAP_FAILED ? NULL : m;
#ifdef MADV_HUGEPAGE
    /* A big bundle's queries read a few bytes from each of thousands of pages (a long path's
     * rows of a layer, its edges' stored paths): where the kernel can, it reads the file into
     * huge pages and maps them so, which spares the TLB (a 1.7 GB bundle: 1.38 GB mapped by
     * huge pages after the first HAA* handle, against 0.16 GB without).  Advice only:
     * nothing changes where it cannot. */
    if (*out && size >= ((size_t)2 << 20))
        (void)madvise(m, size, MADV_HUGEPAGE);
#endif
    return *out ? NB_OK : nbi_fail_errno(err, "cannot map", name);
}

void nbi_file_unmap(void *p, size_t size) { munmap(p, size); }

void nbi_file_close(nbi_file *f)
{
    if (!f->is_stdin)
        close(f->fd);
}

#ifdef __linux__
/* The pages of [p, p + size) that this process's page table maps now:
 * bit 63 of each page's entry of /proc/self/pagemap (readable without
 * privileges, which only hides the frame numbers).  -1 when the file
 * cannot be read (no /proc). */
static long long pagemap_resident(const void *p, size_t size, size_t page)
{
    int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    uint64_t e[512];
    size_t first = (uintptr_t)p / page, pages = ((uintptr_t)p + size + page - 1) / page - first;
    long long in = 0;
    for (size_t at = 0; at < pages;) {
        size_t n = pages - at < 512 ? pages - at : 512;
        ssize_t r = pread(fd, e, n * sizeof e[0], (off_t)((first + at) * sizeof e[0]));
        if (r <= 0 || (size_t)r % sizeof e[0]) {
            in = -1;
            break;
        }
        n = (size_t)r / sizeof e[0];
        for (size_t i = 0; i < n; i++)
            in += (long long)(e[i] >> 63);
        at += n;
    }
    close(fd);
    return in;
}
#endif

size_t nbi_file_resident(const void *p, size_t size)
{
    long ps = sysconf(_SC_PAGESIZE);
    if (!p || ps <= 0)
        return size;
#ifdef __linux__
    /* mincore on Linux answers for the page cache: a page given back by
     * nbi_file_release stays there and would still count. */
    long long mapped = pagemap_resident(p, size, (size_t)ps);
    if (mapped >= 0)
        return (size_t)mapped * (size_t)ps < size ? (size_t)mapped * (size_t)ps : size;
#endif
    /* A page a byte, asked in chunks so that nothing is allocated. */
    unsigned char v[4096];
    size_t page = (size_t)ps, in = 0, pages = (size + page - 1) / page;
    for (size_t at = 0; at < pages; at += sizeof v) {
        size_t n = pages - at < sizeof v ? pages - at : sizeof v;
        size_t len = n * page;
        if (at * page + len > size)
            len = size - at * page;
        if (mincore((void *)((uintptr_t)p + at * page), len, v) != 0)
            return size;
        for (size_t i = 0; i < n; i++)
            in += v[i] & 1u;
    }
    return in * page < size ? in * page : size;
}

/* MADV_DONTNEED on a shared read-only file mapping drops the process's
 * page table entries only: the file and the page cache are untouched, so
 * the next read of a page faults it in again with the file's bytes (on a
 * private anonymous mapping it would zero them, which is why only the
 * file's mapping is ever given here).  A thread reading the range at the
 * same moment sees the same bytes either way. */
size_t nbi_file_release(const void *p, size_t size)
{
#ifdef MADV_DONTNEED
    long ps = sysconf(_SC_PAGESIZE);
    if (ps <= 0)
        return 0;
    size_t page = (size_t)ps;
    uintptr_t a = ((uintptr_t)p + page - 1) / page * page, e = ((uintptr_t)p + size) / page * page;
    if (e <= a || madvise((void *)a, e - a, MADV_DONTNEED) != 0)
        return 0;
    return e - a;
#else
    (void)p, (void)size;
    return 0;
#endif
}

/* A mapping advised MADV_HUGEPAGE is mapped a 2 MiB page at a time where
 * the page cache holds the file so, both at a read fault and by
 * khugepaged in the background (which maps a huge page over a range of
 * which a single small page is mapped): pages given back come back
 * without a read.  MADV_NOHUGEPAGE stops both for this mapping. */
void nbi_file_small_pages(const void *p, size_t size)
{
#ifdef MADV_NOHUGEPAGE
    if (p && size >= ((size_t)2 << 20))
        (void)madvise((void *)p, size, MADV_NOHUGEPAGE);
#else
    (void)p, (void)size;
#endif
}

void nbi_os_yield(void) { sched_yield(); }

#endif
