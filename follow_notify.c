/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * follow_notify.c: the seccomp filter that hands every ptrace attach made
 * in the followed tree (PTRACE_TRACEME, PTRACE_ATTACH, PTRACE_SEIZE) to
 * the tracer first, its listener, and the bell that tells the tracer an
 * attach waits. The tracer (follow.c) decides what to let go before it
 * answers. docs/follow.md ("Programs that trace") has the design.
 *
 * A task can have one tracer, and every task of the tree has ours: alone,
 * a debugger's PTRACE_ATTACH or PTRACE_SEIZE, a child's PTRACE_TRACEME
 * (gdb, strace, rr start their program so) and LeakSanitizer, which
 * attaches to every thread of its process from an untraced clone at exit,
 * would all fail with EPERM. The command runs under a filter that stops
 * those three requests (and no other system call) until the tracer
 * answers through the listener.
 *
 * The tracer blocks in wait4 and cannot poll the listener: a child of its
 * own, the bell, waits in poll(2) instead and exits when an attach waits,
 * which wait4 reports. When the tracer is done, a child goes on answering
 * (now at once: nothing is followed) until the kernel says, with POLLHUP
 * (Linux 5.8), that no task is left under the filter: a filter whose
 * listener is closed fails the call with ENOSYS.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "follow.h"
#include "follow_notify.h"
#include "host.h"

/* valgrind (3.19) does not implement seccomp(2), and warns at each call:
 * under it, pinrun runs without the filter. */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define UNDER_VALGRIND() RUNNING_ON_VALGRIND
#endif
#endif
#ifndef UNDER_VALGRIND
#define UNDER_VALGRIND() 0
#endif

#if defined(__x86_64__)
#define NATIVE_ARCH   AUDIT_ARCH_X86_64
#define COMPAT_ARCH   AUDIT_ARCH_I386
#define COMPAT_PTRACE 26
#define X32_PTRACE    (0x40000000 | 521)
#elif defined(__aarch64__)
#define NATIVE_ARCH   AUDIT_ARCH_AARCH64
#define COMPAT_ARCH   AUDIT_ARCH_ARM
#define COMPAT_PTRACE 26
#elif defined(__i386__)
#define NATIVE_ARCH AUDIT_ARCH_I386
#elif defined(__riscv) && __riscv_xlen == 64
#define NATIVE_ARCH AUDIT_ARCH_RISCV64
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
#define NATIVE_ARCH AUDIT_ARCH_PPC64LE
#elif defined(__s390x__)
#define NATIVE_ARCH AUDIT_ARCH_S390X
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG0_LOW  offsetof(struct seccomp_data, args[0])
#define ARG0_HIGH (offsetof(struct seccomp_data, args[0]) + 4)
#else
#define ARG0_LOW  (offsetof(struct seccomp_data, args[0]) + 4)
#define ARG0_HIGH offsetof(struct seccomp_data, args[0])
#endif

#ifdef NATIVE_ARCH
/* A tiny assembler for the filter: jumps go to labels, resolved at the
 * end. */
enum label {
	L_NEXT,
	L_ALLOW,
	L_NOTIFY,
	L_NATIVE,
	L_COMPAT,
	L_ARGS,
	L_REQ,
	L_SECCOMP,
	L_LABELS
};

struct bpf {
	struct sock_filter code[32];
	unsigned char jt[32], jf[32]; /* enum label */
	unsigned n, at[L_LABELS];
};

static void op(struct bpf *b, unsigned short code, unsigned k, enum label jt,
	       enum label jf)
{
	b->code[b->n] = (struct sock_filter){ code, 0, 0, k };
	b->jt[b->n] = (unsigned char)jt;
	b->jf[b->n] = (unsigned char)jf;
	b->n++;
}

static void here(struct bpf *b, enum label l)
{
	b->at[l] = b->n;
}

#define LOAD(b, off)	  op(b, BPF_LD | BPF_W | BPF_ABS, (unsigned)(off), 0, 0)
#define JEQ(b, k, jt, jf) op(b, BPF_JMP | BPF_JEQ | BPF_K, (k), (jt), (jf))
#define RET(b, k)	  op(b, BPF_RET | BPF_K, (k), 0, 0)
#define AND(b, k)	  op(b, BPF_ALU | BPF_AND | BPF_K, (k), 0, 0)

/* ptrace(PTRACE_TRACEME / PTRACE_ATTACH / PTRACE_SEIZE, ...) notifies the
 * listener, and so does a seccomp(SECCOMP_SET_MODE_FILTER) asking for a
 * listener of its own (which the kernel refuses, EBUSY, under a filter
 * with one: the tracer says so); every other call, ptrace's other
 * requests included, goes on after a few comparisons. With affinity,
 * sched_getaffinity notifies too: the tracer may tell the task another
 * answer (listener_tell). */
static void build_filter(struct bpf *b, bool affinity)
{
	b->n = 0;
	LOAD(b, offsetof(struct seccomp_data, arch));
#ifdef COMPAT_ARCH
	JEQ(b, NATIVE_ARCH, L_NATIVE, L_NEXT);
	JEQ(b, COMPAT_ARCH, L_COMPAT, L_ALLOW);
#else
	JEQ(b, NATIVE_ARCH, L_NATIVE, L_ALLOW);
#endif
	here(b, L_NATIVE);
	LOAD(b, offsetof(struct seccomp_data, nr));
	JEQ(b, __NR_ptrace, L_ARGS, L_NEXT);
#ifdef X32_PTRACE
	JEQ(b, X32_PTRACE, L_ARGS, L_NEXT);
#endif
	JEQ(b, __NR_seccomp, L_SECCOMP, affinity ? L_NEXT : L_ALLOW);
	if (affinity) /* (32-bit programs are told the kernel's answer) */
		JEQ(b, __NR_sched_getaffinity, L_NOTIFY, L_ALLOW);
#ifdef COMPAT_ARCH
	here(b, L_COMPAT);
	LOAD(b, offsetof(struct seccomp_data, nr));
	JEQ(b, COMPAT_PTRACE, L_REQ, L_ALLOW);
#endif
	here(b, L_ARGS); /* the request is a long: all of it */
	LOAD(b, ARG0_HIGH);
	JEQ(b, 0, L_REQ, L_ALLOW);
	here(b, L_REQ);
	LOAD(b, ARG0_LOW);
	JEQ(b, PTRACE_TRACEME, L_NOTIFY, L_NEXT);
	JEQ(b, PTRACE_ATTACH, L_NOTIFY, L_NEXT);
	JEQ(b, PTRACE_SEIZE, L_NOTIFY, L_ALLOW);
	here(b, L_SECCOMP); /* (op and flags are unsigned ints) */
	LOAD(b, ARG0_LOW);
	JEQ(b, SECCOMP_SET_MODE_FILTER, L_NEXT, L_ALLOW);
	LOAD(b, ARG0_LOW + sizeof(__u64));
	AND(b, SECCOMP_FILTER_FLAG_NEW_LISTENER);
	JEQ(b, SECCOMP_FILTER_FLAG_NEW_LISTENER, L_NOTIFY, L_ALLOW);
	here(b, L_ALLOW);
	RET(b, SECCOMP_RET_ALLOW);
	here(b, L_NOTIFY);
	RET(b, SECCOMP_RET_USER_NOTIF);
	for (unsigned i = 0; i < b->n; i++) {
		unsigned t = b->jt[i] == L_NEXT ? i + 1 : b->at[b->jt[i]];
		unsigned f = b->jf[i] == L_NEXT ? i + 1 : b->at[b->jf[i]];

		if (BPF_CLASS(b->code[i].code) == BPF_JMP) {
			b->code[i].jt = (unsigned char)(t - i - 1);
			b->code[i].jf = (unsigned char)(f - i - 1);
		}
	}
}
#endif

/* Put the filter on the caller (and so on all it will run). Returns the
 * listener, or a negative errno; *nnp when no_new_privs had to be set: a
 * filter needs it without CAP_SYS_ADMIN. SPEC_ALLOW leaves the program's
 * speculation mitigations as they were (a filter would force some on). */
static int install_filter(bool *nnp, bool affinity)
{
#ifdef NATIVE_ARCH
	struct bpf b;
	struct sock_fprog prog;
	unsigned flags =
	    SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_SPEC_ALLOW;
	int fd;

	*nnp = false;
	/* Without POLLHUP on the listener (Linux 5.8), the helper would not
	 * know when to stop answering. */
	if (!host_kernel_at_least(5, 8) || UNDER_VALGRIND())
		return -ENOSYS;
	build_filter(&b, affinity);
	prog.len = (unsigned short)b.n;
	prog.filter = b.code;
	fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
	if (fd < 0 && errno == EACCES) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			return -errno;
		*nnp = true;
		fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags,
				  &prog);
	}
	return fd < 0 ? -errno : fd;
#else
	(void)affinity;
	*nnp = false;
	return -ENOSYS;
#endif
}

bool follow_keeps_privileges(void)
{
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1)
		return true;
	return host_capable(CAP_SYS_PTRACE) &&
	       (host_capable(CAP_SYS_ADMIN) || !host_kernel_at_least(5, 8));
}

/* What the sender says on the socket, in one byte. */
enum { OFFER_NONE, OFFER_FILTER, OFFER_FILTER_NNP, OFFER_OUTER };

/* In the traced caller, before it exec's the command: install the filter
 * and send its listener to the tracer, with every signal blocked (a
 * signal-delivery-stop now would wait for a tracer that waits for us). */
void notify_offer(int sock, struct follow_start *st)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	char what = OFFER_NONE;
	struct iovec iov = { &what, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	sigset_t all, old;
	bool nnp;
	int fd;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	fd = install_filter(&nnp, st->tell_affinity);
	st->notify = fd == -NOTIFY_NESTED_ERRNO ? FOLLOW_NOTIFY_OUTER
		     : fd < 0			? FOLLOW_NOTIFY_OFF
		     : nnp			? FOLLOW_NOTIFY_NNP
						: FOLLOW_NOTIFY_ON;
	st->notify_err = fd < 0 && fd != -NOTIFY_NESTED_ERRNO ? -fd : 0;
	if (fd == -NOTIFY_NESTED_ERRNO)
		what = OFFER_OUTER;
	if (fd >= 0) {
		struct cmsghdr *c;

		memset(cbuf, 0, sizeof(cbuf));
		what = nnp ? OFFER_FILTER_NNP : OFFER_FILTER;
		m.msg_control = cbuf;
		m.msg_controllen = sizeof(cbuf);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	while (sendmsg(sock, &m, MSG_NOSIGNAL) < 0 && errno == EINTR)
		;
	if (fd >= 0)
		close(fd);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* Take fd as the listener, with buffers for one notification and its
 * answer as large as the kernel's structures (which may be larger than
 * ours). Returns 0, or -1 with fd closed. */
static int listener_open(struct listener *l, int fd)
{
	struct seccomp_notif_sizes sizes = { 0 };

	syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes);
	l->req_size = sizes.seccomp_notif > sizeof(*l->req)
			  ? sizes.seccomp_notif
			  : sizeof(*l->req);
	l->resp_size = sizes.seccomp_notif_resp > sizeof(*l->resp)
			   ? sizes.seccomp_notif_resp
			   : sizeof(*l->resp);
	l->req = calloc(1, l->req_size);
	l->resp = calloc(1, l->resp_size);
	if (!l->req || !l->resp || (fd = host_fd_above_stdio(fd)) < 0) {
		free(l->req);
		free(l->resp);
		l->req = NULL;
		l->resp = NULL;
		if (fd >= 0)
			close(fd);
		return -1;
	}
	l->fd = fd;
	return 0;
}

/* The next waiting attach, in l->req, if there is one: false when none
 * waits. (After poll says readable, RECV cannot block: an attach
 * interrupted meanwhile leaves ENOENT.) */
bool listener_next(struct listener *l)
{
	struct pollfd p = { l->fd, POLLIN, 0 };

	while (poll(&p, 1, 0) > 0 && p.revents & POLLIN) {
		memset(l->req, 0, l->req_size);
		if (ioctl(l->fd, SECCOMP_IOCTL_NOTIF_RECV, l->req) == 0)
			return true;
		if (errno != ENOENT && errno != EINTR)
			break;
	}
	if (p.revents & POLLHUP)
		l->hup = true;
	return false;
}

/* Let the attach id go on. */
void listener_answer(struct listener *l, unsigned long long id)
{
	memset(l->resp, 0, l->resp_size);
	l->resp->id = id;
	l->resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	/* ENOENT: the caller was interrupted; its call comes again. */
	ioctl(l->fd, SECCOMP_IOCTL_NOTIF_SEND, l->resp);
}

void listener_refuse(struct listener *l, unsigned long long id, int err)
{
	memset(l->resp, 0, l->resp_size);
	l->resp->id = id;
	l->resp->error = -err;
	ioctl(l->fd, SECCOMP_IOCTL_NOTIF_SEND, l->resp);
}

/* The kernel's answer to the caller's sched_getaffinity, with mask in
 * place of the affinity: the length is what the kernel gives for that
 * size of buffer (asked here, in the same kernel), and so is any error. */
void listener_tell(struct listener *l, const void *mask, size_t mask_bytes)
{
	const struct seccomp_notif *req = l->req;
	/* A mask as long as NR_CPUS allows (8192 bits), eight times over. */
	unsigned char buf[8192];
	/* The length is an unsigned int to the kernel, which truncates the
	 * register and checks that (len * 8 overflowing, len not a multiple
	 * of a long). It is asked the same: with no buffer where ours is
	 * shorter (a valid length is then EFAULT, an invalid one EINVAL), then
	 * for the mask, so that the caller has its errors and its count,
	 * never more than len. */
	unsigned int len = (unsigned int)req->data.args[1];
	struct iovec here = { buf, 0 }, there;
	long n;

	if ((pid_t)req->data.args[0] != 0 &&
	    (pid_t)req->data.args[0] != (pid_t)req->pid) {
		listener_answer(l, req->id); /* another task's: the truth */
		return;
	}
	if (len > sizeof(buf)) {
		if (syscall(SYS_sched_getaffinity, 0, len, NULL) < 0 &&
		    errno != EFAULT) {
			listener_answer(l, req->id); /* the kernel's error */
			return;
		}
		len = sizeof(buf);
	}
	n = syscall(SYS_sched_getaffinity, 0, len, buf);
	if (n <= 0) {
		listener_answer(l, req->id); /* the kernel's error */
		return;
	}
	memset(buf, 0, (size_t)n);
	memcpy(buf, mask, mask_bytes < (size_t)n ? mask_bytes : (size_t)n);
	here.iov_len = (size_t)n;
	there.iov_base = (void *)(uintptr_t)req->data.args[2];
	there.iov_len = (size_t)n;
	/* The id is checked first: the task may have been interrupted, or
	 * be gone and its id reused. A buffer that cannot be written is the
	 * kernel's to refuse (EFAULT). */
	if (ioctl(l->fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) < 0 ||
	    process_vm_writev((pid_t)req->pid, &here, 1, &there, 1, 0) != n) {
		listener_answer(l, req->id);
		return;
	}
	memset(l->resp, 0, l->resp_size);
	l->resp->id = req->id;
	l->resp->val = n;
	ioctl(l->fd, SECCOMP_IOCTL_NOTIF_SEND, l->resp);
}

void listener_close(struct listener *l)
{
	free(l->req);
	free(l->resp);
	if (l->fd >= 0)
		close(l->fd);
	memset(l, 0, sizeof(*l));
	l->fd = l->sock = -1;
}

/* The bell: a child that exits when an attach waits on the listener, or
 * after timeout_ms (-1: never). */
void bell_ring(struct listener *l, int timeout_ms)
{
	pid_t me = getpid(), pid;

	l->bell = 0;
	if (l->fd < 0 || l->hup)
		return;
	if ((pid = fork()) == 0) {
		struct pollfd p = { l->fd, POLLIN, 0 };

		/* It dies with the tracer, but not of signals sent to the
		 * tracer's group, nor does it pass them on (PID 1's
		 * handlers); nothing of the caller's stays open in it (the
		 * tracer lets go of stderr early). */
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		if (getppid() != me)
			_exit(0);
		setpgid(0, 0);
		for (int sig = 1; sig < NSIG; sig++) {
			struct sigaction sa;

			if (sigaction(sig, NULL, &sa) == 0 &&
			    sa.sa_handler != SIG_DFL &&
			    sa.sa_handler != SIG_IGN)
				signal(sig, SIG_DFL);
		}
		if (l->fd > 0)
			host_close_range(0, (unsigned)l->fd - 1);
		host_close_range((unsigned)l->fd + 1, ~0U);
		while (poll(&p, 1, timeout_ms) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	l->bell = pid > 0 ? pid : 0;
}

/* The listener from the caller, if it has come. */
bool notify_take(struct listener *l)
{
	char cbuf[CMSG_SPACE(sizeof(int))], what = OFFER_NONE;
	struct iovec iov = { &what, 1 };
	struct msghdr m = { .msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	ssize_t n = recvmsg(l->sock, &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	int fd = -1;

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return false;
	l->sock = -1; /* the owner closes it */
	c = n == 1 ? CMSG_FIRSTHDR(&m) : NULL;
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(c), sizeof(int));
	if (n == 1 && what == OFFER_OUTER)
		l->outer = true;
	if (fd < 0 || what == OFFER_NONE || what == OFFER_OUTER)
		return false;
	l->nnp = what == OFFER_FILTER_NNP;
	if (listener_open(l, fd) < 0)
		return false;
	bell_ring(l, -1);
	return true;
}

/* At the start: wait for the listener while the caller runs on towards
 * its exec (which it sends before); if it stops first, take the listener
 * at a later stop instead. */
void notify_await(struct listener *l, pid_t command)
{
	while (l->sock >= 0) {
		struct pollfd p = { l->sock, POLLIN, 0 };
		siginfo_t si;

		if (poll(&p, 1, 10) > 0) {
			notify_take(l);
			continue;
		}
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)command, &si,
			   WEXITED | WSTOPPED | WNOHANG | WNOWAIT | __WALL) <
			0 ||
		    si.si_pid)
			return;
	}
}

/* Once nothing is followed, an attach goes on at once, but a nested
 * pinrun's request for a listener is refused (its tree's attaches come
 * here), and a nested pinrun is asked to let go of its tasks first. */
static void answer_alone(struct listener *l)
{
	const struct seccomp_notif *req = l->req;
	pid_t ids[2], tracee, tracer;

	if (req->data.nr == __NR_sched_getaffinity) {
		listener_answer(l, req->id); /* let go: the truth */
		return;
	}
	if (req->data.nr == __NR_seccomp) {
		if (listener_is_self(l, (pid_t)req->pid)) {
			listener_refuse(l, req->id, NOTIFY_NESTED_ERRNO);
			return;
		}
	} else {
		listener_sides(req, &tracee, &tracer);
		/* (the id of a caller in another PID namespace is looked for
		 * in /proc) */
		if (req->data.args[0] != PTRACE_TRACEME &&
		    host_nspid((pid_t)req->pid, ids, 2) > 1)
			tracee = host_task_in_ns((pid_t)req->pid, tracee);
		nested_forward(l, tracee, false);
		nested_forward(l, tracer, true);
	}
	listener_answer(l, req->id);
}

/* Answer the attaches of the processes let go, at once, until none is
 * left under the filter; hold nothing else meanwhile. */
static void keep_answering(struct listener *l)
{
	int keep[] = { l->fd }, null;

	host_close_all_but(keep, 1);
	if ((null = open("/dev/null", O_RDWR)) >= 0) {
		dup2(null, 1);
		dup2(null, 2);
	}
	for (;;) {
		struct pollfd p = { l->fd, POLLIN, 0 };

		if (poll(&p, 1, -1) < 0 && errno == EINTR)
			continue;
		if (!(p.revents & POLLIN))
			break; /* POLLHUP: nobody is left */
		while (listener_next(l))
			answer_alone(l);
	}
}

void bell_stop(struct listener *l)
{
	if (l->bell > 0) {
		kill(l->bell, SIGKILL);
		while (waitpid(l->bell, NULL, __WALL) < 0 && errno == EINTR)
			;
	}
	l->bell = 0;
}

void listener_hand_on(struct listener *l, const unsigned long long *ids,
		      unsigned n)
{
	pid_t tracer = getpid(), pid;

	bell_stop(l);
	if (l->fd < 0 || l->hup)
		goto done;
	if ((pid = fork()) == 0) {
		sigset_t usr1;

		/* The kernel lets go of the tracer's tasks as it exits, then
		 * sends its children their parent-death signal: the
		 * attaches that waited go on once that has come. */
		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		sigprocmask(SIG_BLOCK, &usr1, NULL);
		prctl(PR_SET_PDEATHSIG, SIGUSR1, 0, 0, 0);
		if (getppid() == tracer)
			while (sigwaitinfo(&usr1, NULL) < 0 && errno == EINTR)
				;
		for (unsigned i = 0; i < n; i++)
			listener_answer(l, ids[i]);
		keep_answering(l);
		_exit(0);
	}
	if (pid < 0) /* early, rather than never */
		for (unsigned i = 0; i < n; i++)
			listener_answer(l, ids[i]);
done:
	listener_close(l);
}

/* --- Nested pinruns ---------------------------------------------------- */

/* Ask tracer to let go of tid, then wait until tid's tracer is not that
 * one any more, at most timeout_ms. */
static void nested_ask(pid_t tracer, pid_t tid, bool attaching, int timeout_ms)
{
	pid_t ids[HOST_NSPID_MAX], theirs[HOST_NSPID_MAX];
	int depth = host_nspid(tracer, theirs, HOST_NSPID_MAX),
	    n = host_nspid(tid, ids, HOST_NSPID_MAX);
	const struct timespec ms = { 0, 1000000 };
	union sigval v;

	if (depth < 1 || depth > HOST_NSPID_MAX || n < depth)
		return;
	v.sival_int =
	    (int)ids[depth - 1] | (attaching ? NOTIFY_NESTED_TRACER : 0);
	/* A request that comes while the nested tracer is busy, not in
	 * wait4, is taken only at its next event: it is sent again every
	 * 20 ms (a second request is harmless). */
	for (int i = 0; i < timeout_ms; i++) {
		if (host_status_number(tid, "TracerPid") != tracer ||
		    (i % 20 == 0 &&
		     sigqueue(tracer, NOTIFY_NESTED_SIGNAL, v) < 0))
			return;
		nanosleep(&ms, NULL);
	}
}

bool listener_is_self_file(const struct listener *l, const struct stat *st)
{
	return l->self_ino && st->st_dev == l->self_dev &&
	       st->st_ino == l->self_ino;
}

bool listener_is_self(const struct listener *l, pid_t pid)
{
	char exe[HOST_EXE_PATH_SIZE];
	struct stat st;

	return l->self_ino &&
	       stat(host_exe_path(pid, exe, sizeof(exe)), &st) == 0 &&
	       listener_is_self_file(l, &st);
}

void listener_sides(const struct seccomp_notif *req, pid_t *tracee,
		    pid_t *tracer)
{
	if (req->data.args[0] == PTRACE_TRACEME) {
		long long ppid = host_status_number((pid_t)req->pid, "PPid");

		*tracee = (pid_t)req->pid;
		*tracer = ppid > 0 ? (pid_t)ppid : 0;
	} else {
		*tracer = (pid_t)req->pid;
		*tracee = (pid_t)req->data.args[1];
	}
}

void nested_forward(const struct listener *l, pid_t tid, bool attaching)
{
	long long by;

	if (tid > 0 && (by = host_status_number(tid, "TracerPid")) > 0 &&
	    (pid_t)by != getpid() && listener_is_self(l, (pid_t)by))
		nested_ask((pid_t)by, tid, attaching, 2000);
}

/* The requests come to a handler, which keeps them here: the tracer's
 * wait4 then fails with EINTR and its loop takes them. */
#define NESTED_RING 64
static volatile sig_atomic_t nested_in, nested_out;
static int nested_values[NESTED_RING];
static pid_t nested_from[NESTED_RING];

static void nested_caught(int sig, siginfo_t *si, void *unused)
{
	(void)sig;
	(void)unused;
	if (si->si_code != SI_QUEUE || nested_in - nested_out >= NESTED_RING)
		return;
	nested_values[nested_in % NESTED_RING] = si->si_value.sival_int;
	nested_from[nested_in % NESTED_RING] = si->si_pid;
	nested_in++;
}

void nested_listen(void)
{
	struct sigaction sa = { .sa_sigaction = nested_caught,
				.sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	sigaction(NOTIFY_NESTED_SIGNAL, &sa, NULL);
}

bool nested_next(int *value, pid_t *from)
{
	if (nested_out == nested_in)
		return false;
	*value = nested_values[nested_out % NESTED_RING];
	*from = nested_from[nested_out % NESTED_RING];
	nested_out++;
	return true;
}
