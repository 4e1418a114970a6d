/* SPDX-License-Identifier: BSD-3-Clause */
/* The machine's topology, flattened into plain arrays that policy.c and
 * location.c read without hwloc. topology.c fills it from hwloc; unit tests
 * build it by hand with the same builder. */
#ifndef PINRUN_TOPOTREE_H
#define PINRUN_TOPOTREE_H

#include <stdbool.h>
#include <stddef.h>

#include "cpulist.h"

enum topo_type {
	TOPO_MACHINE,
	TOPO_PACKAGE,
	TOPO_DIE,
	TOPO_GROUP,
	TOPO_L5,
	TOPO_L4,
	TOPO_L3,
	TOPO_L2,
	TOPO_L1,
	TOPO_CORE,
	TOPO_PU,
	TOPO_NUMA,
	TOPO_NTYPES
};

#define TOPO_NONE (-1)

/* Why a topology could not be had: from tree_finish, topo_load and the
 * isolated loader. topo_strerror gives the phrase. */
enum topo_err {
	TOPO_OK = 0,
	TOPO_E_NOMEM,
	TOPO_E_SYSTEM,	  /* a system call failed: the errno is given apart */
	TOPO_E_INVALID,	  /* hwloc could not make sense of the source */
	TOPO_E_ENV,	  /* hwloc cannot use what HWLOC_* names */
	TOPO_E_LIBRARY,	  /* libhwloc is missing or of another ABI */
	TOPO_E_CRASHED,	  /* hwloc crashed reading it */
	TOPO_E_TIMEOUT,	  /* hwloc was still reading it at the limit */
	TOPO_E_DUP_PU,	  /* two PUs have the same CPU number */
	TOPO_E_NESTED,	  /* an object inside another of its type */
	TOPO_E_TOO_LARGE, /* beyond CPULIST_MAX CPUs or children */
	TOPO_E_NCODES	  /* how many: not a code */
};

struct topo_error {
	enum topo_err code;
	int sys; /* the errno, for TOPO_E_SYSTEM */
};

/* The reason phrase of a code, without the values: "hwloc crashed reading it".
 * What a user reads is composed by the command line (errors.c), with the
 * values. */
const char *topo_strerror(enum topo_err code);

/* Fill err and return -1: the loaders' way out. */
static inline int topo_fail(struct topo_error *err, enum topo_err code, int sys)
{
	err->code = code;
	err->sys = sys;
	return -1;
}

/* One object of the CPU tree (hwloc's "normal" objects), in depth-first
 * order: objs[0] is the machine, and each subtree's PUs are the contiguous
 * range pus[pu_first .. pu_first + pu_count). */
struct topo_obj {
	enum topo_type type;
	unsigned depth;	  /* 0 for the machine */
	unsigned logical; /* index among the objects of its depth */
	unsigned os;	  /* OS index: the CPU number for a PU */
	int parent;	  /* index in objs, TOPO_NONE for the machine */
	int first_child;  /* TOPO_NONE for a leaf */
	int last_child;	  /* (so that building stays linear) */
	int next_sibling; /* TOPO_NONE for the last child */
	unsigned pu_first, pu_count;
	int kind; /* PUs: CPU kind rank, higher is faster; -1 unknown */
	unsigned long long cache_bytes; /* a cache's size (L1 to L5, as
					 * hwloc's attr->cache.size); 0 when
					 * unknown or not a cache */
};

/* A NUMA node (hwloc's memory children), in logical order. Its CPUs are
 * those of the tree object it is attached to, as in hwloc (a memory-only
 * node such as KNL's MCDRAM shares its cluster's CPUs). */
struct topo_numa {
	unsigned os;
	int attach;		  /* index in objs */
	unsigned long long bytes; /* its own memory; 0 when unknown */
	char kind[32]; /* hwloc's subtype: "MCDRAM", "GPUMemory"; or "" */
};

/* An I/O device as hwloc names it: a PCI device, or an OS device (a
 * network interface, a disk, a GPU...) usually below one. Its CPUs are
 * those of the object it is local to, as hwloc-calc os=NAME gives them. */
enum topo_dev_type {
	TOPO_DEV_PCI,
	TOPO_DEV_BLOCK,
	TOPO_DEV_GPU,
	TOPO_DEV_NETWORK,
	TOPO_DEV_OPENFABRICS,
	TOPO_DEV_DMA,
	TOPO_DEV_COPROC,
	TOPO_DEV_OTHER,
	TOPO_DEV_NTYPES
};

#define TOPO_DEV_NAME_MAX 128

struct topo_dev {
	enum topo_dev_type type;
	int attach;	    /* index in objs: the object it is local to */
	int pci;	    /* an OS device's PCI device (index in devs), or
			     * TOPO_NONE */
	unsigned pci_class; /* a PCI device's class and subclass: 0x0200 */
	char busid[24];	    /* "0000:3b:00.0": a PCI device's, or an OS
			     * device's PCI device's; "" when none */
	char name[TOPO_DEV_NAME_MAX]; /* an OS device's name: "eth0" */
	char subtype[32];	      /* "CUDA", "Disk", or "" */
	char uuid[64]; /* a GPU's as hwloc gives it (NVIDIAUUID "GPU-...",
			* AMDUUID, LevelZeroUUID), or "" */
};

/* One level of the tree: the objects of one depth in logical order. */
struct topo_level {
	enum topo_type type;
	unsigned count;
	const int *objs; /* indexes in objs */
};

struct topology {
	struct topo_obj *objs;
	unsigned nobjs;
	int *pus; /* objs index of each PU, in logical (DFS) order */
	unsigned npus;
	int *pu_core; /* objs index of the core of pus[i] (the PU if none) */
	int nkinds;   /* 0 or 1 when all PUs are alike */
	struct topo_level *levels;
	int *level_objs;  /* storage behind levels[].objs */
	unsigned nlevels; /* = the depth of the PU level + 1 */
	struct topo_numa *numa;
	unsigned nnuma;
	unsigned *distances;   /* nnuma x nnuma relative latencies by logical
				* index, row-major; NULL when unknown */
	struct topo_dev *devs; /* in hwloc's order: each PCI device before
				* its OS devices */
	unsigned ndevs;
	bool devices;  /* I/O devices were looked for (ndevs may be 0) */
	int *pu_by_os; /* index in pus for a CPU number, or TOPO_NONE */
	unsigned pu_by_os_len;
	struct cpuset complete; /* every CPU the machine has */
	struct cpuset usable;	/* online and allowed: the PUs in the tree */
	bool this_system;	/* the running machine, so binding means it */
	char source[64];	/* "this machine", "XML file", ... */
	char hwloc_version[16];
	char hwloc_library[512]; /* what topology.c loaded it with */
	unsigned cap_objs, cap_numa, cap_devs; /* while building */
};

/* Building (in depth-first order: a parent before its children, children in
 * order). tree_add returns the new object's index, or -ENOMEM. depth -1
 * means one below the parent. */
struct topology *tree_new(const char *source);
int tree_add(struct topology *t, enum topo_type type, int parent, int depth,
	     unsigned os);
int tree_add_numa(struct topology *t, int attach, unsigned os);
/* Add an I/O device (copied), after the objects: returns its index in
 * devs, -ENOMEM, or -EINVAL when its attach is not an object or its pci
 * not an earlier PCI device (an OS device's; TOPO_NONE for the others). */
int tree_add_dev(struct topology *t, const struct topo_dev *dev);
/* The latency matrix of the NUMA nodes (nnuma x nnuma, copied). Returns
 * 0 or -ENOMEM. */
int tree_set_distances(struct topology *t, const unsigned *matrix);
/* Rank the CPU kind of a PU object (higher is faster). */
void tree_set_kind(struct topology *t, int pu, int rank);
/* Index the levels, PU ranges and lookups. Returns TOPO_OK,
 * TOPO_E_NOMEM, TOPO_E_DUP_PU when two PUs have the same CPU number, or
 * TOPO_E_NESTED when an object other than a group lies inside another of
 * its type. Sets usable to the PUs in the tree, and complete too unless
 * already larger. */
enum topo_err tree_finish(struct topology *t);
void tree_free(struct topology *t);

/* Reading. */

/* The CPU number of pus[i]. */
unsigned tree_pu_os(const struct topology *t, unsigned i);
/* Add the PUs of object o to set. */
void tree_obj_cpus(const struct topology *t, int o, struct cpuset *set);
/* The level of a type: the first (highest) depth holding it, or -1. */
int tree_type_depth(const struct topology *t, enum topo_type type);
/* Whether objects of a type are caches (L1 to L5), which may have a
 * cache_bytes. */
bool tree_type_is_cache(enum topo_type type);
/* The lowercase hwloc name of a type ("package", "l3", "pu"). */
const char *tree_type_name(enum topo_type type);
/* How many objects of a type there are (NUMA nodes included). */
unsigned tree_count(const struct topology *t, enum topo_type type);
/* The counts of the topology in words, as --explain's topology line and
 * --list's first give them: "2 packages, 4 NUMA nodes, 4 L3, 128 cores,
 * 128 PUs"; with groups, their count too where there are any ("..., 4 L3,
 * 32 groups, 128 cores, ..."), as --list gives it. Like snprintf. */
size_t tree_counts_text(const struct topology *t, bool groups, char *buf,
			size_t size);
/* The core (or PU if no core level) a CPU number belongs to; TOPO_NONE when
 * the CPU is not in the tree. */
int tree_core_of(const struct topology *t, unsigned cpu);
/* The NUMA nodes local to the CPUs of set, as an OS-index set: for each
 * CPU, the nodes attached to its nearest ancestor that has any. A node
 * attached higher up (memory-only memory that every CPU reaches alike,
 * such as CXL or GPU memory hung on the machine) is nobody's own. */
void tree_local_numa(const struct topology *t, const struct cpuset *set,
		     struct cpuset *nodes);

#endif
