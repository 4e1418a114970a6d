# SPDX-License-Identifier: BSD-3-Clause
"""perf_event_open's CPU migrations: counted behind the gate, or n/a
once with the kernel's reason."""

import errno
import os
import subprocess
import unittest
from unittest import mock

from pinrun_compare import counters
from pinrun_compare.counters import Counters, Refused
from pinrun_compare.runner import Child


def must_work():
    return os.environ.get("PINRUN_MUST_WORK", "0") == "1"


class CountersTest(unittest.TestCase):

    def setUp(self):
        Counters.refused = None

    def tearDown(self):
        Counters.refused = None

    def test_a_gated_command_is_counted(self):
        child = Child(["sh", "-c", "sleep 0.01"], subprocess.DEVNULL,
                      subprocess.DEVNULL, count=True)
        status, _, _ = child.wait()
        self.assertEqual(status, 0)
        if Counters.refused is not None:
            if must_work():
                self.fail("required but unavailable: " + Counters.refused)
            self.skipTest(Counters.refused)
        self.assertIsInstance(child.migrations, int)
        self.assertGreaterEqual(child.migrations, 0)

    def test_an_unknown_machine_is_refused_with_its_name(self):
        with mock.patch.object(counters, "SYSCALL", {}):
            with self.assertRaises(Refused) as cm:
                counters.open_counter(os.getpid())
        self.assertEqual(str(cm.exception),
                         "perf_event_open: no system call number known "
                         "for %s" % os.uname().machine)

    def test_a_refusal_says_why_once_and_the_command_still_runs(self):
        def refuse(*_):
            counters.ctypes.set_errno(errno.EACCES)
            return -1
        calls = []

        def syscall():
            calls.append(1)
            return refuse, 298
        with mock.patch.object(counters, "_syscall", syscall):
            for _ in range(2):
                child = Child(["true"], subprocess.DEVNULL,
                              subprocess.DEVNULL, count=True)
                self.assertEqual(child.wait()[0], 0)
                self.assertIsNone(child.migrations)
        self.assertEqual(calls, [1])
        self.assertEqual(Counters.refused,
                         "perf_event_open: Permission denied "
                         "(kernel.perf_event_paranoid, or a seccomp filter)")

    def test_a_closed_gate_runs_nothing(self):
        r, w = os.pipe()
        os.close(w)
        done = subprocess.run(counters.gate_words(r) + ["sh", "-c",
                                                        "echo ran"],
                              pass_fds=(r,), capture_output=True,
                              check=False)
        os.close(r)
        self.assertEqual((done.returncode, done.stdout), (125, b""))


if __name__ == "__main__":
    unittest.main()
