"""kern's errors as Python exceptions.

Every failing libkern call returns a status and leaves a message in the
context (kern_last_error); :func:`raise_status` turns the pair into one
exception whose class follows the status, so a caller can catch what it
expects (``except kern.CompileError``) and still reach the C status
(``e.status``, ``e.status_name``).  Where a status has an obvious Python
counterpart the class derives from it as well (a type mismatch is also a
``TypeError``, a missing kernel a ``LookupError``), so generic handlers work.

Checks the package makes itself before calling C (a NumPy array of the wrong
dtype, a host array for a GPU kernel) raise the same classes with the status
kern would have used, and name the kernel parameter concerned.
"""
import re

from . import _ffi


class Error(Exception):
    """Base class of every error kern raises.

    Attributes: ``status`` (the kern_status number), ``status_name``
    (``"ERROR_COMPILE"``), ``message`` (kern's full message)."""

    status = _ffi.ERROR_INVALID_ARGUMENT

    def __init__(self, message, status=None):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status

    @property
    def status_name(self):
        s = self.status
        return _ffi.STATUS_NAMES[s] if 0 <= s < len(_ffi.STATUS_NAMES) else "UNKNOWN"


class InvalidArgumentError(Error, ValueError):
    """An argument kern cannot accept (KERN_ERROR_INVALID_ARGUMENT)."""
    status = _ffi.ERROR_INVALID_ARGUMENT


class OutOfMemoryError(Error, MemoryError):
    """Host or device memory ran out (KERN_ERROR_OUT_OF_MEMORY)."""
    status = _ffi.ERROR_OUT_OF_MEMORY


class IOError_(Error, OSError):
    """A file could not be read or written (KERN_ERROR_IO)."""
    status = _ffi.ERROR_IO


class CompileError(Error):
    """A kernel source did not compile (KERN_ERROR_COMPILE).

    ``file``, ``line`` and ``column`` locate the first error (None when the
    message has no position), ``text`` is the message after ``error:``, and
    ``caret`` is the source line with the caret under it, as kern prints
    them."""
    status = _ffi.ERROR_COMPILE

    _POS = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): error: (?P<text>.*)$")

    def __init__(self, message, status=None):
        super().__init__(message, status)
        self.file = self.line = self.column = None
        self.text = message
        self.caret = ""
        lines = message.splitlines()
        for i, ln in enumerate(lines):
            m = self._POS.match(ln)
            if m:
                self.file = m.group("file")
                self.line = int(m.group("line"))
                self.column = int(m.group("col"))
                self.text = m.group("text")
                self.caret = "\n".join(lines[i + 1:i + 3])
                break


class NotFoundError(Error, LookupError):
    """No such kernel, device or file (KERN_ERROR_NOT_FOUND)."""
    status = _ffi.ERROR_NOT_FOUND


class BackendUnavailableError(Error):
    """The backend asked for has no device here (KERN_ERROR_BACKEND_UNAVAILABLE)."""
    status = _ffi.ERROR_BACKEND_UNAVAILABLE


class UnsupportedError(Error):
    """Something kern does not do (KERN_ERROR_UNSUPPORTED)."""
    status = _ffi.ERROR_UNSUPPORTED


class TypeMismatchError(Error, TypeError):
    """An argument of the wrong type, dtype or shape (KERN_ERROR_TYPE_MISMATCH)."""
    status = _ffi.ERROR_TYPE_MISMATCH


class LaunchError(Error):
    """A launch failed (KERN_ERROR_LAUNCH)."""
    status = _ffi.ERROR_LAUNCH


class OutOfBoundsError(LaunchError, IndexError):
    """A debug-mode launch indexed outside an array (KERN_ERROR_OUT_OF_BOUNDS)."""
    status = _ffi.ERROR_OUT_OF_BOUNDS


class DeviceError(Error):
    """The device or its driver failed (KERN_ERROR_DEVICE)."""
    status = _ffi.ERROR_DEVICE


class ToolchainError(Error):
    """The compiler behind a backend failed (KERN_ERROR_TOOLCHAIN)."""
    status = _ffi.ERROR_TOOLCHAIN


class CacheError(Error):
    """The kernel cache could not be used (KERN_ERROR_CACHE)."""
    status = _ffi.ERROR_CACHE


class InvalidHandleError(Error):
    """A freed or closed kern object was used (KERN_ERROR_INVALID_HANDLE)."""
    status = _ffi.ERROR_INVALID_HANDLE


_BY_STATUS = {
    _ffi.ERROR_INVALID_ARGUMENT: InvalidArgumentError,
    _ffi.ERROR_OUT_OF_MEMORY: OutOfMemoryError,
    _ffi.ERROR_IO: IOError_,
    _ffi.ERROR_COMPILE: CompileError,
    _ffi.ERROR_NOT_FOUND: NotFoundError,
    _ffi.ERROR_BACKEND_UNAVAILABLE: BackendUnavailableError,
    _ffi.ERROR_UNSUPPORTED: UnsupportedError,
    _ffi.ERROR_TYPE_MISMATCH: TypeMismatchError,
    _ffi.ERROR_LAUNCH: LaunchError,
    _ffi.ERROR_DEVICE: DeviceError,
    _ffi.ERROR_TOOLCHAIN: ToolchainError,
    _ffi.ERROR_CACHE: CacheError,
    _ffi.ERROR_OUT_OF_BOUNDS: OutOfBoundsError,
    _ffi.ERROR_INVALID_HANDLE: InvalidHandleError,
}


def error_class(status):
    return _BY_STATUS.get(status, Error)


def make_error(status, message):
    return error_class(status)(message, status)
