/* SPDX-License-Identifier: BSD-3-Clause */
/* What the running kernel says and does: affinity, the current CPU, load,
 * memory policy, a process's threads. Functions return 0 or a negative
 * errno; none prints or exits. */
#ifndef PINRUN_HOST_H
#define PINRUN_HOST_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "cpulist.h"
#include "gain.h"
#include "mempolicy.h"

int host_get_affinity(pid_t tid, struct cpuset *set);
int host_set_affinity(pid_t tid, const struct cpuset *set);
/* The CPU the caller runs on, or a negative errno. */
int host_current_cpu(void);
/* The CPU a task last ran on (from /proc), or a negative errno. */
int host_last_cpu(pid_t pid);
/* The online CPUs (from sysfs). */
int host_online(struct cpuset *set);
/* NUMA node node's free memory now, in bytes (its MemFree in sysfs).
 * Returns 0, or a negative errno. */
int host_node_free(unsigned node, unsigned long long *bytes);
/* The memory nodes a process may use (Mems_allowed_list). */
int host_mems_allowed(pid_t pid, struct cpuset *nodes);

/* Sample /proc/stat over ms milliseconds: busy[cpu] is the share of that
 * time the CPU was not idle, 0..1, for cpu < len. */
int host_sample_busy(double *busy, unsigned len, unsigned ms);

/* --mem's modes (enum host_mempolicy, mempolicy.h), from host.c's one
 * table. numactl's and --mem's word for a mode: "bind", "interleave"... */
const char *host_mempolicy_name(enum host_mempolicy mode);
/* Whether a mode takes nodes (local does not: each page goes to the node
 * of the CPU that first touches it). */
bool host_mempolicy_nodes(enum host_mempolicy mode);
/* Set the caller's memory policy (nodes is ignored for LOCAL). PREFERRED
 * with several nodes is the kernel's MPOL_PREFERRED_MANY (Linux 5.15):
 * an older kernel refuses it with -EINVAL. */
int host_set_mempolicy(enum host_mempolicy mode, const struct cpuset *nodes);

/* What the kernel says can change this machine's topology: the boot, the
 * online CPUs, the cgroup cpuset's CPUs and memory nodes (its content,
 * not its path), as one line of text. Returns 0, or -ENOTSUP when the
 * cpuset's CPUs cannot be read (a cgroup mounted where pinrun does not
 * look). */
int host_topology_key(char *key, size_t size);

/* Why ptrace may be refused here: the seccomp mode of the caller (0 none,
 * 2 a filter), Yama's ptrace_scope (-1 when there is no Yama), and a
 * process's name (its comm). Negative errno on failure. */
int host_seccomp_mode(void);
int host_yama_scope(void);
/* fd itself, or when it is 0, 1 or 2 (pinrun was started with one of
 * them closed) a close-on-exec copy above them, fd closed: so that what
 * is later opened as stdin, stdout or stderr does not land on it. -1 with
 * errno when the copy fails; a negative fd is returned as it is. */
int host_fd_above_stdio(int fd);
/* Before a fork whose child the caller waits for: where SIGCHLD is
 * ignored (SIG_IGN or SA_NOCLDWAIT, from whatever started pinrun), the
 * kernel would reap the child at its end and the wait would find no
 * child, so the caller takes the default; *had keeps what it had, which
 * the child puts back with host_sigchld_restore (for a command to
 * inherit, as without pinrun), and the caller too where it has waited. */
void host_sigchld_default(struct sigaction *had);
void host_sigchld_restore(const struct sigaction *had);
int host_comm(pid_t pid, char *buf, size_t size);

/* The thread ids of a process, in a new array the caller frees. */
int host_threads(pid_t pid, pid_t **tids, unsigned *n);

/* The field name of /proc/PID/status ("TracerPid", "Tgid"...) as a
 * decimal number (>= 0), or a negative errno (-ENOENT: no such field). */
long long host_status_number(pid_t pid, const char *name);
/* A task's ids in each PID namespace it is in, from the reader's own down
 * to the task's (NSpid): how many, the first max of them in ids; or a
 * negative errno. HOST_NSPID_MAX ids hold every level there can be (the
 * kernel nests PID namespaces 32 deep at most). */
#define HOST_NSPID_MAX 32
int host_nspid(pid_t pid, pid_t *ids, unsigned max);
/* "/proc/PID/exe" of pid in buf (size bytes: HOST_EXE_PATH_SIZE hold any
 * pid's); returns buf. */
#define HOST_EXE_PATH_SIZE 64
char *host_exe_path(pid_t pid, char *buf, size_t size);
/* The task (its id here) that is vtid in the PID namespace of task of,
 * found in /proc (slow: for a rare case); 0 when there is none. */
pid_t host_task_in_ns(pid_t of, pid_t vtid);
/* Whether the caller has the capability cap (CAP_*) in its effective
 * set. */
bool host_capable(int cap);
/* What RLIMIT_NPROC leaves the caller's real user: *limit, the soft
 * limit, and *running, the tasks (threads count) the user runs now, from
 * /proc. Returns 0; 1 when no limit binds (none set, or the caller is
 * root or has CAP_SYS_RESOURCE or CAP_SYS_ADMIN, whom the kernel
 * exempts); or a negative errno. */
int host_nproc(long long *limit, long long *running);
/* Whether the running kernel's version is at least major.minor. */
bool host_kernel_at_least(unsigned major, unsigned minor);

/* What a program gives the caller's credentials at exec (gain.h). */
enum host_gain host_exec_gain(const char *path);
/* What command, found as execvp would (PATH searched as glibc does),
 * gains at exec (host_exec_gain). */
enum host_gain host_privileged_program(const char *command);

/* The tightest CPU quota on the caller: of its cgroup and every ancestor,
 * cgroup v2's cpu.max or v1's cpu.cfs_quota_us / cpu.cfs_period_us, the
 * one that allows the fewest CPUs. Fills quota and period (microseconds;
 * period 0 when no cgroup has a quota) and where (the file that sets it).
 * Returns 0, or a negative errno when /proc/self/cgroup cannot be read. */
int host_cpu_quota(unsigned long long *quota, unsigned long long *period,
		   char *where, size_t size);
/* The CPU view's library (view/view.c) that goes with this pinrun, as an
 * absolute path in buf: beside it in the build tree
 * (view/libpinrun-view.so), else where make install puts it (the
 * directory PINRUN_LIB_REL names from pinrun's own). Returns 0, -ENOENT
 * when there is none, -EINVAL when its path has a space or a colon
 * (LD_PRELOAD splits there), -ENAMETOOLONG. */
int host_view_library(char *buf, size_t size);
/* pinrun sees the machine as it is: where an outer pinrun --tell preloaded
 * its CPU view (PINRUN_VIEW set), make the view library, if loaded, settle
 * on "no view" for this process and its forks (it reads PINRUN_VIEW once,
 * at the first call that needs it), leaving the environment as it was for
 * the command. Call first, before anything counts CPUs or reads /sys. */
void host_unview(void);
/* Close every descriptor from lo to hi (close_range, Linux 5.9; before
 * it, those /proc/self/fd lists). */
void host_close_range(unsigned lo, unsigned hi);
/* Close every descriptor but those of keep (n of them, -1s ignored; the
 * array is sorted in place). */
void host_close_all_but(int *keep, unsigned n);
/* Whether the user (uid true) or group id, as the caller sees it, is
 * mapped in the user namespace of pid (/proc/PID/uid_map or gid_map): a
 * set-user-ID file whose owner is not mapped there gives nothing at exec.
 * True when the map cannot be read. */
bool host_id_mapped(pid_t pid, bool uid, unsigned id);
/* A task's state letter in /proc/TID/stat ('R', 'S', 'Z', 't', ...), or
 * 0 when it cannot be read (the task is gone). */
char host_task_state(pid_t tid);

#endif
