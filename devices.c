/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * devices.c: the I/O devices of a flattened topology, by the names hwloc
 * gives them. It finds the device that --near names and words what a
 * device is; which CPUs and memory nodes that means is the tree's
 * business (the object the device hangs from), and the allowed set is
 * context.c's. Pure: no hwloc, no system calls.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "devices.h"
#include "num.h"

const char *devices_type_name(enum topo_dev_type type)
{
	static const char *const names[TOPO_DEV_NTYPES] = {
		[TOPO_DEV_PCI] = "pci",
		[TOPO_DEV_BLOCK] = "block",
		[TOPO_DEV_GPU] = "gpu",
		[TOPO_DEV_NETWORK] = "network",
		[TOPO_DEV_OPENFABRICS] = "openfabrics",
		[TOPO_DEV_DMA] = "dma",
		[TOPO_DEV_COPROC] = "coproc",
		[TOPO_DEV_OTHER] = "other",
	};

	return type < TOPO_DEV_NTYPES ? names[type] : "other";
}

const char *devices_class_name(unsigned pci_class)
{
	/* Class and subclass first, then the class alone (0xff). */
	static const struct {
		unsigned id, mask;
		const char *name;
	} classes[] = {
		{ 0x0100, 0xffff, "SCSI" },
		{ 0x0101, 0xffff, "IDE" },
		{ 0x0104, 0xffff, "RAID" },
		{ 0x0106, 0xffff, "SATA" },
		{ 0x0107, 0xffff, "SAS" },
		{ 0x0108, 0xffff, "NVMExp" },
		{ 0x0100, 0xff00, "Storage" },
		{ 0x0200, 0xffff, "Ethernet" },
		{ 0x0207, 0xffff, "InfiniBand" },
		{ 0x0200, 0xff00, "Network" },
		{ 0x0300, 0xffff, "VGA" },
		{ 0x0302, 0xffff, "3D" },
		{ 0x0300, 0xff00, "Display" },
		{ 0x0600, 0xff00, "Bridge" },
		{ 0x0b40, 0xffff, "Co-Processor" },
		{ 0x0c04, 0xffff, "FibreChannel" },
		{ 0x0c06, 0xffff, "InfiniBand" },
		{ 0x0c00, 0xff00, "SerialBus" },
		{ 0x1200, 0xff00, "Accelerator" },
	};

	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if ((pci_class & classes[i].mask) == classes[i].id)
			return classes[i].name;
	return "Other";
}

/* Read a bus id, "[domain:]bus:dev.func" in hex as hwloc writes it, into
 * the form hwloc writes. False when s is not one. */
static bool parse_busid(const char *s, char *out, size_t size)
{
	unsigned long v[4] = { 0 };
	static const unsigned long max[4] = { 0xffffffff, 0xff, 0x1f, 0x7 };
	const char *p = s;
	int n = 0;

	for (;;) {
		size_t len = num_hex_span(p);
		char sep = p[len];

		if (!len || len > 8 || n == 4)
			return false;
		num_hex(p, len, 0, ULONG_MAX, &v[n++], NULL);
		p += len;
		if (!sep)
			break;
		if (sep != ':' && sep != '.')
			return false;
		/* Only the function follows the '.'. */
		if (sep == '.' &&
		    (n < 2 || strchr(p + 1, ':') || strchr(p + 1, '.')))
			return false;
		p++;
	}
	if (n < 3 || !strchr(s, '.'))
		return false;
	if (n == 3) { /* no domain: domain 0 */
		memmove(&v[1], &v[0], 3 * sizeof(v[0]));
		v[0] = 0;
	}
	for (int i = 0; i < 4; i++)
		if (v[i] > max[i])
			return false;
	snprintf(out, size, "%04lx:%02lx:%02lx.%01lx", v[0], v[1], v[2], v[3]);
	return true;
}

static int fail(struct devices_error *err, enum devices_err code)
{
	err->code = code;
	return -1;
}

/* Split spec into what is looked for: a name, or a bus id (*pci). */
static int split(const char *spec, const char **name, bool *pci, char *busid,
		 size_t size, struct devices_error *err)
{
	err->code = DEVICES_OK;
	err->first = err->second = TOPO_NONE;
	err->pci = 0;
	*pci = false;
	*name = spec;
	if (!strncmp(spec, "os=", 3)) {
		*name = spec + 3;
	} else if (!strncmp(spec, "pci=", 4)) {
		*pci = true;
		err->pci = 1;
		if (!spec[4])
			return fail(err, DEVICES_E_EMPTY);
		if (!parse_busid(spec + 4, busid, size))
			return fail(err, DEVICES_E_BAD_PCI);
		return 0;
	} else if (parse_busid(spec, busid, size)) {
		*pci = true;
		err->pci = 1;
		return 0;
	}
	return **name ? 0 : fail(err, DEVICES_E_EMPTY);
}

int devices_syntax(const char *spec, struct devices_error *err)
{
	char busid[32];
	const char *name;
	bool pci;

	return split(spec, &name, &pci, busid, sizeof(busid), err);
}

int devices_find(const struct topology *t, const char *spec, int *dev,
		 struct devices_error *err)
{
	char busid[32];
	const char *name;
	bool pci;

	*dev = TOPO_NONE;
	if (split(spec, &name, &pci, busid, sizeof(busid), err) < 0)
		return -1;
	for (unsigned i = 0; i < t->ndevs; i++) {
		const struct topo_dev *d = &t->devs[i];
		bool match =
		    pci ? d->type == TOPO_DEV_PCI &&
			      !strcasecmp(d->busid, busid)
			: d->type != TOPO_DEV_PCI && !strcmp(d->name, name);

		if (!match)
			continue;
		if (*dev != TOPO_NONE) {
			err->first = *dev;
			err->second = (int)i;
			*dev = TOPO_NONE;
			return fail(err, DEVICES_E_AMBIGUOUS);
		}
		*dev = (int)i;
	}
	return *dev == TOPO_NONE ? fail(err, DEVICES_E_UNKNOWN) : 0;
}

bool devices_known(const struct topology *t, const char *spec)
{
	struct devices_error e;
	int dev;

	/* "gpu" is the class: any GPU of the topology. */
	return !strcmp(spec, "gpu") || devices_find(t, spec, &dev, &e) == 0 ||
	       e.code != DEVICES_E_UNKNOWN;
}

void devices_cpus(const struct topology *t, int dev, struct cpuset *cpus)
{
	cpulist_zero(cpus);
	tree_obj_cpus(t, t->devs[dev].attach, cpus);
}

/* Whether OS device d makes its PCI device a GPU. */
static bool compute_dev(const struct topo_dev *d)
{
	return (d->type == TOPO_DEV_COPROC &&
		(!strcmp(d->subtype, "CUDA") || !strcmp(d->subtype, "OpenCL") ||
		 !strcmp(d->subtype, "LevelZero"))) ||
	       (d->type == TOPO_DEV_GPU &&
		(!strncmp(d->name, "nvml", 4) || !strncmp(d->name, "rsmi", 4) ||
		 !strncmp(d->name, "renderD", 7)));
}

/* The PCI device dev is (or belongs to); dev itself when it is on none. */
static int pci_owner(const struct topology *t, int dev)
{
	return t->devs[dev].type == TOPO_DEV_PCI ? dev
	       : t->devs[dev].pci >= 0		 ? t->devs[dev].pci
						 : dev;
}

int devices_gpu_of(const struct topology *t, int dev)
{
	int owner = pci_owner(t, dev);

	for (unsigned i = 0; i < t->ndevs; i++)
		if (((int)i == owner || t->devs[i].pci == owner) &&
		    t->devs[i].type != TOPO_DEV_PCI && compute_dev(&t->devs[i]))
			return owner;
	return -1;
}

/* The first CPU a device is local to, for ordering. */
static int first_cpu(const struct topology *t, int dev)
{
	struct cpuset cpus;

	devices_cpus(t, dev, &cpus);
	return cpulist_next(&cpus, -1);
}

unsigned devices_gpus(const struct topology *t, int *out, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < t->ndevs; i++) {
		int g = devices_gpu_of(t, (int)i), at;

		if (g != (int)i)
			continue;
		/* Insertion by first CPU; equal ones keep hwloc's order. */
		if (n < max) {
			at = (int)n;
			while (at > 0 &&
			       first_cpu(t, out[at - 1]) > first_cpu(t, g)) {
				out[at] = out[at - 1];
				at--;
			}
			out[at] = g;
		}
		n++;
	}
	return n;
}

/* The number after prefix in name ("cuda3" -> 3), or -1. */
static int index_after(const char *name, const char *prefix)
{
	size_t len = strlen(prefix);
	unsigned long n;

	if (strncmp(name, prefix, len) ||
	    num_decimal(name + len, NUM_TO_NUL, 0, INT_MAX, &n, NULL) != NUM_OK)
		return -1;
	return (int)n;
}

void devices_gpu_ids(const struct topology *t, int gpu,
		     struct devices_gpu_ids *ids)
{
	*ids = (struct devices_gpu_ids){ .cuda = -1,
					 .rocm = -1,
					 .ze = -1,
					 .nvidia_uuid = "",
					 .amd_uuid = "",
					 .name = t->devs[gpu].name };
	for (unsigned i = 0; i < t->ndevs; i++) {
		const struct topo_dev *d = &t->devs[i];

		if (((int)i != gpu && d->pci != gpu) || d->type == TOPO_DEV_PCI)
			continue;
		if (!strcmp(d->subtype, "CUDA") && ids->cuda < 0)
			ids->cuda = index_after(d->name, "cuda");
		if (!strcmp(d->subtype, "LevelZero") && ids->ze < 0)
			ids->ze = index_after(d->name, "ze");
		if (!strncmp(d->name, "rsmi", 4) && ids->rocm < 0)
			ids->rocm = index_after(d->name, "rsmi");
		if (!strncmp(d->name, "nvml", 4) && d->uuid[0])
			ids->nvidia_uuid = d->uuid;
		if (!strncmp(d->name, "rsmi", 4) && d->uuid[0])
			ids->amd_uuid = d->uuid;
		/* The name its runtime knows it by, first. */
		if (compute_dev(d) &&
		    (!ids->name[0] || d->type == TOPO_DEV_COPROC))
			ids->name = d->name;
	}
}

void devices_nic_names(const struct topology *t, int dev, const char **rdma,
		       const char **netdev)
{
	int owner = pci_owner(t, dev);

	*rdma = *netdev = NULL;
	for (unsigned i = 0; i < t->ndevs; i++) {
		const struct topo_dev *d = &t->devs[i];

		if ((int)i != owner && d->pci != owner)
			continue;
		if (d->type == TOPO_DEV_OPENFABRICS && !*rdma)
			*rdma = d->name;
		if (d->type == TOPO_DEV_NETWORK && !*netdev)
			*netdev = d->name;
	}
}

size_t devices_label(const struct topology *t, int dev, char *buf, size_t size)
{
	const struct topo_dev *d = &t->devs[dev];
	int n = d->type == TOPO_DEV_PCI
		    ? snprintf(buf, size, "pci=%s", d->busid)
		    : snprintf(buf, size, "%s", d->name);

	return n < 0 ? 0 : (size_t)n;
}

size_t devices_some(const struct topology *t, bool pci, unsigned max, char *buf,
		    size_t size)
{
	unsigned shown = 0, all = 0;
	size_t len = 0;
	char label[TOPO_DEV_NAME_MAX + 8];

	if (size)
		buf[0] = '\0';
	for (unsigned i = 0; i < t->ndevs; i++) {
		if ((t->devs[i].type == TOPO_DEV_PCI) != pci)
			continue;
		all++;
		if (shown == max)
			continue;
		devices_label(t, (int)i, label, sizeof(label));
		len += (size_t)snprintf(len < size ? buf + len : NULL,
					len < size ? size - len : 0, "%s%s",
					shown ? ", " : "", label);
		shown++;
	}
	if (all > shown)
		len += (size_t)snprintf(len < size ? buf + len : NULL,
					len < size ? size - len : 0,
					" and %u more", all - shown);
	return len;
}

const char *devices_strerror(enum devices_err code)
{
	switch (code) {
	case DEVICES_OK:
		return "no error";
	case DEVICES_E_EMPTY:
		return "no device name";
	case DEVICES_E_BAD_PCI:
		return "expected a PCI bus id such as 0000:3b:00.0";
	case DEVICES_E_UNKNOWN:
		return "unknown device";
	case DEVICES_E_AMBIGUOUS:
		return "two devices have the name";
	case DEVICES_E_NCODES: /* a count, not a code */
		break;
	}
	return "unknown error";
}
