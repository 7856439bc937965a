"""Writing the files a user names (`--output`, `--json`, `--html`): complete or not at all.

`write(path, produce)` runs `produce(f)` on a binary file object and leaves either the
complete new file at `path` or nothing (any old file untouched).  It respects what the user
gave:

- a symlink is written through: its target is replaced, the link stays;
- a directory, a device, a FIFO or a socket is refused, never replaced by a regular file;
- a new file gets the user's umask (0666 & ~umask); an existing file keeps its mode;
- the temporary sibling's name fits the file system's NAME_MAX, however long the target's;
- any OS error (read-only file system, permissions, /proc, a name that is too long) is one
  line naming the path, as a `click.ClickException`.
"""
import errno
import os
import secrets
import stat

import click

_DEFAULT_NAME_MAX = 255   # POSIX NAME_MAX on Linux file systems, when pathconf cannot say


class OutputError(click.ClickException):
    """An output that cannot be written; the message is one line naming the path."""


def _reason(e):
    return e.strerror or str(e)


def _name_max(directory):
    try:
        return os.pathconf(directory, "PC_NAME_MAX")
    except (OSError, ValueError):
        return _DEFAULT_NAME_MAX


def _temporary_name(directory, name):
    """A hidden, unique sibling name no longer than NAME_MAX."""
    tag = "." + secrets.token_hex(4) + ".tmp"
    room = max(1, _name_max(directory) - len(tag) - 1)
    return os.path.join(directory, "." + name[:room] + tag)


def _target(path):
    """The file to replace (a symlink's final target) and its stat, or None if absent."""
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        return real, None
    if stat.S_ISDIR(st.st_mode):
        raise OutputError(f"{path}: is a directory")
    if not stat.S_ISREG(st.st_mode):
        raise OutputError(f"{path}: is not a regular file (a device, FIFO or socket); "
                          f"refusing to replace it")
    return real, st


def _checked(path):
    """(file to replace, its stat or None, its directory) for a writable-looking `path`."""
    real, st = _target(path)
    directory = os.path.dirname(real) or "."
    if not os.path.isdir(directory):
        raise OutputError(f"{path}: directory {directory} does not exist")
    if len(os.path.basename(real).encode()) > _name_max(directory):
        raise OutputError(f"{path}: cannot write ({os.strerror(errno.ENAMETOOLONG)})")
    return real, st, directory


def check(path):
    """Refuse an output path that cannot be written, before a long run; raises OutputError."""
    try:
        _checked(os.fspath(path))
    except OSError as e:
        raise OutputError(f"{path}: cannot write ({_reason(e)})") from None


def write(path, produce):
    """Write `path` atomically with `produce(binary file)`; raises OutputError."""
    path = os.fspath(path)
    tmp = None
    try:
        real, st, directory = _checked(path)
        tmp = _temporary_name(directory, os.path.basename(real))
        mode = stat.S_IMODE(st.st_mode) if st is not None else 0o666
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        if st is not None:
            os.fchmod(fd, mode)          # the old file's mode, whatever the umask
        with os.fdopen(fd, "wb") as f:
            produce(f)
        os.replace(tmp, real)
        tmp = None
    except OSError as e:
        raise OutputError(f"{path}: cannot write ({_reason(e)})") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def write_text(path, text):
    write(path, lambda f: f.write(text.encode("utf-8")))


__all__ = ["OutputError", "check", "write", "write_text"]
