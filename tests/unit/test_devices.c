/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for the I/O device table and the memory nodes: devices.c
 * (what --near names), memory.c (what --mem=MODE:NODES names),
 * tree_local_numa (a placement's own nodes) and their bytes in the
 * cache format. */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "devices.h"
#include "memory.h"
#include "topofile.h"

static int add_dev(struct topology *t, enum topo_dev_type type, int attach,
		   int pci, const char *busid, const char *name)
{
	struct topo_dev d = { .type = type, .attach = attach, .pci = pci };

	snprintf(d.busid, sizeof(d.busid), "%s", busid);
	snprintf(d.name, sizeof(d.name), "%s", name);
	if (type == TOPO_DEV_PCI)
		d.pci_class = 0x0200;
	return tree_add_dev(t, &d);
}

/* Two packages of two cores of two PUs (consecutive), one NUMA node each;
 * a NIC on package 1 (eth1, mlx5_0), a disk on the machine (sda), a
 * DMA engine with no PCI device on package 0, and two "dup0". */
static struct topology *machine_with_devices(void)
{
	struct topology *t = build_machine(2, 1, 2, 2, false);
	int nic = add_dev(t, TOPO_DEV_PCI, 9, TOPO_NONE, "0000:3b:00.0", "");
	int sata = add_dev(t, TOPO_DEV_PCI, 0, TOPO_NONE, "0001:00:1f.2", "");
	int other = add_dev(t, TOPO_DEV_PCI, 1, TOPO_NONE, "0000:01:00.0", "");

	add_dev(t, TOPO_DEV_NETWORK, 9, nic, "0000:3b:00.0", "eth1");
	add_dev(t, TOPO_DEV_OPENFABRICS, 9, nic, "0000:3b:00.0", "mlx5_0");
	add_dev(t, TOPO_DEV_BLOCK, 0, sata, "0001:00:1f.2", "sda");
	add_dev(t, TOPO_DEV_DMA, 1, TOPO_NONE, "", "dma0chan0");
	add_dev(t, TOPO_DEV_NETWORK, 1, other, "0000:01:00.0", "dup0");
	add_dev(t, TOPO_DEV_NETWORK, 9, nic, "0000:3b:00.0", "dup0");
	return t;
}

static const char *find(const struct topology *t, const char *spec,
			struct devices_error *e)
{
	static char name[TOPO_DEV_NAME_MAX + 8];
	int dev;

	if (devices_find(t, spec, &dev, e) < 0)
		return NULL;
	devices_label(t, dev, name, sizeof(name));
	return name;
}

TEST(devices_by_name_and_bus_id)
{
	struct topology *t = machine_with_devices();
	struct devices_error e;
	struct cpuset cpus;
	const char *got;
	int dev;

	EXPECT((got = find(t, "mlx5_0", &e)) && !strcmp(got, "mlx5_0"));
	EXPECT((got = find(t, "os=eth1", &e)) && !strcmp(got, "eth1"));
	EXPECT((got = find(t, "pci=0000:3b:00.0", &e)) &&
	       !strcmp(got, "pci=0000:3b:00.0"));
	/* hwloc's forms: no domain is domain 0; any case; short fields. */
	EXPECT((got = find(t, "3B:00.0", &e)) &&
	       !strcmp(got, "pci=0000:3b:00.0"));
	EXPECT((got = find(t, "pci=1:0:1f.2", &e)) &&
	       !strcmp(got, "pci=0001:00:1f.2"));
	EXPECT(devices_find(t, "mlx5_0", &dev, &e) == 0);
	devices_cpus(t, dev, &cpus);
	EXPECT_SET(&cpus, "4-7");
	EXPECT(devices_find(t, "sda", &dev, &e) == 0);
	devices_cpus(t, dev, &cpus);
	EXPECT_SET(&cpus, "0-7");
	EXPECT(devices_find(t, "dma0chan0", &dev, &e) == 0);
	devices_cpus(t, dev, &cpus);
	EXPECT_SET(&cpus, "0-3");
	tree_free(t);
}

TEST(devices_refused)
{
	struct topology *t = machine_with_devices();
	struct devices_error e;

	EXPECT(!find(t, "eth9", &e) && e.code == DEVICES_E_UNKNOWN && !e.pci);
	EXPECT(!find(t, "pci=0000:3c:00.0", &e) &&
	       e.code == DEVICES_E_UNKNOWN && e.pci);
	/* A bus id of a domain the device is not in. */
	EXPECT(!find(t, "00:1f.2", &e) && e.code == DEVICES_E_UNKNOWN);
	/* An OS device is not found by its PCI device's name, nor the
	 * other way round. */
	EXPECT(!find(t, "os=0000:3b:00.0", &e) && e.code == DEVICES_E_UNKNOWN);
	EXPECT(!find(t, "dup0", &e) && e.code == DEVICES_E_AMBIGUOUS &&
	       e.first == 7 && e.second == 8);
	EXPECT(devices_known(t, "dup0") && !devices_known(t, "eth9"));
	EXPECT(devices_syntax("", &e) < 0 && e.code == DEVICES_E_EMPTY);
	EXPECT(devices_syntax("os=", &e) < 0 && e.code == DEVICES_E_EMPTY);
	EXPECT(devices_syntax("pci=", &e) < 0 && e.code == DEVICES_E_EMPTY &&
	       e.pci);
	EXPECT(devices_syntax("pci=zz", &e) < 0 && e.code == DEVICES_E_BAD_PCI);
	EXPECT(devices_syntax("pci=3b:00", &e) < 0 &&
	       e.code == DEVICES_E_BAD_PCI);
	EXPECT(devices_syntax("pci=3b:00.8", &e) < 0 &&
	       e.code == DEVICES_E_BAD_PCI);
	EXPECT(devices_syntax("pci=0:1:3b:00.0", &e) < 0 &&
	       e.code == DEVICES_E_BAD_PCI);
	/* A name that only looks a little like a bus id is a name. */
	EXPECT(devices_syntax("ab:cd", &e) == 0 && !e.pci);
	EXPECT(devices_syntax("3b:00.0", &e) == 0 && e.pci);
	tree_free(t);
}

TEST(devices_words)
{
	struct topology *t = machine_with_devices();
	char buf[256];

	devices_some(t, false, 3, buf, sizeof(buf));
	EXPECT(!strcmp(buf, "eth1, mlx5_0, sda and 3 more"));
	devices_some(t, true, 8, buf, sizeof(buf));
	EXPECT(!strcmp(buf, "pci=0000:3b:00.0, pci=0001:00:1f.2, "
			    "pci=0000:01:00.0"));
	EXPECT(devices_some(t, false, 8, buf, 4) ==
	       strlen("eth1, mlx5_0, sda, dma0chan0, dup0, dup0"));
	EXPECT(!strcmp(devices_class_name(0x0207), "InfiniBand"));
	EXPECT(!strcmp(devices_class_name(0x0180), "Storage"));
	EXPECT(!strcmp(devices_class_name(0xff00), "Other"));
	EXPECT(!strcmp(devices_type_name(TOPO_DEV_COPROC), "coproc"));
	tree_free(t);
}

TEST(devices_builder_checks)
{
	struct topology *t = build_machine(1, 1, 1, 1, false);
	int disk = add_dev(t, TOPO_DEV_BLOCK, 0, TOPO_NONE, "", "sda");

	EXPECT(add_dev(t, TOPO_DEV_PCI, (int)t->nobjs, TOPO_NONE, "", "") ==
	       -EINVAL);
	EXPECT(add_dev(t, TOPO_DEV_PCI, -1, TOPO_NONE, "", "") == -EINVAL);
	/* An OS device's pci must be a PCI device listed before it. */
	EXPECT(add_dev(t, TOPO_DEV_NETWORK, 0, disk, "", "eth0") == -EINVAL);
	EXPECT(add_dev(t, TOPO_DEV_NETWORK, 0, 5, "", "eth0") == -EINVAL);
	EXPECT(add_dev(t, TOPO_DEV_PCI, 0, 0, "", "") == -EINVAL);
	EXPECT(t->ndevs == 1);
	tree_free(t);
}

/* A package of two groups, each with a node; a memory-only node on the
 * package (GPU memory) and one on the machine (CXL). */
static struct topology *machine_with_memory(void)
{
	struct topology *t = tree_new("test");
	int m = tree_add(t, TOPO_MACHINE, TOPO_NONE, -1, 0), p, g;
	unsigned cpu = 0;

	p = tree_add(t, TOPO_PACKAGE, m, -1, 0);
	for (unsigned k = 0; k < 2; k++) {
		g = tree_add(t, TOPO_GROUP, p, -1, k);
		tree_add_numa(t, g, k);
		for (unsigned c = 0; c < 2; c++)
			tree_add(t, TOPO_PU, tree_add(t, TOPO_CORE, g, -1, c),
				 -1, cpu++);
	}
	tree_add_numa(t, p, 8);
	snprintf(t->numa[2].kind, sizeof(t->numa[2].kind), "GPUMemory");
	tree_add_numa(t, m, 9);
	snprintf(t->numa[3].kind, sizeof(t->numa[3].kind), "CXL-DRAM");
	if (tree_finish(t) != TOPO_OK) {
		printf("Bail out! machine_with_memory: refused\n");
		exit(1);
	}
	return t;
}

TEST(local_nodes_are_the_nearest)
{
	struct topology *t = machine_with_memory();
	struct cpuset cpus = set_of("0-3"), nodes;

	tree_local_numa(t, &cpus, &nodes);
	EXPECT_SET(&nodes, "0-1");
	cpus = set_of("2");
	tree_local_numa(t, &cpus, &nodes);
	EXPECT_SET(&nodes, "1");
	cpulist_zero(&cpus);
	tree_local_numa(t, &cpus, &nodes);
	EXPECT_SET(&nodes, "");
	tree_free(t);
	/* One node per package, all at one level: each package's own. */
	t = build_machine(2, 1, 2, 1, false);
	cpus = set_of("1-2");
	tree_local_numa(t, &cpus, &nodes);
	EXPECT_SET(&nodes, "0-1");
	tree_free(t);
}

TEST(memory_lists)
{
	struct topology *t = machine_with_memory();
	struct memory_error e;
	struct cpuset nodes;
	char buf[64];

	EXPECT(memory_parse(t, "0,8-9", &nodes, &e) == 0);
	EXPECT_SET(&nodes, "0,8-9");
	EXPECT(memory_parse(t, "all", &nodes, &e) == 0);
	EXPECT_SET(&nodes, "0-1,8-9");
	EXPECT(memory_parse(t, "gpumemory", &nodes, &e) == 0);
	EXPECT_SET(&nodes, "8");
	EXPECT(memory_parse(t, "1,CXL-DRAM", &nodes, &e) == 0);
	EXPECT_SET(&nodes, "1,9");
	EXPECT(memory_parse(t, "0-8", &nodes, &e) < 0 &&
	       e.code == MEMORY_E_NO_NODE && e.value == 2);
	EXPECT(memory_parse(t, "hbm", &nodes, &e) < 0 &&
	       e.code == MEMORY_E_NO_KIND && e.len == 3);
	EXPECT(memory_parse(t, "", &nodes, &e) < 0 && e.code == MEMORY_E_EMPTY);
	EXPECT(memory_parse(t, "0,", &nodes, &e) < 0 &&
	       e.code == MEMORY_E_ITEM && e.len == 0);
	EXPECT(memory_parse(t, ",0", &nodes, &e) < 0 &&
	       e.code == MEMORY_E_ITEM);
	EXPECT(memory_parse(t, "1-0", &nodes, &e) < 0 &&
	       e.code == MEMORY_E_REVERSED && e.value == 1 && e.value2 == 0);
	EXPECT(memory_parse(t, "0x1", &nodes, &e) < 0 &&
	       e.code == MEMORY_E_ITEM);
	EXPECT(memory_parse(t, "-1", &nodes, &e) < 0 &&
	       e.code == MEMORY_E_ITEM);
	EXPECT(memory_parse(t, "1024", &nodes, &e) < 0 &&
	       e.code == MEMORY_E_TOO_LARGE);
	/* A number of any length is a number, too large. */
	EXPECT(memory_parse(t, "12345678901", &nodes, &e) < 0 &&
	       e.code == MEMORY_E_TOO_LARGE);
	EXPECT(memory_parse(t, "0-99999999999999999999", &nodes, &e) < 0 &&
	       e.code == MEMORY_E_TOO_LARGE);
	/* Without a topology only the form counts. */
	EXPECT(memory_parse(NULL, "7,mcdram", &nodes, &e) == 0);
	EXPECT(memory_parse(NULL, "7;", &nodes, &e) < 0 &&
	       e.code == MEMORY_E_ITEM);
	memory_kinds(t, buf, sizeof(buf));
	EXPECT(!strcmp(buf, "GPUMemory, CXL-DRAM"));
	/* Node numbers are the nodes' OS indexes: 8 is there, 3 is not. */
	EXPECT(memory_parse(t, "8", &nodes, &e) == 0 &&
	       cpulist_has(&nodes, 8) && cpulist_count(&nodes) == 1);
	EXPECT(memory_parse(t, "3", &nodes, &e) < 0 &&
	       e.code == MEMORY_E_NO_NODE && e.value == 3);
	tree_free(t);
}

TEST(topofile_carries_devices_and_memory)
{
	struct topology *t = machine_with_devices(), *back = NULL;
	unsigned dist[4] = { 10, 21, 21, 10 };
	void *buf;
	size_t len;

	t->devices = true;
	t->numa[1].bytes = 1ULL << 36;
	snprintf(t->numa[1].kind, sizeof(t->numa[1].kind), "MCDRAM");
	EXPECT(tree_set_distances(t, dist) == 0);
	EXPECT(topofile_encode("key", t, &buf, &len) == TOPOFILE_OK);
	EXPECT(topofile_decode(buf, len, "key", &back) == TOPOFILE_OK);
	EXPECT(back && back->devices && back->ndevs == t->ndevs);
	EXPECT(back &&
	       !memcmp(back->devs, t->devs, t->ndevs * sizeof(*t->devs)));
	EXPECT(back && back->numa[1].bytes == 1ULL << 36 &&
	       !strcmp(back->numa[1].kind, "MCDRAM"));
	EXPECT(back && back->distances && back->distances[1] == 21);
	tree_free(back);
	free(buf);
	tree_free(t);
}

TEST(topofile_refuses_a_device_pointing_nowhere)
{
	struct topology *t = machine_with_devices(), *back = NULL;
	unsigned char *bytes;
	void *buf;
	size_t len;
	uint64_t sum;

	/* An OS device whose PCI device index points past the table. */
	t->devs[3].pci = 1000;
	EXPECT(topofile_encode("key", t, &buf, &len) == TOPOFILE_OK);
	EXPECT(topofile_decode(buf, len, "key", &back) == TOPOFILE_CORRUPT);
	free(buf);
	/* An attach past the objects, with a good checksum. */
	t->devs[3].pci = 0;
	t->devs[3].attach = (int)t->nobjs;
	EXPECT(topofile_encode("key", t, &buf, &len) == TOPOFILE_OK);
	bytes = buf;
	memcpy(&sum, bytes + len - sizeof(sum), sizeof(sum));
	EXPECT(sum == topofile_checksum(buf, len - sizeof(sum)));
	EXPECT(topofile_decode(buf, len, "key", &back) == TOPOFILE_CORRUPT);
	EXPECT(back == NULL);
	free(buf);
	tree_free(t);
}

int main(void)
{
	RUN(devices_by_name_and_bus_id);
	RUN(devices_refused);
	RUN(devices_words);
	RUN(devices_builder_checks);
	RUN(local_nodes_are_the_nearest);
	RUN(memory_lists);
	RUN(topofile_carries_devices_and_memory);
	RUN(topofile_refuses_a_device_pointing_nowhere);
	return DONE();
}
