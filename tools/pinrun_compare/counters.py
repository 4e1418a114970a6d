# SPDX-License-Identifier: BSD-3-Clause
"""The kernel's software counters of a command's tree, with
perf_event_open(2): CPU migrations. The command is started behind a
gate (a pipe its first process reads before it execs the command), the
counter is opened on that process with inherit, so that every process
it starts counts too, and the gate is released; the counter is read
after wait4. Where the kernel refuses (perf_event_paranoid, seccomp, no
perf events), why is said once and the column is n/a."""

import ctypes
import errno
import os
import struct

# perf_event_open's number, by machine (asm/unistd.h).
SYSCALL = {"x86_64": 298, "aarch64": 241, "i686": 336, "i386": 336,
           "armv7l": 364, "ppc64le": 319, "s390x": 331, "riscv64": 241}
PERF_TYPE_SOFTWARE = 1
PERF_COUNT_SW_CPU_MIGRATIONS = 4
ATTR_SIZE = 64  # PERF_ATTR_SIZE_VER0
INHERIT = 1 << 1  # the attr's flags: disabled is bit 0, inherit bit 1
PERF_FLAG_FD_CLOEXEC = 1 << 3



def gate_words(fd):
    """The words that start a command behind the gate, the pipe's read
    end fd: read a line, close the gate, exec the command. A gate closed
    without a line (pinrun-compare gone) runs nothing."""
    return ["sh", "-c", 'read -r _ <&%d || exit 125; exec "$@" %d<&-' %
            (fd, fd), "sh"]


class Refused(Exception):
    """The kernel does not count for this process: why, in words."""


def _syscall():
    machine = os.uname().machine
    if machine not in SYSCALL:
        raise Refused("perf_event_open: no system call number known for %s"
                      % machine)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc.syscall, SYSCALL[machine]


def open_counter(pid, config=PERF_COUNT_SW_CPU_MIGRATIONS):
    """A descriptor counting config for pid and its future children, on
    any CPU; Refused where the kernel will not."""
    call, number = _syscall()
    attr = bytearray(ATTR_SIZE)
    struct.pack_into("=IIQ", attr, 0, PERF_TYPE_SOFTWARE, ATTR_SIZE, config)
    struct.pack_into("=Q", attr, 40, INHERIT)
    buf = (ctypes.c_char * ATTR_SIZE).from_buffer(attr)
    fd = call(ctypes.c_long(number), buf, ctypes.c_int(pid),
              ctypes.c_int(-1), ctypes.c_int(-1),
              ctypes.c_ulong(PERF_FLAG_FD_CLOEXEC))
    if fd < 0:
        err = ctypes.get_errno()
        why = os.strerror(err)
        if err in (errno.EACCES, errno.EPERM):
            why += " (kernel.perf_event_paranoid, or a seccomp filter)"
        elif err in (errno.ENOSYS, errno.ENOENT, errno.EOPNOTSUPP):
            why += " (no perf events in this kernel)"
        raise Refused("perf_event_open: " + why)
    return fd


def read_counter(fd):
    """The count (8 bytes), or None where it cannot be read; closes fd."""
    try:
        data = os.read(fd, 8)
    except OSError:
        data = b""
    finally:
        os.close(fd)
    return struct.unpack("=Q", data)[0] if len(data) == 8 else None


class Counters:
    """The counters of the runs of one comparison: refused says why the
    kernel does not count (then the column is n/a), once."""

    refused = None

    @classmethod
    def attach(cls, pid):
        """The counter's descriptor for a gated process, or None."""
        if cls.refused is not None:
            return None
        try:
            return open_counter(pid)
        except Refused as e:
            cls.refused = str(e)
            return None
