/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tell.c: what a program's runtimes should be told about the placement.
 * OpenMP, the BLAS libraries, Go, Java, rayon, Python, Erlang, the build
 * tools, GNU parallel and pigz each size their pools from a variable of
 * their own, and under a CPU quota none of them sees the real
 * parallelism; programs that count CPUs from sysconf, /sys or /proc are
 * shown the placement by the view library (view/view.c) that the view
 * family preloads. One table names the families, another says which
 * variable each family sets and how its value is made from N (the
 * placement's CPUs, capped by the quota, rounded up) or from the
 * placement itself. A variable the user set is left as it is; those that
 * carry a program's options (JAVA_TOOL_OPTIONS, MAKEFLAGS, ERL_AFLAGS,
 * PARALLEL, PIGZ) and LD_PRELOAD are appended to unless they already say
 * it; PINRUN_VIEW is always this placement. Pure: no system call.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices.h"
#include "emit.h"
#include "envp.h"
#include "tell.h"

static const struct {
	const char *name;
	unsigned family;
} families[] = {
	{ "omp", TELL_OMP },	   { "blas", TELL_BLAS },
	{ "go", TELL_GO },	   { "java", TELL_JAVA },
	{ "rust", TELL_RUST },	   { "build", TELL_BUILD },
	{ "gpu", TELL_GPU },	   { "python", TELL_PYTHON },
	{ "erlang", TELL_ERLANG }, { "tools", TELL_TOOLS },
	{ "view", TELL_VIEW },	   { "all", TELL_ALL },
};
#define NFAMILIES (sizeof(families) / sizeof(families[0]))
/* Every family bit has a name, and "all" is every bit. */
_Static_assert(TELL_ALL == (1 << (NFAMILIES - 1)) - 1,
	       "a name for every --tell family");

size_t tell_families(const char *sep, const char *last, char *buf, size_t size)
{
	size_t len = 0;

	for (size_t i = 0; i < NFAMILIES; i++) {
		const char *before = !i ? "" : i + 1 < NFAMILIES ? sep : last;
		int n = snprintf(len < size ? buf + len : NULL,
				 len < size ? size - len : 0, "%s%s", before,
				 families[i].name);

		len += n > 0 ? (size_t)n : 0;
	}
	return len;
}

int tell_parse(const char *what, unsigned *out, const char **bad,
	       size_t *badlen)
{
	const char *p = what;

	*out = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		unsigned f = 0;

		for (size_t i = 0; i < NFAMILIES && !f; i++)
			if (strlen(families[i].name) == len &&
			    !strncmp(p, families[i].name, len))
				f = families[i].family;
		if (!f) {
			*bad = p;
			*badlen = len;
			return -1;
		}
		*out |= f;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* How a variable's value is made. */
enum make {
	MAKE_N,	      /* N */
	MAKE_PLACES,  /* OpenMP's places: the placement's cores */
	MAKE_CLOSE,   /* "close" */
	MAKE_OPT,     /* the user's value + the rule's opt and N: "-j4" */
	MAKE_WORD,    /* the user's value + the rule's opt alone */
	MAKE_MAKE,    /* the user's MAKEFLAGS + -jN */
	MAKE_ERLANG,  /* the user's ERL_AFLAGS + "+S N:N" */
	MAKE_CUDA,    /* the GPU's NVIDIA UUID, else its CUDA index */
	MAKE_ROCR,    /* GPU-<its AMD UUID>, else its ROCm index */
	MAKE_ZE,      /* its Level Zero index */
	MAKE_ZE_FLAT, /* "COMPOSITE": ZE_AFFINITY_MASK counts whole GPUs */
	MAKE_UCX,     /* the NIC: "mlx5_0:1", or its interface */
	MAKE_NCCL_IB, /* "=mlx5_0": exactly that HCA */
	MAKE_NCCL_IF, /* "=eth0": exactly that interface */
	MAKE_PRELOAD, /* the user's LD_PRELOAD + the view library */
	MAKE_VIEW,    /* the placement's CPU list, always pinrun's */
};

/* One variable: its family, how its value is made and, for those whose
 * value the user may have started (options for a program), the word
 * pinrun adds (opt) and the words that mean the user already said it
 * (says: prefixes, space-separated). */
static const struct rule {
	unsigned family;
	const char *name;
	enum make make;
	bool placing; /* binds threads: not with --follow */
	const char *opt, *says;
	const char *why;
} rules[] = {
	{ TELL_OMP, "OMP_NUM_THREADS", MAKE_N, .why = "N threads" },
	{ TELL_OMP, "OMP_PLACES", MAKE_PLACES, true,
	  .why = "the placement's cores, their PUs in OS numbers" },
	{ TELL_OMP, "OMP_PROC_BIND", MAKE_CLOSE, true,
	  .why = "each thread bound to a place, in order" },
	{ TELL_BLAS, "OPENBLAS_NUM_THREADS", MAKE_N, .why = "N threads" },
	{ TELL_BLAS, "MKL_NUM_THREADS", MAKE_N, .why = "N threads" },
	{ TELL_BLAS, "BLIS_NUM_THREADS", MAKE_N, .why = "N threads" },
	{ TELL_GO, "GOMAXPROCS", MAKE_N, .why = "N Go threads at once" },
	{ TELL_JAVA, "JAVA_TOOL_OPTIONS", MAKE_OPT,
	  .opt = "-XX:ActiveProcessorCount=",
	  .says = "-XX:ActiveProcessorCount",
	  .why = "the JVM's active processor count N" },
	{ TELL_RUST, "RAYON_NUM_THREADS", MAKE_N, .why = "N rayon threads" },
	{ TELL_BUILD, "CMAKE_BUILD_PARALLEL_LEVEL", MAKE_N,
	  .why = "N build jobs" },
	{ TELL_BUILD, "MAKEFLAGS", MAKE_MAKE, .why = "N make jobs" },
	{ TELL_BUILD, "MESON_TESTTHREADS", MAKE_N, .why = "N meson test jobs" },
	{ TELL_GPU, "CUDA_VISIBLE_DEVICES", MAKE_CUDA,
	  .why = "the --near GPU alone, by the UUID the topology gives, "
		 "else its index" },
	{ TELL_GPU, "ROCR_VISIBLE_DEVICES", MAKE_ROCR,
	  .why = "the --near GPU alone, by the UUID the topology gives, "
		 "else its index" },
	{ TELL_GPU, "ZE_FLAT_DEVICE_HIERARCHY", MAKE_ZE_FLAT,
	  .why = "ZE_AFFINITY_MASK counts whole GPUs, as hwloc does" },
	{ TELL_GPU, "ZE_AFFINITY_MASK", MAKE_ZE,
	  .why = "the --near GPU alone" },
	{ TELL_GPU, "UCX_NET_DEVICES", MAKE_UCX, .why = "the --near NIC" },
	{ TELL_GPU, "NCCL_IB_HCA", MAKE_NCCL_IB,
	  .why = "the --near NIC's HCA, exactly" },
	{ TELL_GPU, "NCCL_SOCKET_IFNAME", MAKE_NCCL_IF,
	  .why = "the --near NIC's interface, exactly" },
	{ TELL_PYTHON, "PYTHON_CPU_COUNT", MAKE_N,
	  .why = "Python 3.13's os.cpu_count() and os.process_cpu_count() "
		 "say N" },
	{ TELL_ERLANG, "ERL_AFLAGS", MAKE_ERLANG, .says = "+S",
	  .why = "N Erlang schedulers, N of them online" },
	{ TELL_TOOLS, "PARALLEL", MAKE_OPT, .opt = "-j",
	  .says = "-j --jobs -P --max-procs", .why = "N GNU parallel jobs" },
	{ TELL_TOOLS, "PIGZ", MAKE_OPT, .opt = "-p", .says = "-p --processes",
	  .why = "N pigz threads" },
	{ TELL_VIEW, "LD_PRELOAD", MAKE_PRELOAD,
	  .why = "the CPU view: sysconf, get_nprocs, "
		 "/sys/devices/system/cpu/online, /proc/stat and "
		 "/proc/cpuinfo show the placement" },
	{ TELL_VIEW, "PINRUN_VIEW", MAKE_VIEW,
	  .why = "the placement the CPU view shows" },
	{ TELL_VIEW, "ASAN_OPTIONS", MAKE_WORD,
	  .opt = "verify_asan_link_order=0", .says = "verify_asan_link_order",
	  .why = "AddressSanitizer's programs run with the view loaded before "
		 "their runtime" },
};

_Static_assert(sizeof(rules) / sizeof(rules[0]) <= TELL_MAX_VARS,
	       "room in tell_result for every variable");

/* What the devices say, for the gpu family. */
struct dev_facts {
	struct devices_gpu_ids ids;
	const char *rdma, *netdev;
};

/* Whether the rule has anything to say about this input. */
static bool applies(const struct tell_input *in, const struct rule *r,
		    const struct dev_facts *f)
{
	if (r->family == TELL_VIEW)
		return in->view_library != NULL;
	switch (r->make) {
	case MAKE_CUDA:
		return f->ids.cuda >= 0 || f->ids.nvidia_uuid[0];
	case MAKE_ROCR:
		return f->ids.rocm >= 0 || f->ids.amd_uuid[0];
	case MAKE_ZE:
	case MAKE_ZE_FLAT:
		return f->ids.ze >= 0;
	case MAKE_UCX:
		return f->rdma || f->netdev;
	case MAKE_NCCL_IB:
		return f->rdma != NULL;
	case MAKE_NCCL_IF:
		return !f->rdma && f->netdev;
	default:
		return true;
	}
}

/* Whether MAKEFLAGS already sets the jobs: -jN, -j, --jobs, or make's
 * own jobserver (a parent make's). */
static bool make_has_jobs(const char *flags)
{
	const char *p = flags;

	while (*p) {
		size_t len;

		p += strspn(p, " ");
		len = strcspn(p, " ");
		if ((len >= 2 && !strncmp(p, "-j", 2)) ||
		    (len >= 6 && !strncmp(p, "--jobs", 6)) ||
		    (len >= 11 && !strncmp(p, "--jobserver", 11)))
			return true;
		/* The first word may be letters without a dash: "kj". */
		if (p == flags && len && p[0] != '-' && memchr(p, 'j', len) &&
		    !memchr(p, '=', len))
			return true;
		p += len;
	}
	return false;
}

/* Whether a word of the user's value (separated by spaces, and by
 * colons with colon set) starts with one of prefixes (space-separated),
 * or, with whole, is one of them. */
static bool has_word(const char *value, const char *prefixes, bool colon,
		     bool whole)
{
	const char *sep = colon ? " :" : " ";

	for (const char *p = value; *p;) {
		size_t len;

		p += strspn(p, sep);
		len = strcspn(p, sep);
		for (const char *q = prefixes; len && *q;) {
			size_t plen;

			q += strspn(q, " ");
			plen = strcspn(q, " ");
			if (plen && (whole ? plen == len : plen <= len) &&
			    !strncmp(p, q, plen))
				return true;
			q += plen;
		}
		p += len;
	}
	return false;
}

/* A new string: fmt's text. */
static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *format(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !(s = malloc((size_t)n + 1)))
		return NULL;
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

static char *make_value(const struct tell_input *in, const struct rule *r,
			const char *user, unsigned n, const struct dev_facts *f)
{
	size_t len;
	char *s;

	switch (r->make) {
	case MAKE_N:
		return format("%u", n);
	case MAKE_CLOSE:
		return format("close");
	case MAKE_PLACES:
		len = emit_places(in->t, in->cpus, NULL, 0);
		if ((s = malloc(len + 1)))
			emit_places(in->t, in->cpus, s, len + 1);
		return s;
	case MAKE_OPT:
		return format("%s%s%s%u", user ? user : "",
			      user && *user ? " " : "", r->opt, n);
	case MAKE_WORD:
		return format("%s%s%s", user ? user : "",
			      user && *user ? " " : "", r->opt);
	case MAKE_MAKE:
		return format("%s%s-j%u", user ? user : "",
			      user && *user ? " " : "", n);
	case MAKE_ERLANG:
		return format("%s%s+S %u:%u", user ? user : "",
			      user && *user ? " " : "", n, n);
	case MAKE_PRELOAD:
		return format("%s%s%s", user ? user : "",
			      user && *user ? " " : "", in->view_library);
	case MAKE_VIEW:
		return cpulist_str(in->cpus);
	case MAKE_CUDA:
		return f->ids.nvidia_uuid[0] ? format("%s", f->ids.nvidia_uuid)
					     : format("%d", f->ids.cuda);
	case MAKE_ROCR:
		return f->ids.amd_uuid[0] ? format("GPU-%s", f->ids.amd_uuid)
					  : format("%d", f->ids.rocm);
	case MAKE_ZE:
		return format("%d", f->ids.ze);
	case MAKE_ZE_FLAT:
		return format("COMPOSITE");
	case MAKE_UCX:
		return f->rdma ? format("%s:1", f->rdma)
			       : format("%s", f->netdev);
	case MAKE_NCCL_IB:
		return format("=%s", f->rdma);
	case MAKE_NCCL_IF:
		return format("=%s", f->netdev);
	}
	return NULL;
}

/* Whether the user's value already says what pinrun would: then it stays.
 * Any value does, but for those pinrun appends to, which must say it
 * themselves, and PINRUN_VIEW, which is pinrun's own (an outer pinrun's
 * placement is not this one's). */
static bool user_says_it(const struct tell_input *in, const struct rule *r,
			 const char *user)
{
	if (!user)
		return false;
	switch (r->make) {
	case MAKE_OPT:
	case MAKE_ERLANG:
		return has_word(user, r->says, false, false);
	case MAKE_WORD: /* ASAN_OPTIONS: words split at colons too */
		return has_word(user, r->says, true, false);
	case MAKE_MAKE:
		return make_has_jobs(user);
	case MAKE_PRELOAD:
		return has_word(user, in->view_library, true, true);
	case MAKE_VIEW:
		return false;
	default:
		return true;
	}
}

int tell_compute(const struct tell_input *in, struct tell_result *r)
{
	struct dev_facts f = { .ids = { .cuda = -1,
					.rocm = -1,
					.ze = -1,
					.nvidia_uuid = "",
					.amd_uuid = "" } };

	if (in->gpu >= 0 && (unsigned)in->gpu < in->t->ndevs)
		devices_gpu_ids(in->t, in->gpu, &f.ids);
	if (in->nic >= 0 && (unsigned)in->nic < in->t->ndevs)
		devices_nic_names(in->t, in->nic, &f.rdma, &f.netdev);
	memset(r, 0, sizeof(*r));
	r->cpus = cpulist_count(in->cpus);
	r->n = r->cpus;
	if (in->period) {
		/* Rounded up: 1.5 CPUs of time is 2 threads' worth. */
		unsigned long long cap =
		    in->quota / in->period + (in->quota % in->period != 0);

		if (cap < r->cpus) {
			r->n = (unsigned)cap;
			r->capped = true;
		}
	}
	if (r->n == 0)
		r->n = 1;
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct rule *ru = &rules[i];
		struct tell_var *v = &r->vars[r->nvars];

		if (!(in->families & ru->family) ||
		    (ru->placing && in->follow) || !applies(in, ru, &f))
			continue;
		v->name = ru->name;
		v->why = ru->why;
		v->user = envp_get(in->envp, ru->name);
		r->nvars++;
		if (user_says_it(in, ru, v->user))
			continue;
		if (!(v->value = make_value(in, ru, v->user, r->n, &f))) {
			tell_free(r);
			return -1;
		}
		v->replaced = v->user && ru->make == MAKE_VIEW;
		v->appended = v->user && *v->user && !v->replaced;
	}
	return 0;
}

bool tell_viewing(const struct tell_result *r)
{
	for (unsigned i = 0; i < r->nvars; i++)
		if (!strcmp(r->vars[i].name, "PINRUN_VIEW"))
			return true;
	return false;
}

void tell_free(struct tell_result *r)
{
	for (unsigned i = 0; i < r->nvars; i++)
		free(r->vars[i].value);
	r->nvars = 0;
}

size_t tell_shell_line(const struct tell_var *v, char *buf, size_t size)
{
	const char *s = v->value ? v->value : v->user;
	bool plain = *s != '\0';
	size_t len = 0;
	int n;

	/* export, so that eval passes the variable on to the programs the
	 * shell starts; braces quoted, as bash expands them in export's
	 * words ("export P={0},{1}" would set P=0,1). */
	for (const char *p = s; *p && plain; p++)
		plain =
		    strchr(
			"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"0123456789_,.:/=+@%-",
			*p) != NULL;
	n = snprintf(buf, size, "export %s=%s", v->name, plain ? s : "'");
	len = n > 0 ? (size_t)n : 0;
	if (plain)
		return len;
	for (const char *p = s; *p; p++) {
		n = snprintf(len < size ? buf + len : NULL,
			     len < size ? size - len : 0, "%s",
			     *p == '\'' ? "'\\''" : (char[]){ *p, '\0' });
		len += n > 0 ? (size_t)n : 0;
	}
	n = snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0,
		     "'");
	return len + (n > 0 ? (size_t)n : 0);
}
