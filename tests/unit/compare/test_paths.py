# SPDX-License-Identifier: BSD-3-Clause
"""Writing outputs: atomically, in the directory of the path as given, a
symbolic link replaced and never followed, a planted one refused, the
user's umask."""

import os
import stat
import tempfile
import unittest

from pinrun_compare import common, paths

UNUSED_UID = 65533


class Paths(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.victim = os.path.join(self.dir, "victim")
        with open(self.victim, "w", encoding="utf-8") as f:
            f.write("precious\n")

    def tearDown(self):
        self.tmp.cleanup()

    def read(self, path):
        with open(path, encoding="utf-8") as f:
            return f.read()

    def test_a_link_is_replaced_not_followed(self):
        link = os.path.join(self.dir, "report.txt")
        os.symlink(self.victim, link)
        paths.AtomicFile(link).write("report\n")
        self.assertFalse(os.path.islink(link))
        self.assertEqual(self.read(link), "report\n")
        self.assertEqual(self.read(self.victim), "precious\n")

    def test_a_growing_record_replaces_the_link_too(self):
        link = os.path.join(self.dir, "runs.csv")
        os.symlink(self.victim, link)
        with paths.AtomicFile(link).open_growing() as f:
            f.write("a,b\n")
        self.assertFalse(os.path.islink(link))
        self.assertEqual(self.read(link), "a,b\n")
        self.assertEqual(self.read(self.victim), "precious\n")

    @unittest.skipUnless(os.geteuid() == 0, "needs root to plant a link "
                         "as another user")
    def test_a_link_planted_in_a_sticky_directory_is_refused(self):
        shared = os.path.join(self.dir, "shared")
        os.mkdir(shared)
        os.chmod(shared, 0o1777)
        link = os.path.join(shared, "report.txt")
        os.symlink(self.victim, link)
        os.chown(link, UNUSED_UID, UNUSED_UID, follow_symlinks=False)
        with self.assertRaises(common.OutputError) as cm:
            paths.AtomicFile(link)
        self.assertEqual(str(cm.exception), "cannot write '%s': a symbolic "
                         "link owned by uid %d in the shared directory "
                         "'%s': give a path of your own" %
                         (link, UNUSED_UID, shared))
        self.assertEqual(cm.exception.status, 6)
        self.assertTrue(os.path.islink(link))
        self.assertEqual(self.read(self.victim), "precious\n")
        # Not sticky: the link is replaced like any other.
        os.chmod(shared, 0o777)
        paths.AtomicFile(link).write("report\n")
        self.assertEqual(self.read(self.victim), "precious\n")

    def test_a_new_file_gets_the_umask(self):
        old = os.umask(0o027)
        try:
            path = os.path.join(self.dir, "new.txt")
            paths.AtomicFile(path).write("x\n")
        finally:
            os.umask(old)
        self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o640)

    def test_a_replaced_file_keeps_its_mode(self):
        os.chmod(self.victim, 0o604)
        paths.AtomicFile(self.victim).write("new\n")
        self.assertEqual(stat.S_IMODE(os.stat(self.victim).st_mode), 0o604)

    def test_a_directory_is_refused(self):
        with self.assertRaises(common.OutputError) as cm:
            paths.AtomicFile(self.dir)
        self.assertEqual(str(cm.exception),
                         "cannot write '%s': Is a directory" % self.dir)

    def test_escape(self):
        self.assertEqual(paths.escape("a\x1b[2Jb\r\n\u202e"),
                         "a\\x1b[2Jb\\x0d\\x0a\\u202e")
        self.assertEqual(paths.escape("x" * 10, 4),
                         "xxxx... (6 more characters)")


if __name__ == "__main__":
    unittest.main()
