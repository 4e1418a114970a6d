# SPDX-License-Identifier: BSD-3-Clause
import os
import stat
import sys
import tempfile

from .common import OutputError


# --- writing -----------------------------------------------------------------

def write_stdout(text):
    """Write and flush; a failure is said once, and nothing retries it at
    exit (/dev/full, a closed pipe)."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except OSError as e:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise OutputError("write", "standard output", e) from None


def refuse_planted(path):
    """A final component that is a symbolic link in a world-writable
    sticky directory (/tmp), owned by someone else, is refused: another
    user may have planted it there to have a file of ours replaced. The
    kernel's protected_symlinks refuses to follow it for the same reason;
    a rename never follows it, so the check is here."""
    try:
        st = os.lstat(path)
    except OSError:
        return
    if not stat.S_ISLNK(st.st_mode):
        return
    parent = os.path.dirname(path) or "."
    try:
        dst = os.stat(parent)
    except OSError:
        return
    shared = dst.st_mode & stat.S_ISVTX and dst.st_mode & stat.S_IWOTH
    if shared and st.st_uid != os.geteuid():
        raise OutputError("write", path, "a symbolic link owned by uid %d "
                          "in the shared directory '%s': give a path of "
                          "your own" % (st.st_uid, parent))


def user_mode():
    umask = os.umask(0o22)
    os.umask(umask)
    return 0o666 & ~umask


class AtomicFile:
    """A report file, written whole or not at all: into a temporary file
    in the directory of the path as given, renamed over the path at the
    end, so that an interrupted or failed write leaves the old file (or
    none), never half a file. A symbolic link is replaced, never followed
    (its target is left alone); a planted one is refused (refuse_planted).
    A device or a FIFO (/dev/stderr, >(...)) is written directly. A new
    file gets the user's umask; a file replaced keeps its mode."""

    def __init__(self, path):
        self.path = path
        refuse_planted(path)
        self.dir = os.path.dirname(path) or "."
        try:
            here = os.lstat(path)
        except FileNotFoundError:
            here = None
        except OSError as e:
            raise OutputError("write", path, e) from None
        if here is not None and stat.S_ISDIR(here.st_mode):
            raise OutputError("write", path, "Is a directory")
        self.mode = user_mode()
        if here is not None and stat.S_ISREG(here.st_mode):
            self.mode = here.st_mode & 0o7777
        self.direct = False
        if here is not None and stat.S_ISLNK(here.st_mode):
            try:
                there = os.stat(path)
            except OSError:
                there = None  # dangling: replaced like any link
            if there is not None and stat.S_ISDIR(there.st_mode):
                raise OutputError("write", path, "Is a directory")
            self.direct = there is not None and \
                not stat.S_ISREG(there.st_mode)
        elif here is not None:
            self.direct = not stat.S_ISREG(here.st_mode)
        if not self.direct:
            # Find out now, not after the runs, that it cannot be written.
            fd, tmp = self.temporary()
            os.close(fd)
            os.unlink(tmp)

    def temporary(self):
        try:
            return tempfile.mkstemp(dir=self.dir, prefix="." +
                                    os.path.basename(self.path) + ".")
        except OSError as e:
            raise OutputError("write", self.path, e) from None

    def write(self, chunks):
        """Write text or an iterable of text."""
        if isinstance(chunks, str):
            chunks = [chunks]
        if self.direct:
            try:
                with open(self.path, "w", encoding="utf-8") as f:
                    for chunk in chunks:
                        f.write(chunk)
            except OSError as e:
                raise OutputError("write", self.path, e) from None
            return
        fd, tmp = self.temporary()
        try:
            with open(fd, "w", encoding="utf-8", newline="") as f:
                for chunk in chunks:
                    f.write(chunk)
                f.flush()
                os.fchmod(f.fileno(), self.mode)
            os.replace(tmp, self.path)
        except OSError as e:
            raise OutputError("write", self.path, e) from None
        finally:
            if os.path.lexists(tmp):
                os.unlink(tmp)

    def open_growing(self):
        """A file object for a record written line by line (--export-csv):
        a new file in the path's directory, renamed over the path at once,
        then written to as the runs are made."""
        if self.direct:
            try:
                return open(self.path, "w", encoding="utf-8", newline="")
            except OSError as e:
                raise OutputError("write", self.path, e) from None
        fd, tmp = self.temporary()
        try:
            os.fchmod(fd, self.mode)
            os.replace(tmp, self.path)
        except OSError as e:
            os.close(fd)
            os.unlink(tmp)
            raise OutputError("write", self.path, e) from None
        return open(fd, "w", encoding="utf-8", newline="")


def escape(text, limit=None):
    """text fit for one line of a terminal: control characters (ESC, CR,
    tabs, newlines, C1 and the bidirectional overrides) as \\xNN or
    \\uNNNN, and at most limit characters of it, with how many more.
    Said once: escaping twice gives the same line."""
    out = []
    for c in text[:limit] if limit is not None else text:
        o = ord(c)
        if o < 0x20 or o == 0x7f or 0x80 <= o < 0xa0:
            out.append("\\x%02x" % o)
        elif 0x200b <= o <= 0x200f or 0x202a <= o <= 0x202e or \
                0x2066 <= o <= 0x2069:
            out.append("\\u%04x" % o)
        else:
            out.append(c)
    if limit is not None and len(text) > limit:
        out.append("... (%d more characters)" % (len(text) - limit))
    return "".join(out)
