/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tell.c: what a program's runtimes should be told about the placement.
 * OpenMP, the BLAS libraries, Go, Java, rayon and the build tools each
 * size their pools from a variable of their own, and under a CPU quota
 * none of them sees the real parallelism. One table says which variable
 * each family sets and how its value is made from N (the placement's
 * CPUs, capped by the quota, rounded up) or from the placement itself.
 * A variable the user set is left as it is; JAVA_TOOL_OPTIONS and
 * MAKEFLAGS are appended to unless they already say it. Pure: no system
 * call.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices.h"
#include "emit.h"
#include "launcher.h"
#include "tell.h"

static const struct {
	const char *name;
	unsigned family;
} families[] = {
	{ "omp", TELL_OMP },   { "blas", TELL_BLAS }, { "go", TELL_GO },
	{ "java", TELL_JAVA }, { "rust", TELL_RUST }, { "build", TELL_BUILD },
	{ "gpu", TELL_GPU },   { "all", TELL_ALL },
};
#define NFAMILIES (sizeof(families) / sizeof(families[0]))

const char *tell_family_list(void)
{
	return "omp, blas, go, java, rust, build, gpu or all";
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
	MAKE_JAVA,    /* the user's JAVA_TOOL_OPTIONS + -XX:Active... */
	MAKE_MAKE,    /* the user's MAKEFLAGS + -jN */
	MAKE_CUDA,    /* the GPU's NVIDIA UUID, else its CUDA index */
	MAKE_ROCR,    /* GPU-<its AMD UUID>, else its ROCm index */
	MAKE_ZE,      /* its Level Zero index */
	MAKE_ZE_FLAT, /* "COMPOSITE": ZE_AFFINITY_MASK counts whole GPUs */
	MAKE_UCX,     /* the NIC: "mlx5_0:1", or its interface */
	MAKE_NCCL_IB, /* "=mlx5_0": exactly that HCA */
	MAKE_NCCL_IF, /* "=eth0": exactly that interface */
};

static const struct rule {
	unsigned family;
	const char *name;
	enum make make;
	bool placing; /* binds threads: not with --follow */
	const char *why;
} rules[] = {
	{ TELL_OMP, "OMP_NUM_THREADS", MAKE_N, false, "N threads" },
	{ TELL_OMP, "OMP_PLACES", MAKE_PLACES, true,
	  "the placement's cores, their PUs in OS numbers" },
	{ TELL_OMP, "OMP_PROC_BIND", MAKE_CLOSE, true,
	  "each thread bound to a place, in order" },
	{ TELL_BLAS, "OPENBLAS_NUM_THREADS", MAKE_N, false, "N threads" },
	{ TELL_BLAS, "MKL_NUM_THREADS", MAKE_N, false, "N threads" },
	{ TELL_BLAS, "BLIS_NUM_THREADS", MAKE_N, false, "N threads" },
	{ TELL_GO, "GOMAXPROCS", MAKE_N, false, "N Go threads at once" },
	{ TELL_JAVA, "JAVA_TOOL_OPTIONS", MAKE_JAVA, false,
	  "the JVM's active processor count N" },
	{ TELL_RUST, "RAYON_NUM_THREADS", MAKE_N, false, "N rayon threads" },
	{ TELL_BUILD, "CMAKE_BUILD_PARALLEL_LEVEL", MAKE_N, false,
	  "N build jobs" },
	{ TELL_BUILD, "MAKEFLAGS", MAKE_MAKE, false, "N make jobs" },
	{ TELL_GPU, "CUDA_VISIBLE_DEVICES", MAKE_CUDA, false,
	  "the --near GPU alone, by the UUID the topology gives, else its "
	  "index" },
	{ TELL_GPU, "ROCR_VISIBLE_DEVICES", MAKE_ROCR, false,
	  "the --near GPU alone, by the UUID the topology gives, else its "
	  "index" },
	{ TELL_GPU, "ZE_FLAT_DEVICE_HIERARCHY", MAKE_ZE_FLAT, false,
	  "ZE_AFFINITY_MASK counts whole GPUs, as hwloc does" },
	{ TELL_GPU, "ZE_AFFINITY_MASK", MAKE_ZE, false,
	  "the --near GPU alone" },
	{ TELL_GPU, "UCX_NET_DEVICES", MAKE_UCX, false, "the --near NIC" },
	{ TELL_GPU, "NCCL_IB_HCA", MAKE_NCCL_IB, false,
	  "the --near NIC's HCA, exactly" },
	{ TELL_GPU, "NCCL_SOCKET_IFNAME", MAKE_NCCL_IF, false,
	  "the --near NIC's interface, exactly" },
};

/* What the devices say, for the gpu family. */
struct dev_facts {
	struct devices_gpu_ids ids;
	const char *rdma, *netdev;
};

/* Whether the rule has anything to say about this input. */
static bool applies(const struct rule *r, const struct dev_facts *f)
{
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
	case MAKE_JAVA:
		return format("%s%s-XX:ActiveProcessorCount=%u",
			      user ? user : "", user && *user ? " " : "", n);
	case MAKE_MAKE:
		return format("%s%s-j%u", user ? user : "",
			      user && *user ? " " : "", n);
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
 * Any value does, except for the two pinrun appends to. */
static bool user_says_it(const struct rule *r, const char *user)
{
	if (!user)
		return false;
	if (r->make == MAKE_JAVA)
		return strstr(user, "ActiveProcessorCount") != NULL;
	if (r->make == MAKE_MAKE)
		return make_has_jobs(user);
	return true;
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
		    (ru->placing && in->follow) || !applies(ru, &f))
			continue;
		v->name = ru->name;
		v->why = ru->why;
		v->user = launcher_getenv(in->envp, ru->name);
		r->nvars++;
		if (user_says_it(ru, v->user))
			continue;
		if (!(v->value = make_value(in, ru, v->user, r->n, &f))) {
			tell_free(r);
			return -1;
		}
	}
	return 0;
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
