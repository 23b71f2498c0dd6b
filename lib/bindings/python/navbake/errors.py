"""Exceptions carrying navbake's status and message.

Every call that fails in the library raises a NavbakeError subclass, one per
nb_status (ArgumentError for NB_ERR_ARG, OutsideError for NB_ERR_OUTSIDE...).
The exception's `status` is the library's code, its `message` (and str())
the library's message, naming what was wrong.  ClosedError is raised for a
handle used after close(); it is the binding's own, not a library status.
"""
import enum


class Status(enum.IntEnum):
    """nb_status."""
    OK = 0
    ERR_ARG = 1
    ERR_IO = 2
    ERR_NOMEM = 3
    ERR_SYNTAX = 4
    ERR_FORMAT = 5
    ERR_VERSION = 6
    ERR_CRC = 7
    ERR_NOTFOUND = 8
    ERR_UNSUPPORTED = 9
    ERR_LIMIT = 10
    ERR_OUTSIDE = 11
    ERR_UNLOADED = 12
    ERR_MISMATCH = 13
    ERR_CANCELLED = 14


class NavbakeError(Exception):
    """A navbake call failed: `status` (a Status) and the library's `message`."""

    status = None

    def __init__(self, message, status=None):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


class ArgumentError(NavbakeError, ValueError):
    """NB_ERR_ARG: a malformed argument (size 0, an unknown flag, a NaN...)."""
    status = Status.ERR_ARG


class IOError_(NavbakeError, OSError):
    """NB_ERR_IO: a system call failed (open, read)."""
    status = Status.ERR_IO


class NoMemoryError(NavbakeError, MemoryError):
    """NB_ERR_NOMEM: out of memory."""
    status = Status.ERR_NOMEM


class SyntaxError_(NavbakeError):
    """NB_ERR_SYNTAX: an input file (map, YAML) is malformed."""
    status = Status.ERR_SYNTAX


class FormatError(NavbakeError):
    """NB_ERR_FORMAT: not a bundle, or one whose structure is wrong."""
    status = Status.ERR_FORMAT


class VersionError(NavbakeError):
    """NB_ERR_VERSION: a bundle of another major version, or the ABI guard."""
    status = Status.ERR_VERSION


class CRCError(NavbakeError):
    """NB_ERR_CRC: a checksum does not match: the bundle is damaged."""
    status = Status.ERR_CRC


class NotFoundError(NavbakeError, LookupError):
    """NB_ERR_NOTFOUND: the bundle holds nothing for the request."""
    status = Status.ERR_NOTFOUND


class UnsupportedError(NavbakeError):
    """NB_ERR_UNSUPPORTED: valid, but this build or this family cannot do it."""
    status = Status.ERR_UNSUPPORTED


class LimitError(NavbakeError):
    """NB_ERR_LIMIT: beyond a documented limit of the library."""
    status = Status.ERR_LIMIT


class OutsideError(NavbakeError, IndexError):
    """NB_ERR_OUTSIDE: a position outside the map (or a forest's bounds)."""
    status = Status.ERR_OUTSIDE


class UnloadedError(NavbakeError, LookupError):
    """NB_ERR_UNLOADED: a world's query needs tiles that are not loaded;
    `needed` lists them, [(column, row)...], for the game to load and ask again."""
    status = Status.ERR_UNLOADED
    needed = ()


class MismatchError(NavbakeError):
    """NB_ERR_MISMATCH: a tile bundle that is not the one its world was linked from."""
    status = Status.ERR_MISMATCH


class CancelledError(NavbakeError):
    """NB_ERR_CANCELLED: the caller cancelled it (a bake's progress callback)."""
    status = Status.ERR_CANCELLED


class ClosedError(NavbakeError, ValueError):
    """A handle used after close() (or after the bundle it was made from closed)."""


# Python's names: IOError and SyntaxError are builtins, so the classes above
# carry a trailing underscore and these aliases read better at a catch site.
BundleIOError = IOError_
InputSyntaxError = SyntaxError_

BY_STATUS = {cls.status: cls for cls in (
    ArgumentError, IOError_, NoMemoryError, SyntaxError_, FormatError, VersionError, CRCError,
    NotFoundError, UnsupportedError, LimitError, OutsideError, UnloadedError, MismatchError,
    CancelledError)}


def error_of(status, message):
    """The exception for a status and the library's message."""
    try:
        st = Status(status)
    except ValueError:
        return NavbakeError(message or "unknown status %d" % status, status)
    cls = BY_STATUS.get(st, NavbakeError)
    return cls(message, st)
