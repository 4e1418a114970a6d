/* SPDX-License-Identifier: BSD-3-Clause */
/* I/O devices by name, as --near takes them: an OS device's name ("eth0",
 * "os=mlx5_0") or a PCI bus id ("pci=0000:3b:00.0", "3b:00.0"), looked up
 * in a flattened topology's device table. Pure: no hwloc, no I/O. */
#ifndef PINRUN_DEVICES_H
#define PINRUN_DEVICES_H

#include <stdbool.h>
#include <stddef.h>

#include "cpulist.h"
#include "topotree.h"

enum devices_err {
	DEVICES_OK = 0,
	DEVICES_E_EMPTY,     /* "", "os=" or "pci=": no name */
	DEVICES_E_BAD_PCI,   /* "pci=X" where X is no bus id */
	DEVICES_E_UNKNOWN,   /* no device of that name or bus id */
	DEVICES_E_AMBIGUOUS, /* two OS devices have the name: first, second */
	DEVICES_E_NCODES     /* how many: not a code */
};

struct devices_error {
	enum devices_err code;
	int first, second; /* AMBIGUOUS: indexes in devs */
	int pci;	   /* UNKNOWN: 1 when a bus id was looked for */
};

/* The reason phrase of a code, without the values: "no device name". What a
 * user reads is composed by the command line (errors.c), with the values. */
const char *devices_strerror(enum devices_err code);

/* Check the form of spec without a topology (for the option parser).
 * Returns 0 or -1 with err. */
int devices_syntax(const char *spec, struct devices_error *err);

/* Find the device spec names: os=NAME or a bare name is an OS device, by
 * exact name; pci=BUSID or a bare bus id is a PCI device (a bus id
 * without its domain is in domain 0000, as hwloc reads it). Returns 0
 * with *dev (an index in t->devs), or -1 with err. */
int devices_find(const struct topology *t, const char *spec, int *dev,
		 struct devices_error *err);

/* Whether devices_find would find spec on t, or find it ambiguous: false
 * only for a device t does not have. */
bool devices_known(const struct topology *t, const char *spec);

/* The CPUs local to device dev: those of the object it hangs from. */
void devices_cpus(const struct topology *t, int dev, struct cpuset *cpus);

/* GPUs: a PCI device (or an OS device on none) with a compute device of
 * a GPU's runtime (CUDA, OpenCL, Level Zero), an NVML or ROCm SMI device,
 * or a DRM render node. */

/* The GPU device dev belongs to (its PCI device, or itself), or -1 when
 * it is none. */
int devices_gpu_of(const struct topology *t, int dev);

/* The machine's GPUs in topology order (by the first CPU they are local
 * to, then in hwloc's order), as devices_gpu_of gives them, into out (up
 * to max); returns how many there are. */
unsigned devices_gpus(const struct topology *t, int *out, unsigned max);

/* How the runtimes name GPU gpu: each index -1 and each uuid "" when the
 * topology does not say. */
struct devices_gpu_ids {
	int cuda, rocm, ze;	 /* cudaN, rsmiN, zeN: their index */
	const char *nvidia_uuid; /* "GPU-..." (NVML's) */
	const char *amd_uuid;	 /* as hwloc gives it: hex digits */
	const char *name;	 /* what to call it: "cuda0", "rsmi3" */
};
void devices_gpu_ids(const struct topology *t, int gpu,
		     struct devices_gpu_ids *ids);

/* The network devices of the PCI device dev belongs to: the first
 * OpenFabrics (InfiniBand, RoCE: "mlx5_0") and network interface
 * ("ib0", "eth0") names, NULL when it has none. */
void devices_nic_names(const struct topology *t, int dev, const char **rdma,
		       const char **netdev);

/* "network", "block", "gpu", "openfabrics", "dma", "coproc", "pci". */
const char *devices_type_name(enum topo_dev_type type);

/* A PCI class as lstopo names it: "Ethernet", "NVMExp", "3D". */
const char *devices_class_name(unsigned pci_class);

/* What to call device dev in a message or a map: its OS name, or
 * "pci=BUSID" for a PCI device. */
size_t devices_label(const struct topology *t, int dev, char *buf, size_t size);

/* Up to max of the topology's device names (PCI ones as pci=BUSID when
 * pci), comma-separated, "and N more" after: for "unknown device"
 * messages. Returns the length the full text needs, like snprintf. */
size_t devices_some(const struct topology *t, bool pci, unsigned max, char *buf,
		    size_t size);

#endif
