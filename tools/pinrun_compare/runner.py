# SPDX-License-Identifier: BSD-3-Clause
import os
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from .paths import escape
from .common import STOP_KILL_S, STOP_TERM_S, UsageError
from .counters import Counters, gate_words, read_counter
from .record import GNU_TIME, RUSAGE_MARK, fail_reason, parse_figure


# --- finding and checking the programs ---------------------------------------

def find_pinrun():
    """$PINRUN, else the build tree's or an installed sibling, else PATH."""
    env = os.environ.get("PINRUN")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(sys.argv[0]))
    for cand in (os.path.join(here, "..", "pinrun"),
                 os.path.join(here, "pinrun")):
        if os.path.isfile(cand) and os.access(cand, os.X_OK):
            return os.path.normpath(cand)
    found = shutil.which("pinrun")
    if found:
        return found
    raise UsageError("cannot find pinrun: set PINRUN or put pinrun on PATH")


def check_command(word, rest=()):
    """The command's first word is a program; rest, its other words, tell
    hyperfine's habit of several shell strings, one per command."""
    if "/" in word:
        if not (os.path.isfile(word) and os.access(word, os.X_OK)):
            raise UsageError("cannot run '%s': not an executable file" % word)
    elif shutil.which(word) is None:
        if " " in word.strip() and rest:
            # pinrun-compare 'cmd1' 'cmd2': hyperfine's way of comparing
            # two commands, which is not what this compares.
            raise UsageError(
                "command '%s' not found: pinrun-compare times one command "
                "under several placements (-p), given as its words (%s); "
                "to compare several commands, use hyperfine %s" % (
                    word, word.strip(),
                    " ".join(shlex.quote(w) for w in (word,) + tuple(rest))))
        if " " in word.strip():
            raise UsageError("command '%s' not found: give the words (%s), "
                             "or sh -c '%s'" % (word, word.strip(),
                                               word.replace("'", "'\\''")))
        raise UsageError("command '%s' not found" % word)


def check_shell_command(kind, text):
    """--metric, --prepare or --cleanup, checked before the first run:
    its first word is something sh can run. -m 5 (hyperfine's
    --min-runs) is not."""
    try:
        words = shlex.split(text)
    except ValueError:
        words = []
    if not words or re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*|[(].*",
                                 words[0]):
        return  # sh's to judge: an assignment, a subshell
    if re.fullmatch(r"[0-9]+", words[0]) and kind == "metric":
        raise UsageError("invalid metric command '%s': -m is --metric here, "
                         "a command whose last line is the figure; "
                         "hyperfine's -m is --min-runs: -n %s" %
                         (text, words[0]))
    try:
        found = subprocess.run(["sh", "-c", 'command -v -- "$1"', "sh",
                                words[0]], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=30,
                               check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return
    if not found:
        raise UsageError("invalid %s command '%s': '%s' not found" %
                         (kind, text, words[0]))


def run_pinrun(pinrun, label, argv):
    try:
        return subprocess.run([pinrun] + argv, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=30, check=False)
    except OSError as e:
        raise UsageError("cannot run pinrun '%s': %s" %
                         (pinrun, e.strerror)) from None
    except subprocess.TimeoutExpired:
        raise UsageError("placement '%s': pinrun did not finish in 30 s" %
                         label) from None


def check_placement(pinrun, p):
    """Refuse a placement pinrun refuses, or one that would not run the
    command (a stray word, --json): the probe must exit with 42. Then ask
    pinrun for the CPUs it gives the command."""
    probe = run_pinrun(pinrun, p.label,
                       p.words + ["--", "sh", "-c", "exit 42"])
    if probe.returncode != 42:
        lines = probe.stderr.decode(errors="replace").splitlines()
        if probe.returncode == 125 and lines:
            raise UsageError("placement '%s': %s" % (p.label, lines[0]))
        raise UsageError("placement '%s' does not run the command (pinrun "
                         "%s exited with status %d)" %
                         (p.label, " ".join(p.words), probe.returncode))
    plan = run_pinrun(pinrun, p.label, p.words + ["--dry-run"])
    text = plan.stdout.decode(errors="replace").strip()
    if plan.returncode == 0 and re.fullmatch(r"[0-9][0-9,-]*", text):
        p.cpus = text


def cpu_list(cpus):
    """A set of CPU numbers as a taskset list: 0-3,8."""
    out = []
    for c in sorted(cpus):
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return ",".join(str(a) if a == b else "%d-%d" % (a, b) for a, b in out)


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            info = f.read()
    except OSError:
        info = ""
    for key in ("model name", "Model", "cpu model", "cpu", "uarch"):
        m = re.search(r"^%s\s*:\s*(.+)$" % re.escape(key), info, re.M)
        if m and m.group(1).strip():
            return " ".join(m.group(1).split())
    return os.uname().machine


def machine_line():
    """The machine: CPU model, CPUs (and how many are allowed), kernel."""
    online = os.sysconf("SC_NPROCESSORS_ONLN")
    allowed = len(os.sched_getaffinity(0))
    cpus = "%d CPU%s" % (online, "s"[:online != 1])
    if allowed != online:
        cpus += " (%d allowed)" % allowed
    u = os.uname()
    return "%s, %s, %s %s" % (cpu_model(), cpus, u.sysname, u.release)




def rusage_wrapper():
    """GNU time's words, to put in front of the command, or none.

    A process started from this Python inherits Python's peak RSS through
    fork and exec, so the command's own peak RSS needs a small process to
    start it: GNU time, which also reports how the command ended. It
    writes to the command's standard error, which is captured anyway, so
    the command gets no extra file descriptor."""
    if os.path.isfile(GNU_TIME) and os.access(GNU_TIME, os.X_OK):
        return [GNU_TIME, "-f", "\\n" + RUSAGE_MARK + " %M"]
    return []


def signal_name(sig):
    try:
        return signal.Signals(sig).name
    except ValueError:
        return "signal %d" % sig


def describe_status(status):
    """A wait status as the exit column shows it."""
    if os.WIFSIGNALED(status):
        return signal_name(os.WTERMSIG(status))
    return str(os.WEXITSTATUS(status))


def read_tail(path, size=65536):
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - size))
            return f.read().decode(errors="replace")
    except OSError:
        return ""


def last_line(text):
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


SHOWN_CHARS = 120  # of a line a command printed, in a note


def shown(text):
    """A command's line, fit for a note: escaped, and not too long."""
    return escape(text, SHOWN_CHARS)


TAIL_BYTES = 65536  # of a command's standard error, all that is kept


class Tail:
    """A command's standard error through a pipe, of which only the last
    TAIL_BYTES are kept, in memory: a run that prints 300 MB writes
    nothing to disk (a file kept it whole). A thread reads it as the
    command writes, so the command never waits on a full pipe."""

    def __init__(self):
        self.read_end, self.write_end = os.pipe()
        self.buf = bytearray()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self.drain, daemon=True)
        self.thread.start()

    def drain(self):
        while True:
            try:
                chunk = os.read(self.read_end, 65536)
            except OSError:
                break
            if not chunk:
                break
            with self.lock:
                self.buf += chunk
                if len(self.buf) > 2 * TAIL_BYTES:
                    del self.buf[:-TAIL_BYTES]
        os.close(self.read_end)

    def fileno(self):
        return self.write_end

    def text(self, wait=0.5):
        """The last TAIL_BYTES, once the command has ended: what it wrote
        until every process of it closed its standard error, or for at
        most wait seconds (a daemon it left may keep it open)."""
        self.close()
        self.thread.join(wait)
        with self.lock:
            return bytes(self.buf[-TAIL_BYTES:]).decode(errors="replace")

    def close(self):
        if self.write_end is not None:
            os.close(self.write_end)
            self.write_end = None

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()


def outcome(text, status, wrapped):
    """How the command ended (the exit column), its peak RSS in KiB (None
    if unknown) and the last line of its standard error, from the wait
    status and what GNU time appended to the standard error (text, its
    last TAIL_BYTES)."""
    at = text.rfind("\n" + RUSAGE_MARK + " ") if wrapped else -1
    if at < 0:
        # No GNU time, or it was killed with the command.
        return describe_status(status), None, last_line(text)
    rss = re.match(RUSAGE_MARK + r" ([0-9]+)", text[at + 1:])
    text = text[:at]
    exit_text = "0"
    m = re.search(r"Command (?:terminated|stopped) by signal ([0-9]+)\n?$",
                  text)
    if m:
        exit_text = signal_name(int(m.group(1)))
    else:
        m = re.search(r"Command exited with non-zero status ([0-9]+)\n?$",
                      text)
        if m:
            exit_text = m.group(1)
    if m:
        text = text[:m.start()]
    return exit_text, int(rss.group(1)) if rss else None, last_line(text)


class Stop:
    """A SIGINT, SIGTERM or SIGHUP while runs are made: the run in
    progress is killed, and no other starts."""
    signum = None
    when = 0.0  # time.monotonic() of the signal
    measuring = False


class Child:
    """A command started in a process group of its own, so that it and
    every process it starts can be signalled together, and waited for with
    wait4 to get its resource usage. Not in a session of its own: with the
    kernel's autogroup scheduling, a new session is a new scheduling group,
    which would change the command's share of a busy machine."""

    live = set()  # killed when pinrun-compare is stopped

    def __init__(self, argv, stdout, stderr, env=None, count=False):
        """With count, the command starts behind a gate that is released
        once its counter is open (counters.py); its time starts then."""
        self.start = time.perf_counter()
        self.counter = None
        self.migrations = None
        gate = os.pipe() if count else None
        try:
            if gate:
                argv = gate_words(gate[0]) + list(argv)
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=stdout,
                stderr=stderr, process_group=0, env=env,
                pass_fds=gate[:1] if gate else ())
            self.pid = self.proc.pid
            self.timed_out = False
            Child.live.add(self)
            if Stop.signum is not None:  # the signal came during Popen
                self.signal(signal.SIGKILL)
            if gate:
                self.counter = Counters.attach(self.pid)
                self.start = time.perf_counter()
                os.write(gate[1], b"\n")
        finally:
            if gate:
                os.close(gate[0])
                os.close(gate[1])

    def signal(self, sig):
        try:
            os.killpg(self.pid, sig)
        except OSError:
            pass

    def time_out(self):
        self.timed_out = True
        self.signal(signal.SIGKILL)

    def wait(self, deadline=None, stop=False):
        """wait4 the leader: (wait status, rusage, wall seconds). At
        deadline, the group is killed. With stop, the group is asked to
        stop now as Ctrl-C would (SIGINT), then with SIGTERM, then
        SIGKILL."""
        timers = []
        now = time.perf_counter()
        if deadline is not None:
            timers.append(threading.Timer(max(0.0, deadline - now),
                                          self.time_out))
        if stop:
            self.signal(signal.SIGINT)
            timers.append(threading.Timer(STOP_TERM_S, self.signal,
                                          (signal.SIGTERM,)))
            timers.append(threading.Timer(STOP_KILL_S, self.signal,
                                          (signal.SIGKILL,)))
        for t in timers:
            t.daemon = True
            t.start()
        try:
            _, status, usage = os.wait4(self.pid, 0)
        finally:
            for t in timers:
                t.cancel()
        return self.reaped(status, usage)

    def poll(self):
        """The same as wait if the leader has ended, else None."""
        pid, status, usage = os.wait4(self.pid, os.WNOHANG)
        return self.reaped(status, usage) if pid else None

    def reaped(self, status, usage):
        wall = time.perf_counter() - self.start
        self.proc.returncode = status  # reaped: Popen must not wait
        if self.counter is not None:
            self.migrations = read_counter(self.counter)
            self.counter = None
        self.reap_group()
        Child.live.discard(self)
        return status, usage, wall

    def reap_group(self):
        """Processes the command left behind would load the next run:
        TERM them, and KILL what is still there after a grace time."""
        try:
            os.killpg(self.pid, 0)
        except OSError:
            return
        self.signal(signal.SIGTERM)
        end = time.perf_counter() + STOP_KILL_S
        while time.perf_counter() < end:
            time.sleep(0.01)
            try:
                os.killpg(self.pid, 0)
            except OSError:
                return
        self.signal(signal.SIGKILL)


def deadline_of(o, child=None):
    """When a run is killed: the timeout after the command's time starts
    (child's, once its gate is open), so that a killed run's wall time is
    at least the timeout."""
    if o.timeout is None:
        return None
    return (child.start if child else time.perf_counter()) + o.timeout


def timed_out_note(o):
    return "killed after the %g s timeout" % o.timeout


def run_hook(kind, command, o, env):
    """--prepare or --cleanup: None when it went well, else why not."""
    with tempfile.NamedTemporaryFile() as err:
        try:
            child = Child(["sh", "-c", command], subprocess.DEVNULL, err,
                          env)
        except OSError as e:
            return "%s: cannot run sh: %s" % (kind, e.strerror)
        status, _, _ = child.wait(deadline_of(o))
        said = shown(last_line(read_tail(err.name)))
    if child.timed_out:
        return "%s %s" % (kind, timed_out_note(o))
    if status != 0:
        return "%s exited with status %s%s" % (
            kind, describe_status(status), ": " + said if said else "")
    return None


def start(argv, run, errfile):
    wrap = rusage_wrapper()
    try:
        return Child(wrap + argv, subprocess.DEVNULL, errfile.fileno(),
                     count=True), wrap
    except OSError as e:
        run.fail("cannot run %s: %s" % (argv[0], e.strerror), "127")
        return None, wrap


def record(run, errfile, wrap, ended, child):
    """Fill the run from a reaped command; the last line of its stderr."""
    status, usage, wall = ended
    run.migrations = child.migrations
    run.exit, run.maxrss_kb, said = outcome(errfile.text(), status,
                                            bool(wrap))
    run.wall_s = round(wall, 6)
    run.user_s = usage.ru_utime
    run.sys_s = usage.ru_stime
    run.vcsw, run.ivcsw = usage.ru_nvcsw, usage.ru_nivcsw
    run.minflt, run.majflt = usage.ru_minflt, usage.ru_majflt
    return said



def ended_text(run, said):
    """How a failed command ended, with its last word on stderr."""
    return fail_reason(run.exit) + (": " + shown(said) if said else "")


def exited_well(run, o):
    return run.exit == "0" or (o.ignore_status
                               and re.fullmatch("[0-9]+", run.exit))


def run_plain(argv, run, o, errfile):
    """The figure is the wall time, from fork to wait."""
    child, wrap = start(argv, run, errfile)
    if child is None:
        return
    deadline = deadline_of(o, child)
    said = record(run, errfile, wrap, child.wait(deadline), child)
    if child.timed_out:
        run.fail(timed_out_note(o), "timeout")
    elif not exited_well(run, o):
        run.fail(ended_text(run, said))
    else:
        run.figure = run.wall_s



def run_with_metric(argv, run, o, errfile, env):
    """Start the command, run the metric while it runs, then stop the
    command. The figure is the last line the metric prints."""
    service, wrap = start(argv, run, errfile)
    if service is None:
        return
    deadline = deadline_of(o, service)
    env = dict(env, PINRUN_COMPARE_PID=str(service.pid))
    with tempfile.TemporaryFile() as out, \
            tempfile.NamedTemporaryFile() as err:
        try:
            metric = Child(["sh", "-c", o.metric], out, err, env)
            mstatus, _, _ = metric.wait(deadline)
            timed_out = metric.timed_out
        except OSError as e:
            mstatus, timed_out = 127 << 8, False
            err.write(("cannot run sh: %s\n" % e.strerror).encode())
            err.flush()
        out.seek(0, os.SEEK_END)
        out.seek(max(0, out.tell() - 65536))  # a number is not longer
        line = last_line(out.read().decode(errors="replace"))
        metric_err = shown(last_line(read_tail(err.name)))
    ended = service.poll()
    stopped = ended is None
    if stopped:
        ended = service.wait(stop=True)
    said = record(run, errfile, wrap, ended, service)
    mexit = describe_status(mstatus)
    figure = parse_figure(line)
    if timed_out:
        run.fail(timed_out_note(o), "timeout")
    elif mexit != "0":
        run.fail("metric exited with status %s%s" %
                 (mexit, ": " + metric_err if metric_err else ""))
    elif figure is None:
        run.fail("metric printed no positive number last: '%s'" %
                 shown(line))
    elif not stopped and not exited_well(run, o):
        run.fail("the command ended before the metric: " +
                 ended_text(run, said))
    else:
        run.figure = figure


def one_run(o, p, pinrun, run):
    """prepare, the command under placement p (and the metric), cleanup.
    The run, or None when a signal stopped it before its figure."""
    env = dict(os.environ, PINRUN_COMPARE_PLACEMENT=p.label,
               PINRUN_COMPARE_RUN=str(run.seq),
               PINRUN_COMPARE_ROUND=str(run.round),
               PINRUN_COMPARE_PHASE=run.phase)
    if o.prepare is not None:
        note = run_hook("prepare", o.prepare, o, env)
        if Stop.signum is not None:
            return None
        if note is not None:
            run.fail(note)
            return run
    argv = list(o.command)
    if p.words is not None:
        argv = [pinrun] + p.words + ["--"] + argv
    with Tail() as errfile:
        if o.metric is None:
            run_plain(argv, run, o, errfile)
        else:
            run_with_metric(argv, run, o, errfile, env)
    if Stop.signum is not None:
        return None
    if o.cleanup is not None:
        note = run_hook("cleanup", o.cleanup, o, env)
        if note is not None and run.status == "ok" and Stop.signum is None:
            run.fail(note)
    return run


# --- the conditions ----------------------------------------------------------

def read_text(path):
    """A small kernel file's text, stripped, or None where unreadable."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read(4096).strip()
    except OSError:
        return None


def cpu_file(cpu, name):
    return read_text("/sys/devices/system/cpu/cpu%d/%s" % (cpu, name))


def parse_cpus(text):
    """A taskset list (0-3,8) as a set of CPU numbers."""
    out = set()
    for part in (text or "").split(","):
        if re.fullmatch(r"[0-9]+", part):
            out.add(int(part))
        elif re.fullmatch(r"[0-9]+-[0-9]+", part):
            a, b = map(int, part.split("-"))
            out.update(range(a, b + 1))
    return out


def fingerprint(placements):
    """What may explain a placement's speed besides the placement, where
    the kernel says it: each placement's CPUs with their frequency
    governor, current frequency and SMT siblings online; the load
    average; the kernel; transparent huge pages; NUMA balancing."""
    online = parse_cpus(read_text("/sys/devices/system/cpu/online"))
    per = {}
    for p in placements:
        cpus = sorted(parse_cpus(p.cpus))
        governors = {cpu_file(c, "cpufreq/scaling_governor") for c in cpus}
        khz = [cpu_file(c, "cpufreq/scaling_cur_freq") for c in cpus]
        khz = [int(k) for k in khz if k and k.isdigit()]
        siblings = set()
        for c in cpus:
            siblings |= parse_cpus(cpu_file(
                c, "topology/thread_siblings_list"))
        per[p.label] = {
            "cpus": p.cpus,
            "governor": ",".join(sorted(g for g in governors if g)) or None,
            "mhz": round(statistics.median(khz) / 1000) if khz else None,
            "smt_siblings_online": len((siblings - set(cpus)) & online),
        }
    thp = read_text("/sys/kernel/mm/transparent_hugepage/enabled")
    m = re.search(r"\[(\w+)\]", thp or "")
    load = (read_text("/proc/loadavg") or "").split()[:3]
    return {
        "kernel": os.uname().release,
        "load": " ".join(load) or None,
        "smt": read_text("/sys/devices/system/cpu/smt/control"),
        "thp": m.group(1) if m else None,
        "numa_balancing": read_text("/proc/sys/kernel/numa_balancing"),
        "placements": per,
    }


def conditions_line(fp):
    """The fingerprint in a line of the report."""
    if not isinstance(fp, dict):
        return None
    parts = []
    for label, p in (fp.get("placements") or {}).items():
        if not isinstance(p, dict):
            continue
        bits = ["CPUs %s" % p.get("cpus")]
        if p.get("governor"):
            bits.append(str(p["governor"]))
        if p.get("mhz"):
            bits.append("%s MHz" % p["mhz"])
        bits.append("%s SMT sibling%s online" % (
            p.get("smt_siblings_online"),
            "s"[:p.get("smt_siblings_online") != 1]))
        parts.append("%s: %s" % (label, ", ".join(bits)))
    for key, name in (("load", "load"), ("smt", "SMT"), ("thp", "THP"),
                      ("numa_balancing", "NUMA balancing")):
        if fp.get(key) is not None:
            parts.append("%s %s" % (name, fp[key]))
    return "; ".join(escape(str(p), 200) for p in parts)


STABLE = ("kernel", "smt", "thp", "numa_balancing")


def fingerprint_changes(before, after):
    """What changed between two fingerprints that should not have (the
    load and the frequency may): a list of "what: before -> after"."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return []
    out = ["%s: %s -> %s" % (k, before.get(k), after.get(k))
           for k in STABLE if before.get(k) != after.get(k)]
    a, b = before.get("placements") or {}, after.get("placements") or {}
    if isinstance(a, dict) and isinstance(b, dict):
        for label in a:
            pa, pb = a.get(label), b.get(label)
            if not isinstance(pa, dict) or not isinstance(pb, dict):
                continue
            for k in ("cpus", "governor", "smt_siblings_online"):
                if pa.get(k) != pb.get(k):
                    out.append("%s %s: %s -> %s" % (label, k, pa.get(k),
                                                     pb.get(k)))
    return [escape(x, 200) for x in out]
