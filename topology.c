/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * topology.c: the only user of hwloc. It loads a topology (the running
 * machine, or a saved one for planning) with the same filters as the hwloc
 * tools, copies what the placement rules and --list need into the flat
 * form of topotree.h, and lets hwloc go. It binds nothing and decides nothing.
 *
 * libhwloc is opened here, on first use, not linked: a launch that finds
 * its topology in the cache (or needs none) does not pay the dynamic
 * loader for hwloc and its dependencies. Only hwloc's types and constants
 * come from <hwloc.h>; every call goes through the table below (and none
 * through hwloc's inline helpers, which would call hwloc directly).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <hwloc.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "num.h"
#include "topology.h"

#ifndef HWLOC_LIBRARY
#define HWLOC_LIBRARY "libhwloc.so.15"
#endif

static struct {
	void *handle;
	unsigned (*get_api_version)(void);
	int (*topology_init)(hwloc_topology_t *);
	int (*topology_load)(hwloc_topology_t);
	void (*topology_destroy)(hwloc_topology_t);
	int (*set_type_filter)(hwloc_topology_t, hwloc_obj_type_t,
			       enum hwloc_type_filter_e);
	int (*set_xml)(hwloc_topology_t, const char *);
	int (*set_synthetic)(hwloc_topology_t, const char *);
	int (*is_thissystem)(hwloc_topology_t);
	hwloc_const_cpuset_t (*complete_cpuset)(hwloc_topology_t);
	int (*nbobjs_by_depth)(hwloc_topology_t, int);
	hwloc_obj_t (*obj_by_depth)(hwloc_topology_t, int, unsigned);
	int (*cpukinds_get_nr)(hwloc_topology_t, unsigned long);
	int (*cpukinds_get_info)(hwloc_topology_t, unsigned, hwloc_bitmap_t,
				 int *, unsigned *, struct hwloc_info_s **,
				 unsigned long);
	int (*distances_get_by_type)(hwloc_topology_t, hwloc_obj_type_t,
				     unsigned *, struct hwloc_distances_s **,
				     unsigned long, unsigned long);
	void (*distances_release)(hwloc_topology_t, struct hwloc_distances_s *);
	hwloc_bitmap_t (*bitmap_alloc)(void);
	void (*bitmap_free)(hwloc_bitmap_t);
	int (*bitmap_next)(hwloc_const_bitmap_t, int);
} hw;

#define SYMBOL(field, name)                                                    \
	{                                                                      \
		(void **)&hw.field, #name                                      \
	}

/* Open libhwloc once. Returns 0 or -ELIBACC. */
static int open_hwloc(void)
{
	static const struct {
		void **slot;
		const char *name;
	} symbols[] = {
		SYMBOL(get_api_version, hwloc_get_api_version),
		SYMBOL(topology_init, hwloc_topology_init),
		SYMBOL(topology_load, hwloc_topology_load),
		SYMBOL(topology_destroy, hwloc_topology_destroy),
		SYMBOL(set_type_filter, hwloc_topology_set_type_filter),
		SYMBOL(set_xml, hwloc_topology_set_xml),
		SYMBOL(set_synthetic, hwloc_topology_set_synthetic),
		SYMBOL(is_thissystem, hwloc_topology_is_thissystem),
		SYMBOL(complete_cpuset, hwloc_topology_get_complete_cpuset),
		SYMBOL(nbobjs_by_depth, hwloc_get_nbobjs_by_depth),
		SYMBOL(obj_by_depth, hwloc_get_obj_by_depth),
		SYMBOL(cpukinds_get_nr, hwloc_cpukinds_get_nr),
		SYMBOL(cpukinds_get_info, hwloc_cpukinds_get_info),
		SYMBOL(distances_get_by_type, hwloc_distances_get_by_type),
		SYMBOL(distances_release, hwloc_distances_release),
		SYMBOL(bitmap_alloc, hwloc_bitmap_alloc),
		SYMBOL(bitmap_free, hwloc_bitmap_free),
		SYMBOL(bitmap_next, hwloc_bitmap_next),
	};

	if (hw.handle)
		return 0;
	if (!(hw.handle = dlopen(HWLOC_LIBRARY, RTLD_NOW | RTLD_LOCAL)))
		return -ELIBACC;
	for (size_t i = 0; i < sizeof(symbols) / sizeof(symbols[0]); i++)
		if (!(*symbols[i].slot = dlsym(hw.handle, symbols[i].name)))
			goto fail;
	/* The ABI changes with the major API version, as hwloc's tools
	 * check too. */
	if ((hw.get_api_version() >> 16) != (HWLOC_API_VERSION >> 16))
		goto fail;
	return 0;
fail:
	dlclose(hw.handle);
	hw.handle = NULL;
	return -ELIBACC;
}

/* The library dlopen found, as "INODE MTIME PATH": recorded with each
 * topology, so that a cache entry made with another libhwloc is not
 * believed. */
static void library_identity(char *buf, size_t size)
{
	Dl_info info;
	struct stat st;

	buf[0] = '\0';
	if (dladdr((void *)hw.topology_init, &info) && info.dli_fname &&
	    stat(info.dli_fname, &st) == 0)
		snprintf(buf, size, "%llu %lld %s",
			 (unsigned long long)st.st_ino, (long long)st.st_mtime,
			 info.dli_fname);
}

/* The PUs of a bitmap, as hwloc_bitmap_foreach_begin walks them. */
#define FOR_EACH_BIT(i, set)                                                   \
	for ((i) = hw.bitmap_next((set), -1); (i) >= 0;                        \
	     (i) = hw.bitmap_next((set), (i)))

enum topo_source_kind topo_source_kind(const char *arg)
{
	struct stat st;

	if (stat(arg, &st) == 0)
		return S_ISDIR(st.st_mode) ? TOPO_SRC_FSROOT : TOPO_SRC_XML;
	/* A missing path should say so, not fail as a synthetic string. */
	if (strchr(arg, '/') || strstr(arg, ".xml") || !strchr(arg, ':'))
		return TOPO_SRC_XML;
	return TOPO_SRC_SYNTHETIC;
}

static enum topo_type map_type(hwloc_obj_t o)
{
	switch (o->type) {
	case HWLOC_OBJ_MACHINE:
		return TOPO_MACHINE;
	case HWLOC_OBJ_PACKAGE:
		return TOPO_PACKAGE;
	case HWLOC_OBJ_DIE:
		return TOPO_DIE;
	case HWLOC_OBJ_L5CACHE:
		return TOPO_L5;
	case HWLOC_OBJ_L4CACHE:
		return TOPO_L4;
	case HWLOC_OBJ_L3CACHE:
		return TOPO_L3;
	case HWLOC_OBJ_L2CACHE:
		return TOPO_L2;
	case HWLOC_OBJ_L1CACHE:
		return TOPO_L1;
	case HWLOC_OBJ_CORE:
		return TOPO_CORE;
	case HWLOC_OBJ_PU:
		return TOPO_PU;
	default:
		/* Groups, and instruction caches if someone kept them: they
		 * shape the tree, so they stay, under the neutral name. */
		return TOPO_GROUP;
	}
}

/* The shallowest depth of a core, or -1 for none. */
static int core_depth(hwloc_obj_t o)
{
	int best = o->type == HWLOC_OBJ_CORE ? o->depth : -1;

	for (hwloc_obj_t c = o->first_child; c; c = c->next_sibling) {
		int d = core_depth(c);

		if (d >= 0 && (best < 0 || d < best))
			best = d;
	}
	return best;
}

/* A core hwloc hung below caches that are a core's own elsewhere: where a
 * core has one PU left (its SMT sibling offline) and each PU has its own
 * L1, the core's CPUs are its L1's, and hwloc may put the core under it
 * (at a second depth: hwloc's tools then refuse "core:1", "multiple
 * levels"). From o, such a cache below the cores' depth, down its only
 * children to that core, or NULL. */
static hwloc_obj_t core_below(hwloc_obj_t o, int cores_at)
{
	hwloc_obj_t c = o;

	if (cores_at < 0 || (int)o->depth <= cores_at ||
	    !tree_type_is_cache(map_type(o)))
		return NULL;
	while (c->arity == 1 && tree_type_is_cache(map_type(c)))
		c = c->first_child;
	return c->type == HWLOC_OBJ_CORE ? c : NULL;
}

/* Copy the CPU tree depth-first; remember each object's index in userdata
 * so NUMA nodes can find where they are attached. Every core comes at one
 * depth (cores_at): one hwloc hung below its own caches is lifted above
 * them, as the other cores are. */
static enum topo_err flatten(struct topology *t, hwloc_obj_t o, int parent,
			     int cores_at)
{
	hwloc_obj_t lift = core_below(o, cores_at);
	int i;

	if (o->type == HWLOC_OBJ_PU && o->os_index >= CPULIST_MAX)
		return TOPO_E_TOO_LARGE;
	if (lift) {
		i = tree_add(t, TOPO_CORE, parent, cores_at, lift->os_index);
		if (i < 0)
			return TOPO_E_NOMEM;
		lift->userdata = (void *)(long)(i + 1);
		parent = i;
	}
	if (o->type == HWLOC_OBJ_CORE && o->userdata) {
		i = parent; /* lifted above its caches already */
	} else {
		i = tree_add(t, map_type(o), parent, o->depth, o->os_index);
		if (i < 0)
			return TOPO_E_NOMEM;
		/* A cache's size, as lstopo shows it (0 when the source has
		 * none; an instruction cache, kept as a group, keeps none). */
		if (tree_type_is_cache(t->objs[i].type))
			t->objs[i].cache_bytes = o->attr->cache.size;
		o->userdata = (void *)(long)(i + 1);
	}
	for (hwloc_obj_t c = o->first_child; c; c = c->next_sibling) {
		enum topo_err e = flatten(t, c, i, cores_at);

		if (e != TOPO_OK)
			return e;
	}
	return TOPO_OK;
}

/* The object of the CPU tree that o hangs from: flatten() marked those. */
static int tree_index(hwloc_obj_t o)
{
	while (o && !o->userdata)
		o = o->parent;
	return o ? (int)(long)o->userdata - 1 : TOPO_NONE;
}

static enum topo_err flatten_numa(struct topology *t, hwloc_topology_t h)
{
	int n = hw.nbobjs_by_depth(h, HWLOC_TYPE_DEPTH_NUMANODE);

	for (int i = 0; i < n; i++) {
		hwloc_obj_t node =
		    hw.obj_by_depth(h, HWLOC_TYPE_DEPTH_NUMANODE, (unsigned)i);
		int at = tree_index(node->parent), k;

		if (at == TOPO_NONE ||
		    (k = tree_add_numa(t, at, node->os_index)) < 0)
			return TOPO_E_NOMEM;
		t->numa[k].bytes = node->attr->numanode.local_memory;
		snprintf(t->numa[k].kind, sizeof(t->numa[k].kind), "%s",
			 node->subtype ? node->subtype : "");
	}
	return TOPO_OK;
}

/* The NUMA latency matrix, when hwloc has one covering every node. */
static enum topo_err copy_distances(struct topology *t, hwloc_topology_t h)
{
	struct hwloc_distances_s *d = NULL;
	unsigned nr = 1, n = t->nnuma, *m;
	enum topo_err e = TOPO_OK;

	if (hw.distances_get_by_type(h, HWLOC_OBJ_NUMANODE, &nr, &d,
				     HWLOC_DISTANCES_KIND_MEANS_LATENCY,
				     0) < 0 ||
	    !nr || !d)
		return TOPO_OK;
	if (d->nbobjs == n && n && (m = calloc((size_t)n * n, sizeof(*m)))) {
		/* By logical index, which is our order of the nodes. */
		for (unsigned i = 0; i < n; i++)
			for (unsigned j = 0; j < n; j++) {
				unsigned a = d->objs[i]->logical_index,
					 b = d->objs[j]->logical_index;
				hwloc_uint64_t v = d->values[i * n + j];

				if (a < n && b < n)
					m[a * n + b] = v > UINT_MAX
							   ? UINT_MAX
							   : (unsigned)v;
			}
		if (tree_set_distances(t, m) < 0)
			e = TOPO_E_NOMEM;
		free(m);
	} else if (d->nbobjs == n && n) {
		e = TOPO_E_NOMEM;
	}
	hw.distances_release(h, d);
	return e;
}

static enum topo_dev_type dev_type(hwloc_obj_t o)
{
	if (o->type == HWLOC_OBJ_PCI_DEVICE)
		return TOPO_DEV_PCI;
	switch (o->attr->osdev.type) {
	case HWLOC_OBJ_OSDEV_BLOCK:
		return TOPO_DEV_BLOCK;
	case HWLOC_OBJ_OSDEV_GPU:
		return TOPO_DEV_GPU;
	case HWLOC_OBJ_OSDEV_NETWORK:
		return TOPO_DEV_NETWORK;
	case HWLOC_OBJ_OSDEV_OPENFABRICS:
		return TOPO_DEV_OPENFABRICS;
	case HWLOC_OBJ_OSDEV_DMA:
		return TOPO_DEV_DMA;
	case HWLOC_OBJ_OSDEV_COPROC:
		return TOPO_DEV_COPROC;
	}
	return TOPO_DEV_OTHER;
}

/* Write a PCI device's bus id as hwloc does: "0000:3b:00.0". */
static void busid(char *buf, size_t size, hwloc_obj_t pci)
{
	snprintf(buf, size, "%04x:%02x:%02x.%01x",
		 (unsigned)pci->attr->pcidev.domain, pci->attr->pcidev.bus,
		 pci->attr->pcidev.dev, pci->attr->pcidev.func);
}

/* Copy one I/O object; bus is an OS device's PCI bus id. */
static int add_dev(struct topology *t, hwloc_obj_t o, int attach, int pci,
		   const char *bus)
{
	struct topo_dev d = {
		.type = dev_type(o),
		.attach = attach,
		.pci = pci,
	};

	if (o->type == HWLOC_OBJ_PCI_DEVICE) {
		busid(d.busid, sizeof(d.busid), o);
		d.pci_class = o->attr->pcidev.class_id;
	} else {
		snprintf(d.busid, sizeof(d.busid), "%s", bus);
		snprintf(d.name, sizeof(d.name), "%s", o->name ? o->name : "");
	}
	snprintf(d.subtype, sizeof(d.subtype), "%s",
		 o->subtype ? o->subtype : "");
	for (unsigned i = 0; i < o->infos_count; i++)
		if (!strcmp(o->infos[i].name, "NVIDIAUUID") ||
		    !strcmp(o->infos[i].name, "AMDUUID") ||
		    !strcmp(o->infos[i].name, "LevelZeroUUID"))
			snprintf(d.uuid, sizeof(d.uuid), "%s",
				 o->infos[i].value);
	return tree_add_dev(t, &d);
}

/* The I/O devices: every PCI device, each followed by its OS devices,
 * then the OS devices below no PCI device. Each is local to the object of
 * the CPU tree it hangs from, through bridges and PCI devices. */
static enum topo_err flatten_devices(struct topology *t, hwloc_topology_t h)
{
	int npci = hw.nbobjs_by_depth(h, HWLOC_TYPE_DEPTH_PCI_DEVICE);
	int nos = hw.nbobjs_by_depth(h, HWLOC_TYPE_DEPTH_OS_DEVICE);

	for (int i = 0; i < npci; i++) {
		hwloc_obj_t p = hw.obj_by_depth(h, HWLOC_TYPE_DEPTH_PCI_DEVICE,
						(unsigned)i);
		int k = add_dev(t, p, tree_index(p->parent), TOPO_NONE, "");

		if (k < 0)
			return TOPO_E_NOMEM;
		for (hwloc_obj_t c = p->io_first_child; c; c = c->next_sibling)
			if (c->type == HWLOC_OBJ_OS_DEVICE &&
			    add_dev(t, c, t->devs[k].attach, k,
				    t->devs[k].busid) < 0)
				return TOPO_E_NOMEM;
	}
	for (int i = 0; i < nos; i++) {
		hwloc_obj_t o =
		    hw.obj_by_depth(h, HWLOC_TYPE_DEPTH_OS_DEVICE, (unsigned)i);

		if ((!o->parent || o->parent->type != HWLOC_OBJ_PCI_DEVICE) &&
		    add_dev(t, o, tree_index(o->parent), TOPO_NONE, "") < 0)
			return TOPO_E_NOMEM;
	}
	t->devices = true;
	return TOPO_OK;
}

/* After tree_finish, which indexes PUs by CPU number. */
static void copy_kinds(struct topology *t, hwloc_topology_t h)
{
	int nr = hw.cpukinds_get_nr(h, 0);
	hwloc_bitmap_t set;

	if (nr <= 1 || !(set = hw.bitmap_alloc()))
		return;
	/* hwloc orders kinds from the least to the most powerful. */
	for (int k = 0; k < nr; k++) {
		int pu;

		if (hw.cpukinds_get_info(h, (unsigned)k, set, NULL, NULL, NULL,
					 0) < 0)
			continue;
		FOR_EACH_BIT(pu, set)
		{
			if ((unsigned)pu < t->pu_by_os_len &&
			    t->pu_by_os[pu] != TOPO_NONE)
				tree_set_kind(t, t->pus[t->pu_by_os[pu]], k);
		}
	}
	hw.bitmap_free(set);
}

/* hwloc takes some settings only from the environment: they are set around
 * the load and each put back as it was, so the command gets the user's
 * environment. */
struct env_override {
	const char *name, *value;
	char *saved;
};

static void env_push(struct env_override *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *old = getenv(v[i].name);

		v[i].saved = old ? strdup(old) : NULL;
		setenv(v[i].name, v[i].value, 1);
	}
}

static void env_pop(struct env_override *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (v[i].saved)
			setenv(v[i].name, v[i].saved, 1);
		else
			unsetenv(v[i].name);
		free(v[i].saved);
	}
}

/* hwloc would spend hours building "pack:99999999 pu:99999999", and
 * inserting siblings costs it the cube of their number (4096 PUs under one
 * object: 3 s; 8192: 20 s): count what a synthetic description makes
 * before handing it over, reading it as hwloc 2.x's parser does. A level
 * is a bare count, or a type whose count follows the next ':' wherever it
 * is; a count is strtoul's, base 0 ("0x100", "010"), and the next level
 * starts where it ends, even with no space ("pack:2pu:4"); "(attributes)"
 * and "[memory levels]" make no PU. Anything hwloc would refuse may be
 * counted too: the bound only has to be high enough (TOPO_MAX_ARITY). */

/* Whether the "indexes=" list in the attributes [p, close) names only
 * CPUs below CPULIST_MAX: hwloc allocates sets as large as the largest
 * (gigabytes for "indexes=0,77777777777"). */
static bool indexes_small(const char *p, const char *close)
{
	const char *list = strstr(p, "indexes=");

	if (!list || list > close)
		return true;
	for (p = list + 8; p < close; p++)
		if (*p >= '0' && *p <= '9') {
			unsigned long n;
			size_t len;

			if (num_decimal(p, NUM_TO_NUL, 0, CPULIST_MAX - 1, &n,
					&len) != NUM_OK)
				return false;
			p += len - 1;
		}
	return true;
}

unsigned long long topo_synthetic_pus(const char *desc)
{
	unsigned long long pus = 1;
	const char *p = desc;

	while (*p) {
		unsigned long long n;
		const char *close;
		char *end;

		if (*p == ' ' || (*p >= '\t' && *p <= '\r')) {
			p++;
			continue;
		}
		if (*p == '[' || *p == '(') {
			close = strchr(p, *p == '[' ? ']' : ')');
			if (!close)
				break; /* hwloc refuses it */
			if (!indexes_small(p, close))
				return ULLONG_MAX;
			p = close + 1;
			continue;
		}
		if (*p < '0' || *p > '9') {
			if (!(close = strchr(p, ':')))
				break; /* a type without a count: refused */
			p = close + 1;
		}
		errno = 0;
		n = strtoull(p, &end, 0);
		if (end == p)
			break; /* no count: refused */
		if (errno || n > TOPO_MAX_ARITY)
			return ULLONG_MAX;
		if (n && pus > CPULIST_MAX / n)
			return ULLONG_MAX;
		pus *= n ? n : 1;
		p = end;
	}
	return pus;
}

static bool synthetic_too_big(const char *desc)
{
	return topo_synthetic_pus(desc) > CPULIST_MAX;
}

const char *topo_env_source(void)
{
	/* hwloc's own precedence among its overrides. */
	static const char *const vars[] = { "HWLOC_FSROOT", "HWLOC_SYNTHETIC",
					    "HWLOC_XMLFILE" };

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		if (v && *v && !(i == 0 && !strcmp(v, "/")))
			return vars[i];
	}
	return NULL;
}

static bool env_source_usable(const char *var)
{
	const char *v = getenv(var);
	char path[4096];
	struct stat st;

	if (!strcmp(var, "HWLOC_FSROOT")) {
		snprintf(path, sizeof(path), "%s/sys/devices/system/cpu", v);
		return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	}
	if (!strcmp(var, "HWLOC_SYNTHETIC"))
		return !synthetic_too_big(v);
	return access(v, R_OK) == 0 && stat(v, &st) == 0 && S_ISREG(st.st_mode);
}

/* Did hwloc load what the variable names? */
static bool loaded_from(const char *var, hwloc_topology_t h, bool this_system)
{
	hwloc_obj_t root = hw.obj_by_depth(h, 0, 0);
	const char *backend = "";

	for (unsigned i = 0; i < root->infos_count; i++)
		if (!strcmp(root->infos[i].name, "Backend"))
			backend = root->infos[i].value;
	if (!strcmp(var, "HWLOC_SYNTHETIC"))
		return !strcmp(backend, "Synthetic");
	if (!strcmp(var, "HWLOC_FSROOT"))
		return !strcmp(backend, "Linux");
	/* An XML export keeps the backend it came from: only a fallback to
	 * this machine shows, unless HWLOC_THISSYSTEM hides it. */
	return !this_system || getenv("HWLOC_THISSYSTEM");
}

static int quiet_stderr(void)
{
	int saved = fcntl(2, F_DUPFD_CLOEXEC, 3);
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

	fflush(stderr);
	if (saved >= 0 && null >= 0)
		dup2(null, 2);
	if (null >= 0)
		close(null);
	return saved;
}

static void restore_stderr(int saved)
{
	if (saved < 0)
		return;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
}

/* Point hwloc at the source. */
static enum topo_err set_source(hwloc_topology_t h, enum topo_source_kind kind,
				const char *arg, int *sys)
{
	struct stat st;

	switch (kind) {
	case TOPO_SRC_LIVE:
	case TOPO_SRC_FSROOT: /* the environment does it */
		return TOPO_OK;
	case TOPO_SRC_XML:
		if (access(arg, R_OK) < 0) {
			*sys = errno;
			return TOPO_E_SYSTEM;
		}
		/* A FIFO or a device would keep hwloc reading forever. */
		if (stat(arg, &st) < 0 || !S_ISREG(st.st_mode))
			return TOPO_E_INVALID;
		return hw.set_xml(h, arg) < 0 ? TOPO_E_INVALID : TOPO_OK;
	case TOPO_SRC_SYNTHETIC:
		if (synthetic_too_big(arg))
			return TOPO_E_TOO_LARGE;
		return hw.set_synthetic(h, arg) < 0 ? TOPO_E_INVALID : TOPO_OK;
	case TOPO_SRC_NKINDS: /* a count, never a source */
		break;
	}
	return TOPO_E_INVALID;
}

static void describe(struct topology *t, enum topo_source_kind kind)
{
	static const char *const names[] = {
		[TOPO_SRC_LIVE] = "this machine",
		[TOPO_SRC_XML] = "XML file",
		[TOPO_SRC_SYNTHETIC] = "synthetic description",
		[TOPO_SRC_FSROOT] = "saved sysfs tree",
	};
	_Static_assert(sizeof(names) / sizeof(names[0]) == TOPO_SRC_NKINDS,
		       "a name for every topology source");
	const char *env = NULL;

	if (kind == TOPO_SRC_LIVE && !t->this_system)
		env = topo_env_source();
	snprintf(t->source, sizeof(t->source), "%s", env ? env : names[kind]);
}

int topo_load(enum topo_source_kind kind, const char *arg, bool devices,
	      struct topology **out, struct topo_error *err)
{
	/* No plugins: hwloc's own XML reader is faster than libxml2's, and
	 * its linux component finds PCI and OS devices by itself (the pci,
	 * opencl and gl plugins add nothing an XML export does not carry).
	 * Loading them costs more than the rest of a small machine's load. */
	struct env_override env[] = {
		{ "HWLOC_PLUGINS_PATH", "/nonexistent", NULL },
		{ "HWLOC_HIDE_ERRORS", "2", NULL }, /* pinrun words errors */
		{ "HWLOC_FSROOT", arg, NULL },
		{ "HWLOC_COMPONENTS", "linux,stop", NULL },
		{ "HWLOC_DUMPED_HWDATA_DIR", "/nonexistent", NULL },
	};
	size_t nenv = kind == TOPO_SRC_FSROOT ? 5 : 2;
	const char *env_var = kind == TOPO_SRC_LIVE ? topo_env_source() : NULL;
	hwloc_topology_t h;
	hwloc_obj_t root;
	struct topology *t = NULL;
	struct stat st;
	char path[4096];
	enum hwloc_type_filter_e io;
	enum topo_err e;
	int pu, sys = 0, saved_stderr;

	*out = NULL;
	if (kind == TOPO_SRC_FSROOT) {
		snprintf(path, sizeof(path), "%s/sys/devices/system/cpu", arg);
		if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
			return topo_fail(err, TOPO_E_INVALID, 0);
	}
	if (env_var && !env_source_usable(env_var))
		return topo_fail(err, TOPO_E_ENV, 0);
	if (open_hwloc() < 0)
		return topo_fail(err, TOPO_E_LIBRARY, ELIBACC);
	env_push(env, nenv);
	/* Some of hwloc's messages ignore HWLOC_HIDE_ERRORS (its x86 backend
	 * under Valgrind): pinrun words errors itself, so hwloc's stderr goes
	 * nowhere while it loads. */
	saved_stderr = quiet_stderr();
	if (hw.topology_init(&h) < 0) {
		restore_stderr(saved_stderr);
		env_pop(env, nenv);
		return topo_fail(err, TOPO_E_NOMEM, 0);
	}
	/* I/O objects only when asked for: on this machine, finding them
	 * reads every PCI device's config space, which a virtual machine
	 * answers slowly (docs/launch.md). KEEP_IMPORTANT is what
	 * hwloc-calc and hwloc-bind keep. */
	io = devices ? HWLOC_TYPE_FILTER_KEEP_IMPORTANT
		     : HWLOC_TYPE_FILTER_KEEP_NONE;
	hw.set_type_filter(h, HWLOC_OBJ_BRIDGE, io);
	hw.set_type_filter(h, HWLOC_OBJ_PCI_DEVICE, io);
	hw.set_type_filter(h, HWLOC_OBJ_OS_DEVICE, io);
	e = set_source(h, kind, arg, &sys);
	if (e == TOPO_OK && hw.topology_load(h) < 0)
		e = TOPO_E_INVALID;
	restore_stderr(saved_stderr);
	env_pop(env, nenv);
	if (e != TOPO_OK)
		goto destroy;
	e = TOPO_E_NOMEM;
	t = tree_new("");
	root = hw.obj_by_depth(h, 0, 0);
	if (!t || (e = flatten(t, root, TOPO_NONE, core_depth(root))) ||
	    (e = flatten_numa(t, h)) || (e = copy_distances(t, h)) ||
	    (devices && (e = flatten_devices(t, h))))
		goto destroy;
	FOR_EACH_BIT(pu, hw.complete_cpuset(h))
	{
		cpulist_add(&t->complete, (unsigned)pu);
	}
	if ((e = tree_finish(t)) != TOPO_OK)
		goto destroy;
	copy_kinds(t, h);
	t->this_system = kind == TOPO_SRC_LIVE && hw.is_thissystem(h);
	/* hwloc falls back to this machine, silently, when it cannot use
	 * the source a variable names. */
	if (env_var && !loaded_from(env_var, h, t->this_system)) {
		e = TOPO_E_ENV;
		goto destroy;
	}
	describe(t, kind);
	snprintf(t->hwloc_version, sizeof(t->hwloc_version), "%s",
		 HWLOC_VERSION);
	library_identity(t->hwloc_library, sizeof(t->hwloc_library));
	*out = t;
	t = NULL;
destroy:
	tree_free(t);
	hw.topology_destroy(h);
	return e == TOPO_OK ? 0 : topo_fail(err, e, sys);
}

int topo_library_id(char *buf, size_t size)
{
	const char *ld_path = getenv("LD_LIBRARY_PATH");
	int r;

	/* Without opening it (that is the cost the cache saves): which
	 * library dlopen would look for, and what changes where it looks.
	 * topo_library_same then checks the file itself. */
	r = snprintf(buf, size, "hwloc %s %s ld %s", HWLOC_VERSION,
		     HWLOC_LIBRARY, ld_path ? ld_path : "-");
	return r < 0 || (size_t)r >= size ? -ENOSPC : 0;
}

bool topo_library_same(const char *recorded)
{
	unsigned long long ino;
	long long mtime;
	int at = 0;
	struct stat st;

	return sscanf(recorded, "%llu %lld %n", &ino, &mtime, &at) == 2 &&
	       at > 0 && stat(recorded + at, &st) == 0 &&
	       (unsigned long long)st.st_ino == ino &&
	       (long long)st.st_mtime == mtime;
}
