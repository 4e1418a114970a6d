/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for emit.c: each format's line for a plan, the snprintf
 * contract (a short buffer still says the whole length), the masks of
 * many CPUs, and the name table. */
#include <string.h>

#include "check.h"
#include "emit.h"

static const char *line(const char *format, const struct emit_plan *p)
{
	static char buf[4096];
	const struct emit_format *f = emit_find(format);
	size_t n;

	if (!f)
		return "(no such format)";
	n = f->write(p, buf, sizeof(buf));
	if (n != strlen(buf))
		return "(length differs)";
	return buf;
}

TEST(emit_every_format)
{
	/* 2 packages x 4 cores x 2 PUs, siblings c and c + 8. */
	struct topology *t = build_machine(2, 1, 4, 2, true);
	struct cpuset cpus = set_of("4-7,12-15"), mems = set_of("1");
	struct emit_plan p = {
		.t = t, .cpus = &cpus, .parts = &cpus, .nparts = 1
	};

	EXPECT(!strcmp(line("taskset", &p), "-c 4-7,12-15"));
	EXPECT(!strcmp(line("likwid", &p), "-c 4-7,12-15"));
	EXPECT(!strcmp(line("numactl", &p), "--physcpubind=4-7,12-15"));
	EXPECT(!strcmp(line("hwloc", &p), "0x0000f0f0"));
	EXPECT(!strcmp(line("systemd", &p), "AllowedCPUs=4-7,12-15"));
	EXPECT(!strcmp(line("docker", &p), "--cpuset-cpus=4-7,12-15"));
	EXPECT(!strcmp(line("srun", &p), "--cpu-bind=mask_cpu:0xf0f0"));
	EXPECT(!strcmp(line("openmp", &p),
		       "OMP_PLACES={4,12},{5,13},{6,14},{7,15}"));
	p.mem_given = true;
	p.mem = HOST_MEM_BIND;
	p.mems = &mems;
	EXPECT(!strcmp(line("numactl", &p),
		       "--physcpubind=4-7,12-15 --membind=1"));
	EXPECT(!strcmp(line("systemd", &p),
		       "AllowedCPUs=4-7,12-15 AllowedMemoryNodes=1"));
	EXPECT(!strcmp(line("docker", &p),
		       "--cpuset-cpus=4-7,12-15 --cpuset-mems=1"));
	EXPECT(!strcmp(line("hwloc", &p),
		       "--cpubind 0x0000f0f0 --membind --strict --mempolicy "
		       "bind nodeset=0x00000002"));
	p.mem = HOST_MEM_LOCAL;
	EXPECT(!strcmp(line("numactl", &p),
		       "--physcpubind=4-7,12-15 --localalloc"));
	tree_free(t);
}

/* Each --mem mode in numactl's and hwloc-bind's options. */
TEST(emit_mem_modes)
{
	struct topology *t = build_machine(2, 1, 4, 2, true);
	struct cpuset cpus = set_of("4-7"), one = set_of("1"),
		      two = set_of("0-1"), none = set_of("");
	struct emit_plan p = { .t = t,
			       .cpus = &cpus,
			       .parts = &cpus,
			       .nparts = 1,
			       .mem_given = true,
			       .mems = &two };

	p.mem = HOST_MEM_BIND;
	EXPECT(!strcmp(line("numactl", &p), "--physcpubind=4-7 --membind=0-1"));
	EXPECT(!strcmp(line("hwloc", &p),
		       "--cpubind 0x000000f0 --membind --strict --mempolicy "
		       "bind nodeset=0x00000003"));
	p.mem = HOST_MEM_INTERLEAVE;
	EXPECT(
	    !strcmp(line("numactl", &p), "--physcpubind=4-7 --interleave=0-1"));
	EXPECT(!strcmp(line("hwloc", &p),
		       "--cpubind 0x000000f0 --membind --strict --mempolicy "
		       "interleave nodeset=0x00000003"));
	p.mem = HOST_MEM_PREFERRED;
	EXPECT(!strcmp(line("numactl", &p),
		       "--physcpubind=4-7 --preferred-many=0-1"));
	EXPECT(!strcmp(line("hwloc", &p),
		       "--cpubind 0x000000f0 --membind --mempolicy bind "
		       "nodeset=0x00000003"));
	p.mems = &one;
	EXPECT(!strcmp(line("numactl", &p), "--physcpubind=4-7 --preferred=1"));
	p.mem = HOST_MEM_LOCAL;
	p.mems = &none;
	EXPECT(!strcmp(line("numactl", &p), "--physcpubind=4-7 --localalloc"));
	EXPECT(!strcmp(line("hwloc", &p), "--cpubind 0x000000f0"));
	EXPECT(!strcmp(line("docker", &p), "--cpuset-cpus=4-7"));
	p.mem_given = false;
	p.mem = HOST_MEM_BIND;
	p.mems = &two;
	EXPECT(!strcmp(line("numactl", &p), "--physcpubind=4-7"));
	EXPECT(!strcmp(line("hwloc", &p), "0x000000f0"));
	EXPECT(!strcmp(line("systemd", &p), "AllowedCPUs=4-7"));
	tree_free(t);
}

TEST(emit_srun_parts)
{
	struct topology *t = build_machine(1, 1, 4, 1, false);
	struct cpuset parts[3] = { set_of("0"), set_of("2"), set_of("3") };
	struct emit_plan p = {
		.t = t, .cpus = &parts[0], .parts = parts, .nparts = 3
	};

	EXPECT(!strcmp(line("srun", &p), "--cpu-bind=map_cpu:0,2,3"));
	parts[1] = set_of("1-2");
	EXPECT(!strcmp(line("srun", &p), "--cpu-bind=mask_cpu:0x1,0x6,0x8"));
	tree_free(t);
}

TEST(emit_large_masks)
{
	struct topology *t = build_machine(1, 1, 4, 1, false);
	struct cpuset cpus = set_of("0,64,100");
	struct emit_plan p = {
		.t = t, .cpus = &cpus, .parts = &cpus, .nparts = 1
	};

	EXPECT(!strcmp(line("hwloc", &p),
		       "0x00000010,0x00000001,0x00000000,0x00000001"));
	EXPECT(!strcmp(line("srun", &p),
		       "--cpu-bind=mask_cpu:0x10000000010000000000000001"));
	tree_free(t);
}

TEST(emit_short_buffer_and_names)
{
	struct topology *t = build_machine(1, 1, 4, 1, false);
	struct cpuset cpus = set_of("0-3");
	struct emit_plan p = {
		.t = t, .cpus = &cpus, .parts = &cpus, .nparts = 1
	};
	char small[6], names[256];

	EXPECT(emit_find("taskset")->write(&p, small, sizeof(small)) == 6);
	/* A prefix of the line (lists are cut at an item), terminated. */
	EXPECT(!strncmp("-c 0-3", small, strlen(small)));
	EXPECT(strlen(small) < sizeof(small));
	EXPECT(emit_find("taskset")->write(&p, NULL, 0) == 6);
	EXPECT(emit_find("nosuch") == NULL);
	EXPECT(emit_names(names, sizeof(names)) == strlen(names));
	EXPECT(!strcmp(names, "taskset, numactl, hwloc, systemd, docker, "
			      "srun, openmp or likwid"));
	tree_free(t);
}

int main(void)
{
	RUN(emit_every_format);
	RUN(emit_mem_modes);
	RUN(emit_srun_parts);
	RUN(emit_large_masks);
	RUN(emit_short_buffer_and_names);
	return DONE();
}
