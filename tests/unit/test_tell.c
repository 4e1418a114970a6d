/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for tell.c: the families --tell=WHAT names, N and the quota
 * (rounded up, never 0), the user's values left or appended to, no places
 * under --follow, and the lines a shell can eval. */
#include <string.h>

#include "check.h"
#include "devices.h"
#include "tell.h"

/* The value tell gives name in r: "(kept)" when the user's stays, NULL
 * when it is not among r's variables. */
static const char *value(const struct tell_result *r, const char *name)
{
	for (unsigned i = 0; i < r->nvars; i++)
		if (!strcmp(r->vars[i].name, name))
			return r->vars[i].value ? r->vars[i].value : "(kept)";
	return NULL;
}

TEST(tell_family_names)
{
	const char *bad = NULL;
	size_t len = 0;
	unsigned f;
	char list[256];

	EXPECT(tell_parse("all", &f, &bad, &len) == 0 && f == TELL_ALL);
	EXPECT(tell_parse("omp,go", &f, &bad, &len) == 0 &&
	       f == (TELL_OMP | TELL_GO));
	EXPECT(tell_parse("omp,cuda", &f, &bad, &len) == -1);
	EXPECT(len == 4 && !strncmp(bad, "cuda", len));
	EXPECT(tell_parse("", &f, &bad, &len) == -1 && len == 0);
	EXPECT(tell_parse("go,", &f, &bad, &len) == -1 && len == 0);
	EXPECT(tell_parse("python,erlang,tools,view", &f, &bad, &len) == 0 &&
	       f == (TELL_PYTHON | TELL_ERLANG | TELL_TOOLS | TELL_VIEW));
	/* The list messages and --help give, from the table. */
	EXPECT(tell_families(", ", " or ", list, sizeof(list)) == strlen(list));
	EXPECT(!strcmp(list, "omp, blas, go, java, rust, build, gpu, python, "
			     "erlang, tools, view or all"));
	EXPECT(tell_families(",", ",", NULL, 0) ==
	       strlen("omp,blas,go,java,rust,build,gpu,python,erlang,tools,"
		      "view,all"));
	/* Every name it lists is one tell_parse takes. */
	tell_families(",", ",", list, sizeof(list));
	EXPECT(tell_parse(list, &f, &bad, &len) == 0 && f == TELL_ALL);
}

TEST(tell_programs_options)
{
	struct topology *t = build_machine(1, 1, 4, 1, false);
	struct cpuset cpus = set_of("1-3");
	char *env[] = { "PARALLEL=--joblog x", "PIGZ=--processes 8",
			"ERL_AFLAGS=+A 4", NULL };
	struct tell_input in = { .t = t,
				 .cpus = &cpus,
				 .families = TELL_ALL,
				 .envp = env,
				 .gpu = -1,
				 .nic = -1 };
	struct tell_result r;

	EXPECT(tell_compute(&in, &r) == 0);
	EXPECT(!strcmp(value(&r, "MESON_TESTTHREADS"), "3"));
	EXPECT(!strcmp(value(&r, "PYTHON_CPU_COUNT"), "3"));
	/* --joblog is no --jobs; --processes is pigz's -p. */
	EXPECT(!strcmp(value(&r, "PARALLEL"), "--joblog x -j3"));
	EXPECT(!strcmp(value(&r, "PIGZ"), "(kept)"));
	EXPECT(!strcmp(value(&r, "ERL_AFLAGS"), "+A 4 +S 3:3"));
	/* No library to preload (another machine's plan): no view. */
	EXPECT(value(&r, "LD_PRELOAD") == NULL);
	EXPECT(value(&r, "PINRUN_VIEW") == NULL);
	tell_free(&r);
	env[0] = "PARALLEL=-P2";
	env[2] = "ERL_AFLAGS=+S 1:1";
	EXPECT(tell_compute(&in, &r) == 0);
	EXPECT(!strcmp(value(&r, "PARALLEL"), "(kept)"));
	EXPECT(!strcmp(value(&r, "ERL_AFLAGS"), "(kept)"));
	tell_free(&r);
	tree_free(t);
}

TEST(tell_view)
{
	struct topology *t = build_machine(1, 1, 4, 1, false);
	struct cpuset cpus = set_of("0,2-3");
	char *env[] = { "LD_PRELOAD=/a.so:/b.so", "PINRUN_VIEW=0-3", NULL };
	struct tell_input in = { .t = t,
				 .cpus = &cpus,
				 .families = TELL_VIEW,
				 .envp = env,
				 .gpu = -1,
				 .nic = -1,
				 .view_library = "/l/libpinrun-view.so" };
	struct tell_result r;

	EXPECT(tell_compute(&in, &r) == 0 && r.nvars == 3);
	EXPECT(!strcmp(value(&r, "LD_PRELOAD"),
		       "/a.so:/b.so /l/libpinrun-view.so"));
	EXPECT(r.vars[0].appended && !r.vars[0].replaced);
	/* An outer pinrun's view is not this placement's. */
	EXPECT(!strcmp(value(&r, "PINRUN_VIEW"), "0,2-3"));
	EXPECT(r.vars[1].replaced && !r.vars[1].appended);
	/* ASan's check of its place among the libraries, off. */
	EXPECT(!strcmp(value(&r, "ASAN_OPTIONS"), "verify_asan_link_order=0"));
	tell_free(&r);
	env[1] = "ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=1";
	EXPECT(tell_compute(&in, &r) == 0);
	EXPECT(!strcmp(value(&r, "ASAN_OPTIONS"), "(kept)"));
	tell_free(&r);
	env[1] = "ASAN_OPTIONS=detect_leaks=0";
	EXPECT(tell_compute(&in, &r) == 0);
	EXPECT(!strcmp(value(&r, "ASAN_OPTIONS"),
		       "detect_leaks=0 verify_asan_link_order=0"));
	tell_free(&r);
	env[1] = "PINRUN_VIEW=0-3";
	/* Already preloaded (an outer pinrun --tell): once is enough. */
	env[0] = "LD_PRELOAD=/a.so:/l/libpinrun-view.so";
	EXPECT(tell_compute(&in, &r) == 0);
	EXPECT(!strcmp(value(&r, "LD_PRELOAD"), "(kept)"));
	tell_free(&r);
	/* A name that merely starts the same is another library. */
	env[0] = "LD_PRELOAD=/l/libpinrun-view.so.old";
	EXPECT(tell_compute(&in, &r) == 0);
	EXPECT(!strcmp(value(&r, "LD_PRELOAD"),
		       "/l/libpinrun-view.so.old /l/libpinrun-view.so"));
	tell_free(&r);
	tree_free(t);
}

TEST(tell_n_and_quota)
{
	struct topology *t = build_machine(1, 1, 4, 2, false);
	struct cpuset cpus = set_of("0-5");
	char *env[] = { NULL };
	struct tell_input in = { .t = t,
				 .cpus = &cpus,
				 .families = TELL_ALL,
				 .envp = env,
				 .gpu = -1,
				 .nic = -1 };
	struct tell_result r;

	EXPECT(tell_compute(&in, &r) == 0);
	EXPECT(r.n == 6 && r.cpus == 6 && !r.capped);
	EXPECT(!strcmp(value(&r, "OMP_NUM_THREADS"), "6"));
	EXPECT(!strcmp(value(&r, "OMP_PLACES"), "{0,1},{2,3},{4,5}"));
	EXPECT(!strcmp(value(&r, "OMP_PROC_BIND"), "close"));
	EXPECT(!strcmp(value(&r, "MAKEFLAGS"), "-j6"));
	EXPECT(!strcmp(value(&r, "JAVA_TOOL_OPTIONS"),
		       "-XX:ActiveProcessorCount=6"));
	tell_free(&r);
	/* 2.5 CPUs of time: 3. */
	in.quota = 250000;
	in.period = 100000;
	EXPECT(tell_compute(&in, &r) == 0);
	EXPECT(r.n == 3 && r.capped);
	EXPECT(!strcmp(value(&r, "GOMAXPROCS"), "3"));
	tell_free(&r);
	/* A quota above the placement changes nothing; a tiny one is 1. */
	in.quota = 900000;
	EXPECT(tell_compute(&in, &r) == 0 && r.n == 6 && !r.capped);
	tell_free(&r);
	in.quota = 1000;
	EXPECT(tell_compute(&in, &r) == 0 && r.n == 1 && r.capped);
	tell_free(&r);
	tree_free(t);
}

TEST(tell_user_values_and_follow)
{
	struct topology *t = build_machine(1, 1, 2, 1, false);
	struct cpuset cpus = set_of("0-1");
	char *env[] = { "OMP_NUM_THREADS=9", "JAVA_TOOL_OPTIONS=-Xmx1g",
			"MAKEFLAGS=kj", "OPENBLAS_NUM_THREADS=", NULL };
	struct tell_input in = { .t = t,
				 .cpus = &cpus,
				 .families = TELL_OMP | TELL_JAVA | TELL_BUILD |
					     TELL_BLAS,
				 .envp = env,
				 .gpu = -1,
				 .nic = -1 };
	struct tell_result r;

	EXPECT(tell_compute(&in, &r) == 0);
	EXPECT(!strcmp(value(&r, "OMP_NUM_THREADS"), "(kept)"));
	EXPECT(!strcmp(value(&r, "OPENBLAS_NUM_THREADS"), "(kept)"));
	EXPECT(!strcmp(value(&r, "MKL_NUM_THREADS"), "2"));
	EXPECT(!strcmp(value(&r, "JAVA_TOOL_OPTIONS"),
		       "-Xmx1g -XX:ActiveProcessorCount=2"));
	EXPECT(!strcmp(value(&r, "MAKEFLAGS"), "(kept)")); /* "kj": -k -j */
	EXPECT(value(&r, "GOMAXPROCS") == NULL);
	tell_free(&r);
	in.follow = true;
	EXPECT(tell_compute(&in, &r) == 0);
	EXPECT(value(&r, "OMP_PLACES") == NULL);
	EXPECT(value(&r, "OMP_PROC_BIND") == NULL);
	EXPECT(!strcmp(value(&r, "MKL_NUM_THREADS"), "2"));
	tell_free(&r);
	tree_free(t);
}

TEST(tell_shell_lines)
{
	struct tell_var plain = { .name = "GOMAXPROCS", .value = "4" };
	struct tell_var braces = { .name = "OMP_PLACES", .value = "{0,1},{2}" };
	struct tell_var quoted = { .name = "JAVA_TOOL_OPTIONS",
				   .value = "-Da='x y' -XX:A=1" };
	char buf[128];

	EXPECT(tell_shell_line(&plain, buf, sizeof(buf)) == strlen(buf));
	EXPECT(!strcmp(buf, "export GOMAXPROCS=4"));
	EXPECT(tell_shell_line(&braces, buf, sizeof(buf)) == strlen(buf));
	EXPECT(!strcmp(buf, "export OMP_PLACES='{0,1},{2}'"));
	EXPECT(tell_shell_line(&quoted, buf, sizeof(buf)) == strlen(buf));
	EXPECT(!strcmp(buf,
		       "export JAVA_TOOL_OPTIONS='-Da='\\''x y'\\'' -XX:A=1'"));
	EXPECT(tell_shell_line(&quoted, NULL, 0) == strlen(buf));
}

/* Two packages of two cores; a GPU on package 1 (cuda0, nvml0 with its
 * UUID), one on package 0 (rsmi0), a NIC on package 1. */
static int add(struct topology *t, enum topo_dev_type type, int attach, int pci,
	       const char *name, const char *subtype, const char *uuid)
{
	struct topo_dev d = { .type = type, .attach = attach, .pci = pci };

	snprintf(d.name, sizeof(d.name), "%s", name);
	snprintf(d.subtype, sizeof(d.subtype), "%s", subtype);
	snprintf(d.uuid, sizeof(d.uuid), "%s", uuid);
	return tree_add_dev(t, &d);
}

TEST(tell_gpus)
{
	struct topology *t = build_machine(2, 1, 2, 1, false);
	int p1 = t->levels[1].objs[1], p0 = t->levels[1].objs[0];
	int nv = add(t, TOPO_DEV_PCI, p1, TOPO_NONE, "", "", "");
	int cuda = add(t, TOPO_DEV_COPROC, p1, nv, "cuda0", "CUDA", "");
	int amd = add(t, TOPO_DEV_PCI, p0, TOPO_NONE, "", "", "");
	int nic = add(t, TOPO_DEV_PCI, p1, TOPO_NONE, "", "", "");
	int gpus[4];
	struct devices_gpu_ids ids;
	struct cpuset cpus = set_of("2-3");
	char *env[] = { NULL };
	struct tell_input in = { .t = t,
				 .cpus = &cpus,
				 .families = TELL_GPU,
				 .envp = env,
				 .gpu = nv,
				 .nic = -1 };
	struct tell_result r;

	add(t, TOPO_DEV_GPU, p1, nv, "nvml0", "", "GPU-1234");
	add(t, TOPO_DEV_GPU, p0, amd, "rsmi0", "RSMI", "abcd");
	add(t, TOPO_DEV_GPU, p1, nic, "card9", "", ""); /* no render node */
	add(t, TOPO_DEV_OPENFABRICS, p1, nic, "mlx5_0", "", "");
	add(t, TOPO_DEV_NETWORK, p1, nic, "ib0", "", "");
	EXPECT(devices_gpu_of(t, cuda) == nv);
	EXPECT(devices_gpu_of(t, nic) == -1);
	/* Package 0's GPU first: topology order. */
	EXPECT(devices_gpus(t, gpus, 4) == 2 && gpus[0] == amd &&
	       gpus[1] == nv);
	devices_gpu_ids(t, nv, &ids);
	EXPECT(ids.cuda == 0 && ids.rocm == -1 && !strcmp(ids.name, "cuda0"));
	EXPECT(!strcmp(ids.nvidia_uuid, "GPU-1234"));
	EXPECT(tell_compute(&in, &r) == 0 && r.nvars == 1);
	EXPECT(!strcmp(value(&r, "CUDA_VISIBLE_DEVICES"), "GPU-1234"));
	tell_free(&r);
	in.gpu = amd;
	EXPECT(tell_compute(&in, &r) == 0 && r.nvars == 1);
	EXPECT(!strcmp(value(&r, "ROCR_VISIBLE_DEVICES"), "GPU-abcd"));
	tell_free(&r);
	in.gpu = -1;
	in.nic = nic;
	EXPECT(tell_compute(&in, &r) == 0 && r.nvars == 2);
	EXPECT(!strcmp(value(&r, "UCX_NET_DEVICES"), "mlx5_0:1"));
	EXPECT(!strcmp(value(&r, "NCCL_IB_HCA"), "=mlx5_0"));
	tell_free(&r);
	tree_free(t);
}

int main(void)
{
	RUN(tell_gpus);
	RUN(tell_family_names);
	RUN(tell_programs_options);
	RUN(tell_view);
	RUN(tell_n_and_quota);
	RUN(tell_user_values_and_follow);
	RUN(tell_shell_lines);
	return DONE();
}
