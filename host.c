/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * host.c: the running machine's state, read from and written to the kernel
 * (sched_*affinity, set_mempolicy, /proc, /sys, what a program gains at
 * exec). No topology and no placement policy: its callers (the
 * command-line side, the tracer, the cache, the loader, the report) ask,
 * this file answers with data or a negative errno.
 */
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "host.h"
#include "num.h"

/* The kernel's cpumask is a bitmap of longs, as struct cpuset is. */
int host_get_affinity(pid_t tid, struct cpuset *set)
{
	cpulist_zero(set);
	return sched_getaffinity(tid, sizeof(*set), (cpu_set_t *)set) < 0
		   ? -errno
		   : 0;
}

int host_set_affinity(pid_t tid, const struct cpuset *set)
{
	return sched_setaffinity(tid, sizeof(*set), (const cpu_set_t *)set) < 0
		   ? -errno
		   : 0;
}

int host_current_cpu(void)
{
	int cpu = sched_getcpu();

	return cpu < 0 ? -errno : cpu;
}

/* The whole of a small file (/proc, /sys) into buf, NUL-terminated;
 * -EFBIG when it does not fit: a cut list or key would be wrong, not
 * short. */
static int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, more;
	char extra;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	more = n == (ssize_t)size - 1 ? read(fd, &extra, 1) : 0;
	if (n < 0 || more < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	if (more > 0)
		return -EFBIG;
	buf[n] = '\0';
	return (int)n;
}

int host_last_cpu(pid_t pid)
{
	char path[64], buf[1024], *p;
	int n, field = 2;
	unsigned long cpu;
	size_t len;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((n = read_file(path, buf, sizeof(buf))) < 0)
		return n;
	/* Field 2 is "(comm)", which may hold spaces: count after it. */
	p = strrchr(buf, ')');
	if (!p)
		return -EINVAL;
	while (*p && field < 39)
		if (*p++ == ' ')
			field++;
	return *p && num_decimal(p, NUM_TO_NUL, 0, INT_MAX, &cpu, &len) ==
			   NUM_OK
		   ? (int)cpu
		   : -EINVAL;
}

static int read_list(const char *path, struct cpuset *set)
{
	char buf[32768]; /* "0,2,4,...,8190" */
	struct cpulist_error err;
	int n = read_file(path, buf, sizeof(buf));

	if (n < 0)
		return n;
	buf[strcspn(buf, "\n")] = '\0';
	cpulist_zero(set);
	if (!buf[0])
		return 0;
	return cpulist_parse_list(buf, set, &err) < 0 ? -EINVAL : 0;
}

int host_online(struct cpuset *set)
{
	return read_list("/sys/devices/system/cpu/online", set);
}

int host_node_free(unsigned node, unsigned long long *bytes)
{
	char path[80], line[256];
	unsigned long long kb;
	int r = -ENODATA;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%u/meminfo",
		 node);
	if (!(f = fopen(path, "re")))
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		/* "Node 0 MemFree:        123456 kB" */
		const char *p = strstr(line, " MemFree:");
		size_t len;

		if (!p)
			continue;
		p += strlen(" MemFree:");
		p += strspn(p, " \t");
		if (num_decimal_ull(p, NUM_TO_NUL, 0, ULLONG_MAX, &kb, &len) ==
		    NUM_OK) {
			*bytes = kb * 1024;
			r = 0;
			break;
		}
	}
	fclose(f);
	return r;
}

/* The field name of /proc/PID/status ("TracerPid", "Tgid", "CapEff"...):
 * its value, without the blanks after the colon, in buf. Returns 0 or a
 * negative errno (-ENOENT: no such field). */
static int status_field(pid_t pid, const char *name, char *buf, size_t size);

int host_mems_allowed(pid_t pid, struct cpuset *nodes)
{
	char list[8192];
	struct cpulist_error err;
	int r = status_field(pid, "Mems_allowed_list", list, sizeof(list));

	if (r < 0)
		return r;
	return cpulist_parse_list(list, nodes, &err) < 0 ? -EINVAL : 0;
}

struct stat_sample {
	unsigned long long busy, total;
};

static int read_stat(struct stat_sample *s, unsigned len)
{
	FILE *f = fopen("/proc/stat", "re");
	char line[512];

	if (!f)
		return -errno;
	memset(s, 0, len * sizeof(*s));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[10] = { 0 }, total = 0;
		unsigned cpu;

		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		if (sscanf(line + 3,
			   "%u %llu %llu %llu %llu %llu %llu %llu %llu", &cpu,
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7]) < 5 ||
		    cpu >= len)
			continue;
		for (int i = 0; i < 8; i++)
			total += v[i];
		s[cpu].total = total;
		s[cpu].busy = total - v[3] - v[4]; /* idle and iowait */
	}
	fclose(f);
	return 0;
}

int host_sample_busy(double *busy, unsigned len, unsigned ms)
{
	struct stat_sample *a = calloc(len, sizeof(*a)),
			   *b = calloc(len, sizeof(*b));
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	int r = -ENOMEM;

	if (!a || !b)
		goto out;
	if ((r = read_stat(a, len)) < 0)
		goto out;
	nanosleep(&ts, NULL);
	if ((r = read_stat(b, len)) < 0)
		goto out;
	for (unsigned i = 0; i < len; i++) {
		unsigned long long dt = b[i].total - a[i].total;

		busy[i] =
		    dt ? (double)(b[i].busy - a[i].busy) / (double)dt : 0.0;
	}
out:
	free(a);
	free(b);
	return r;
}

/* MPOL_* from <linux/mempolicy.h>, stable kernel ABI. */
enum {
	MPOL_PREFERRED_ = 1,
	MPOL_BIND_ = 2,
	MPOL_INTERLEAVE_ = 3,
	MPOL_LOCAL_ = 4,
	MPOL_PREFERRED_MANY_ = 5,
};

/* The memory modes: --mem's word, the kernel's mode for one node and for
 * several, and whether it takes nodes at all. */
static const struct {
	const char *name;
	int mpol, mpol_many;
	bool nodes;
} mem_modes[HOST_MEM_MODES] = {
	[HOST_MEM_BIND] = { "bind", MPOL_BIND_, MPOL_BIND_, true },
	[HOST_MEM_INTERLEAVE] = { "interleave", MPOL_INTERLEAVE_,
				  MPOL_INTERLEAVE_, true },
	[HOST_MEM_PREFERRED] = { "preferred", MPOL_PREFERRED_,
				 MPOL_PREFERRED_MANY_, true },
	[HOST_MEM_LOCAL] = { "local", MPOL_LOCAL_, MPOL_LOCAL_, false },
};

const char *host_mempolicy_name(enum host_mempolicy mode)
{
	return mem_modes[mode].name;
}

bool host_mempolicy_nodes(enum host_mempolicy mode)
{
	return mem_modes[mode].nodes;
}

int host_set_mempolicy(enum host_mempolicy mode, const struct cpuset *nodes)
{
	long r;

	if (!mem_modes[mode].nodes)
		r = syscall(SYS_set_mempolicy, mem_modes[mode].mpol, NULL, 0UL);
	else
		r = syscall(SYS_set_mempolicy,
			    cpulist_count(nodes) > 1 ? mem_modes[mode].mpol_many
						     : mem_modes[mode].mpol,
			    nodes->w, (unsigned long)CPULIST_MAX + 1);
	return r < 0 ? -errno : 0;
}

/* One line of a small text file, without its newline. */
static int read_line(const char *path, char *buf, size_t size)
{
	int n = read_file(path, buf, size);

	if (n < 0)
		return n;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* The CPUs of a cpuset cgroup: cgroup v1's cpuset hierarchy, else v2's
 * unified one, where a cgroup without the cpuset controller has its
 * parent's CPUs. */
static int cpuset_cpus(const char *cpuset, char *buf, size_t size)
{
	static const char *const v2_roots[] = { "/sys/fs/cgroup",
						"/sys/fs/cgroup/unified" };
	char path[4200], dir[4096];

	snprintf(path, sizeof(path),
		 "/sys/fs/cgroup/cpuset%s/cpuset.effective_cpus", cpuset);
	if (read_line(path, buf, size) == 0)
		return 0;
	for (size_t r = 0; r < 2; r++) {
		snprintf(dir, sizeof(dir), "%s", cpuset);
		for (;;) {
			char *slash = strrchr(dir, '/');

			snprintf(path, sizeof(path),
				 "%s%s/cpuset.cpus.effective", v2_roots[r],
				 dir);
			if (read_line(path, buf, size) == 0)
				return 0;
			if (!slash || !dir[0])
				break;
			*slash = '\0';
		}
	}
	return -ENOTSUP;
}

int host_topology_key(char *key, size_t size)
{
	char boot[64], online[8192], cpuset[2048], cpus[8192], mems[1024];
	struct cpuset nodes;
	int r;

	if ((r = read_line("/proc/sys/kernel/random/boot_id", boot,
			   sizeof(boot))) < 0 ||
	    (r = read_line("/sys/devices/system/cpu/online", online,
			   sizeof(online))) < 0)
		return r;
	if (read_line("/proc/self/cpuset", cpuset, sizeof(cpuset)) < 0)
		snprintf(cpuset, sizeof(cpuset), "/");
	/* The cpuset's CPUs, not its path: inside a cgroup namespace every
	 * container's cpuset is "/", with CPUs of its own. */
	if (cpuset_cpus(cpuset, cpus, sizeof(cpus)) < 0) {
		if (strcmp(cpuset, "/"))
			return -ENOTSUP;
		snprintf(cpus, sizeof(cpus), "no cpuset");
	}
	if ((r = host_mems_allowed(getpid(), &nodes)) < 0)
		return r;
	cpulist_format(&nodes, mems, sizeof(mems));
	r = snprintf(key, size, "boot %s; online %s; cpus %s; mems %s", boot,
		     online, cpus, mems);
	return r < 0 || (size_t)r >= size ? -ENOSPC : 0;
}

int host_seccomp_mode(void)
{
	long long mode = host_status_number(getpid(), "Seccomp");

	return (int)mode;
}

int host_yama_scope(void)
{
	char buf[16];
	unsigned long scope;
	size_t len;

	if (read_line("/proc/sys/kernel/yama/ptrace_scope", buf, sizeof(buf)) <
		0 ||
	    num_decimal(buf, NUM_TO_NUL, 0, INT_MAX, &scope, &len) != NUM_OK)
		return -1;
	return (int)scope;
}

int host_fd_above_stdio(int fd)
{
	int moved, e;

	if (fd < 0 || fd > 2)
		return fd;
	moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	e = errno;
	close(fd);
	errno = e;
	return moved;
}

void host_sigchld_default(struct sigaction *had)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	sigemptyset(&dfl.sa_mask);
	if (sigaction(SIGCHLD, NULL, had) == 0 &&
	    (had->sa_handler == SIG_IGN || (had->sa_flags & SA_NOCLDWAIT)))
		sigaction(SIGCHLD, &dfl, NULL);
}

void host_sigchld_restore(const struct sigaction *had)
{
	sigaction(SIGCHLD, had, NULL);
}

int host_comm(pid_t pid, char *buf, size_t size)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	return read_line(path, buf, size);
}

int host_threads(pid_t pid, pid_t **tids, unsigned *n)
{
	char path[64];
	DIR *d;
	struct dirent *e;
	unsigned cap = 16;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	*n = 0;
	*tids = malloc(cap * sizeof(**tids));
	if (!*tids)
		return -ENOMEM;
	if (!(d = opendir(path))) {
		int r = -errno;

		free(*tids);
		*tids = NULL;
		return r;
	}
	while ((e = readdir(d))) {
		unsigned long tid;

		if (num_decimal(e->d_name, NUM_TO_NUL, 1, INT_MAX, &tid,
				NULL) != NUM_OK)
			continue;
		if (*n == cap) {
			pid_t *m = realloc(*tids, 2 * cap * sizeof(**tids));

			if (!m) {
				closedir(d);
				free(*tids);
				*tids = NULL;
				return -ENOMEM;
			}
			*tids = m;
			cap *= 2;
		}
		(*tids)[(*n)++] = (pid_t)tid;
	}
	closedir(d);
	return 0;
}

/* --- /proc fields, kernel version, what an exec gains ----------------- */

static int status_field(pid_t pid, const char *name, char *buf, size_t size)
{
	char path[64], status[32768], *line, *end;
	size_t len = strlen(name);
	int n;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if ((n = read_file(path, status, sizeof(status))) < 0)
		return n;
	/* A field at the start of a line, with its colon right after. */
	for (line = status; line; line = strchr(line, '\n'), line += !!line)
		if (!strncmp(line, name, len) && line[len] == ':')
			break;
	if (!line || !size)
		return -ENOENT;
	line += len + 1;
	line += strspn(line, " \t");
	end = line + strcspn(line, "\n");
	snprintf(buf, size, "%.*s", (int)(end - line), line);
	return 0;
}

long long host_status_number(pid_t pid, const char *name)
{
	char value[64];
	unsigned long v;
	size_t len;
	int r = status_field(pid, name, value, sizeof(value));

	if (r < 0)
		return r;
	/* The number starts the field ("VmRSS:	123 kB"). */
	if (num_decimal(value, NUM_TO_NUL, 0, LONG_MAX, &v, &len) != NUM_OK)
		return -EINVAL;
	return (long long)v;
}

int host_nspid(pid_t pid, pid_t *ids, unsigned max)
{
	char value[256], *p = value;
	unsigned n = 0;
	int r = status_field(pid, "NSpid", value, sizeof(value));

	if (r < 0)
		return r;
	for (;;) {
		unsigned long v;
		size_t len;

		p += strspn(p, " \t");
		if (num_decimal(p, NUM_TO_NUL, 0, INT_MAX, &v, &len) != NUM_OK)
			break;
		if (n < max)
			ids[n] = (pid_t)v;
		n++;
		p += len;
	}
	return n ? (int)n : -EINVAL;
}

char *host_exe_path(pid_t pid, char *buf, size_t size)
{
	snprintf(buf, size, "/proc/%d/exe", (int)pid);
	return buf;
}

/* The inode of pid's PID namespace, or 0. */
static ino_t pid_ns_of(pid_t pid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)pid);
	return stat(path, &st) == 0 ? st.st_ino : 0;
}

pid_t host_task_in_ns(pid_t of, pid_t vtid)
{
	pid_t ids[HOST_NSPID_MAX], mine[HOST_NSPID_MAX];
	int depth = host_nspid(of, mine, HOST_NSPID_MAX);
	ino_t ns = pid_ns_of(of);
	pid_t found = 0;
	DIR *d;
	struct dirent *e;

	if (depth < 1 || depth > HOST_NSPID_MAX || !ns ||
	    !(d = opendir("/proc")))
		return 0;
	while (!found && (e = readdir(d))) {
		unsigned long pid;
		pid_t *tids;
		unsigned n;

		if (num_decimal(e->d_name, NUM_TO_NUL, 1, INT_MAX, &pid,
				NULL) != NUM_OK ||
		    host_threads((pid_t)pid, &tids, &n) < 0)
			continue;
		for (unsigned i = 0; i < n && !found; i++)
			if (host_nspid(tids[i], ids, HOST_NSPID_MAX) == depth &&
			    ids[depth - 1] == vtid && pid_ns_of(tids[i]) == ns)
				found = tids[i];
		free(tids);
	}
	closedir(d);
	return found;
}

int host_nproc(long long *limit, long long *running)
{
	struct rlimit rl;
	uid_t me = getuid();
	DIR *d;
	struct dirent *e;

	*running = 0;
	if (getrlimit(RLIMIT_NPROC, &rl) < 0)
		return -errno;
	if (rl.rlim_cur == RLIM_INFINITY || me == 0 ||
	    host_capable(CAP_SYS_RESOURCE) || host_capable(CAP_SYS_ADMIN))
		return 1;
	*limit = (long long)rl.rlim_cur;
	if (!(d = opendir("/proc")))
		return -errno;
	while ((e = readdir(d))) {
		char uid[256];
		unsigned long pid, ruid;
		size_t len;
		long long threads;

		if (num_decimal(e->d_name, NUM_TO_NUL, 1, INT_MAX, &pid,
				NULL) != NUM_OK ||
		    status_field((pid_t)pid, "Uid", uid, sizeof(uid)) < 0 ||
		    num_decimal(uid, NUM_TO_NUL, 0, UINT_MAX, &ruid, &len) !=
			NUM_OK ||
		    ruid != me ||
		    (threads = host_status_number((pid_t)pid, "Threads")) < 1)
			continue;
		*running += threads;
	}
	closedir(d);
	return 0;
}

/* A capability set of our /proc/PID/status ("CapEff:	000001ffffffffff")
 * in *set, read as strtoull in base 16 would: 0 when it starts with no
 * hex digit, all ones beyond 64 bits. < 0 when the field cannot be read
 * (*set untouched). */
static int status_caps(const char *name, unsigned long long *set)
{
	char value[64];
	size_t len;
	int r = status_field(getpid(), name, value, sizeof(value));

	if (r < 0)
		return r;
	if (num_hex_ull(value, NUM_TO_NUL, 0, ULLONG_MAX, set, &len) ==
	    NUM_E_SYNTAX)
		*set = 0;
	return 0;
}

bool host_capable(int cap)
{
	unsigned long long set;

	if (cap < 0 || cap > 63 || status_caps("CapEff", &set) < 0)
		return false;
	return set >> cap & 1;
}

bool host_kernel_at_least(unsigned major, unsigned minor)
{
	struct utsname u;
	unsigned a = 0, b = 0;

	if (uname(&u) < 0 || sscanf(u.release, "%u.%u", &a, &b) < 1)
		return false;
	return a > major || (a == major && b >= minor);
}

/* The capabilities a file gives its program's permitted set, as the
 * kernel computes them from its security.capability attribute (the
 * bounding set and the caller's inheritable set applied), beyond those
 * the caller has: 0 when none. */
static unsigned long long file_caps_gained(const char *path)
{
	struct vfs_ns_cap_data caps;
	unsigned long long fp, fi, bnd, inh, prm;
	ssize_t n = getxattr(path, "security.capability", &caps, sizeof(caps));
	uint32_t magic;

	if (n < (ssize_t)XATTR_CAPS_SZ_1)
		return 0;
	magic = le32toh(caps.magic_etc) & VFS_CAP_REVISION_MASK;
	fp = le32toh(caps.data[0].permitted);
	fi = le32toh(caps.data[0].inheritable);
	if (magic != VFS_CAP_REVISION_1 && n >= (ssize_t)XATTR_CAPS_SZ_2) {
		fp |= (unsigned long long)le32toh(caps.data[1].permitted) << 32;
		fi |= (unsigned long long)le32toh(caps.data[1].inheritable)
		      << 32;
	}
	if (status_caps("CapBnd", &bnd) < 0)
		return fp | fi;
	if (status_caps("CapInh", &inh) < 0)
		inh = 0;
	if (status_caps("CapPrm", &prm) < 0)
		prm = 0;
	return ((fp & bnd) | (fi & inh)) & ~prm;
}

/* An interpreted script: the kernel takes the set-ID bits and file
 * capabilities from the interpreter, never from the script. */
static bool is_script(const char *path)
{
	char magic[2];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	bool script;

	if (fd < 0)
		return false;
	script = read(fd, magic, 2) == 2 && magic[0] == '#' && magic[1] == '!';
	close(fd);
	return script;
}

enum host_gain host_exec_gain(const char *path)
{
	struct stat st;
	struct statvfs vfs;
	enum host_gain gain = HOST_GAIN_NONE;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return HOST_GAIN_NONE;
	/* The new effective IDs count as gained when they differ from the
	 * real ones (bprm_fill_uid, cap_bprm_creds_from_file). */
	if (st.st_mode & S_ISUID && st.st_uid != getuid())
		gain = HOST_GAIN_SETUID;
	else if ((st.st_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP) &&
		 st.st_gid != getgid())
		gain = HOST_GAIN_SETGID;
	else if (file_caps_gained(path))
		gain = HOST_GAIN_CAPS;
	if (gain == HOST_GAIN_NONE)
		return gain;
	/* A nosuid mount honours neither set-ID bits nor file capabilities. */
	if ((statvfs(path, &vfs) == 0 && vfs.f_flag & ST_NOSUID) ||
	    is_script(path))
		return HOST_GAIN_NONE;
	return gain;
}

/* Whether execve would run file, or fail with an error after which execvp
 * tries the next directory of PATH (EACCES, ENOENT, ENOTDIR...). */
static bool runnable(const char *file)
{
	struct stat st;
	struct statvfs vfs;

	return stat(file, &st) == 0 && S_ISREG(st.st_mode) &&
	       faccessat(AT_FDCWD, file, X_OK, AT_EACCESS) == 0 &&
	       !(statvfs(file, &vfs) == 0 && vfs.f_flag & ST_NOEXEC);
}

/* The file execvp would run for command, searching PATH as glibc does
 * (/bin:/usr/bin when it is unset, an empty entry for the current
 * directory, past entries execve would refuse). Returns 0, or a negative
 * errno (-ENOENT: none). */
static int find_program(const char *command, char *file, size_t size)
{
	const char *path = getenv("PATH"), *p;

	if (!*command)
		return -ENOENT;
	if (strchr(command, '/')) {
		snprintf(file, size, "%s", command);
		return strlen(command) < size ? 0 : -ENAMETOOLONG;
	}
	/* glibc's execvp: confstr's _CS_PATH when PATH is unset, and an
	 * empty entry is the current directory. */
	if (!path)
		path = "/bin:/usr/bin";
	for (p = path;; p += strcspn(p, ":") + 1) {
		size_t len = strcspn(p, ":");
		int n = snprintf(file, size, "%.*s%s%s", (int)len, p,
				 len ? "/" : "", command);

		if (n >= 0 && (size_t)n < size && runnable(file))
			return 0;
		if (!p[len])
			return -ENOENT;
	}
}

enum host_gain host_privileged_program(const char *command)
{
	char file[PATH_MAX];

	if (find_program(command, file, sizeof(file)) < 0)
		return HOST_GAIN_NONE;
	return host_exec_gain(file);
}

/* --- CPU quota ---------------------------------------------------------- */

/* Whether the comma-separated list has word. */
static bool has_word(const char *list, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = list; *p;
	     p += strcspn(p, ",") + (p[strcspn(p, ",")] != 0))
		if (strcspn(p, ",") == len && !strncmp(p, word, len))
			return true;
	return false;
}

/* Where the hierarchy holding the cpu controller is mounted (v1: a cgroup
 * mount with "cpu" among its options; v2: the cgroup2 mount), and which
 * of its directories that mount shows (its root). */
static bool cgroup_mount(bool v2, char *mnt, size_t mlen, char *root,
			 size_t rlen)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char r[2048], m[2048], type[64], opts[1024];
		const char *dash = strstr(line, " - ");

		if (!dash ||
		    sscanf(line, "%*s %*s %*s %2047s %2047s", r, m) != 2 ||
		    sscanf(dash, " - %63s %*s %1023s", type, opts) != 2)
			continue;
		if (v2 ? strcmp(type, "cgroup2")
		       : strcmp(type, "cgroup") || !has_word(opts, "cpu"))
			continue;
		snprintf(mnt, mlen, "%s", m);
		snprintf(root, rlen, "%s", r);
		found = true;
	}
	fclose(f);
	return found;
}

/* The decimal number at s (a cgroup file's quota or period) in *v, and
 * in *end where it stops: false for none ("max", v1's -1) or one below
 * min (a quota of 0 is none either). */
static bool cgroup_number(const char *s, unsigned long long min,
			  unsigned long long *v, const char **end)
{
	size_t len;

	if (num_decimal_ull(s, NUM_TO_NUL, min, LLONG_MAX, v, &len) != NUM_OK)
		return false;
	*end = s + len;
	return true;
}

/* The quota of one cgroup directory, if it has one. */
static bool dir_quota(const char *dir, bool v2, unsigned long long *q,
		      unsigned long long *p, char *file, size_t size)
{
	char path[PATH_MAX + 32], text[128];
	const char *end;

	if (v2) {
		/* "50000 100000", or "max 100000" for none */
		snprintf(path, sizeof(path), "%s/cpu.max", dir);
		if (read_line(path, text, sizeof(text)) < 0 ||
		    !cgroup_number(text, 1, q, &end) ||
		    !cgroup_number(end + strspn(end, " \t"), 0, p, &end))
			return false;
	} else {
		snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", dir);
		if (read_line(path, text, sizeof(text)) < 0 ||
		    !cgroup_number(text, 1, q, &end))
			return false;
		snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", dir);
		if (read_line(path, text, sizeof(text)) < 0 ||
		    !cgroup_number(text, 0, p, &end))
			return false;
		snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", dir);
	}
	snprintf(file, size, "%s", path);
	return *p > 0;
}

/* Walk from the cgroup at path (in its hierarchy) up to the mount. */
static void walk_quota(bool v2, const char *path, unsigned long long *quota,
		       unsigned long long *period, char *where, size_t size)
{
	char mnt[2048], root[2048], dir[PATH_MAX], file[PATH_MAX + 32];
	size_t rlen, mlen;

	if (!cgroup_mount(v2, mnt, sizeof(mnt), root, sizeof(root)))
		return;
	rlen = strcmp(root, "/") ? strlen(root) : 0;
	if (rlen && strncmp(path, root, rlen))
		return; /* the mount shows another part of the hierarchy */
	snprintf(dir, sizeof(dir), "%s%s", mnt, path + rlen);
	mlen = strlen(mnt);
	for (;;) {
		unsigned long long q, p;
		char *slash;

		/* q/p < quota/period, without division. */
		if (dir_quota(dir, v2, &q, &p, file, sizeof(file)) &&
		    (!*period || q * *period < *quota * p)) {
			*quota = q;
			*period = p;
			snprintf(where, size, "%s", file);
		}
		if (strlen(dir) <= mlen || !(slash = strrchr(dir, '/')) ||
		    (size_t)(slash - dir) < mlen)
			break;
		*slash = '\0';
	}
}

void host_unview(void)
{
	const char *view = getenv("PINRUN_VIEW");
	char *saved;

	if (!view || !(saved = strdup(view)))
		return;
	unsetenv("PINRUN_VIEW");
	/* The library's first call reads the variable: now, unset. */
	(void)sysconf(_SC_NPROCESSORS_ONLN);
	setenv("PINRUN_VIEW", saved, 1);
	free(saved);
}

int host_view_library(char *buf, size_t size)
{
	static const char *const where[] = { "view", PINRUN_LIB_REL };
	char exe[PATH_MAX], path[PATH_MAX + 64], *dir;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return -ENOENT;
	exe[n] = '\0';
	dir = strrchr(exe, '/');
	if (!dir)
		return -ENOENT;
	*dir = '\0';
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		char real[PATH_MAX];

		snprintf(path, sizeof(path), "%s/%s/libpinrun-view.so", exe,
			 where[i]);
		if (!realpath(path, real) || access(real, R_OK) < 0)
			continue;
		if (strpbrk(real, " :\t\n"))
			return -EINVAL;
		if (strlen(real) >= size)
			return -ENAMETOOLONG;
		strcpy(buf, real);
		return 0;
	}
	return -ENOENT;
}

int host_cpu_quota(unsigned long long *quota, unsigned long long *period,
		   char *where, size_t size)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[4096];

	*quota = *period = 0;
	if (size)
		where[0] = '\0';
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *ctl = strchr(line, ':'), *path;
		bool v2, cpu = false;

		if (!ctl || !(path = strchr(ctl + 1, ':')))
			continue;
		/* "ID:CONTROLLERS:PATH": each field ends where its colon
		 * was, so that ID and CONTROLLERS compare alone ("0::/x"
		 * is v2's). */
		*ctl++ = '\0';
		*path++ = '\0';
		path[strcspn(path, "\n")] = '\0';
		v2 = !strcmp(line, "0") && !*ctl;
		for (char *c = strtok(ctl, ","); c && !v2;
		     c = strtok(NULL, ","))
			cpu |= !strcmp(c, "cpu");
		if (v2 || cpu)
			walk_quota(v2, path, quota, period, where, size);
	}
	fclose(f);
	return 0;
}

void host_close_range(unsigned lo, unsigned hi)
{
	DIR *d;
	struct dirent *e;

#ifdef SYS_close_range
	if (syscall(SYS_close_range, lo, hi, 0) == 0)
		return;
#endif
	if (!(d = opendir("/proc/self/fd"))) {
		struct rlimit rl;
		unsigned max = getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
				       rl.rlim_cur < (1u << 20)
				   ? (unsigned)rl.rlim_cur
				   : 1u << 20;

		for (unsigned fd = lo; fd <= hi && fd < max; fd++)
			close((int)fd);
		return;
	}
	while ((e = readdir(d))) {
		unsigned long fd;

		if (num_decimal(e->d_name, NUM_TO_NUL, 0, INT_MAX, &fd, NULL) ==
			NUM_OK &&
		    fd >= lo && fd <= hi && (int)fd != dirfd(d))
			close((int)fd);
	}
	closedir(d);
}

void host_close_all_but(int *keep, unsigned n)
{
	unsigned lo = 0;

	for (unsigned i = 1; i < n; i++) /* n is tiny: insertion sort */
		for (unsigned j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
			int k = keep[j];

			keep[j] = keep[j - 1];
			keep[j - 1] = k;
		}
	for (unsigned i = 0; i < n; i++) {
		if (keep[i] < 0 || (unsigned)keep[i] < lo)
			continue;
		if ((unsigned)keep[i] > lo)
			host_close_range(lo, (unsigned)keep[i] - 1);
		lo = (unsigned)keep[i] + 1;
	}
	host_close_range(lo, ~0U);
}

char host_task_state(pid_t tid)
{
	char path[64], buf[512], *paren;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* The name in parentheses may hold anything: the state follows the
	 * last ')'. */
	paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' ? paren[2] : 0;
}

bool host_id_mapped(pid_t pid, bool uid, unsigned id)
{
	char path[64];
	unsigned long long inside, outside, count;
	bool mapped = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid,
		 uid ? "uid_map" : "gid_map");
	if (!(f = fopen(path, "re")))
		return true;
	while (!mapped &&
	       fscanf(f, "%llu %llu %llu", &inside, &outside, &count) == 3)
		mapped = id >= outside && id - outside < count;
	fclose(f);
	return mapped;
}
