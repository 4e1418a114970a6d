/*
 * topology.c: the only user of hwloc. It loads a topology (the running
 * machine, or a saved one for planning) with the same filters as the hwloc
 * tools, copies what the placement rules need into the flat form of
 * topotree.h, and lets hwloc go. It binds nothing and decides nothing.
 */
#include <errno.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "topology.h"

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

/* Copy the CPU tree depth-first; remember each object's index in userdata
 * so NUMA nodes can find where they are attached. */
static int flatten(struct topology *t, hwloc_obj_t o, int parent)
{
	int i = tree_add(t, map_type(o), parent, o->depth, o->os_index);

	if (i < 0)
		return i;
	o->userdata = (void *)(long)(i + 1);
	for (hwloc_obj_t c = o->first_child; c; c = c->next_sibling) {
		int r = flatten(t, c, i);

		if (r < 0)
			return r;
	}
	return 0;
}

static int flatten_numa(struct topology *t, hwloc_topology_t h)
{
	int n = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_NUMANODE);

	for (int i = 0; i < n; i++) {
		hwloc_obj_t node =
		    hwloc_get_obj_by_type(h, HWLOC_OBJ_NUMANODE, (unsigned)i);
		hwloc_obj_t at = node->parent;

		while (at && !at->userdata)
			at = at->parent;
		if (!at || tree_add_numa(t, (int)(long)at->userdata - 1,
					 node->os_index) < 0)
			return -ENOMEM;
	}
	return 0;
}

static void copy_kinds(struct topology *t, hwloc_topology_t h)
{
	int nr = hwloc_cpukinds_get_nr(h, 0);
	hwloc_bitmap_t set;

	if (nr <= 1 || !(set = hwloc_bitmap_alloc()))
		return;
	/* hwloc orders kinds from the least to the most powerful. */
	for (int k = 0; k < nr; k++) {
		int pu;

		if (hwloc_cpukinds_get_info(h, (unsigned)k, set, NULL, NULL,
					    NULL, 0) < 0)
			continue;
		hwloc_bitmap_foreach_begin (pu, set) {
			hwloc_obj_t o =
			    hwloc_get_pu_obj_by_os_index(h, (unsigned)pu);

			if (o && o->userdata)
				tree_set_kind(t, (int)(long)o->userdata - 1, k);
		}
		hwloc_bitmap_foreach_end();
	}
	hwloc_bitmap_free(set);
}

/* For a sysfs tree hwloc only has environment variables: they are set for
 * the load and put back as they were afterwards (pinrun runs no command on
 * such a topology anyway). */
static const char *const fsroot_vars[] = { "HWLOC_FSROOT", "HWLOC_COMPONENTS",
					   "HWLOC_DUMPED_HWDATA_DIR" };
#define NVARS (sizeof(fsroot_vars) / sizeof(fsroot_vars[0]))

static void swap_env(char *saved[NVARS], const char *const values[NVARS])
{
	for (size_t i = 0; i < NVARS; i++) {
		const char *old = getenv(fsroot_vars[i]);
		char *keep = old ? strdup(old) : NULL;

		if (values[i])
			setenv(fsroot_vars[i], values[i], 1);
		else
			unsetenv(fsroot_vars[i]);
		free(saved[i]);
		saved[i] = keep;
	}
}

/* Point hwloc at the source. */
static int set_source(hwloc_topology_t h, enum topo_source_kind kind,
		      const char *arg, char *saved[NVARS])
{
	struct stat st;
	char path[4096];

	switch (kind) {
	case TOPO_SRC_LIVE:
		return 0;
	case TOPO_SRC_XML:
		if (access(arg, R_OK) < 0)
			return -errno;
		return hwloc_topology_set_xml(h, arg) < 0 ? -EINVAL : 0;
	case TOPO_SRC_SYNTHETIC:
		return hwloc_topology_set_synthetic(h, arg) < 0 ? -EINVAL : 0;
	case TOPO_SRC_FSROOT:
		snprintf(path, sizeof(path), "%s/sys/devices/system/cpu", arg);
		if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
			return -EINVAL;
		swap_env(saved, (const char *const[NVARS]){ arg, "linux,stop",
							    "/nonexistent" });
		return 0;
	}
	return -EINVAL;
}

static void describe(struct topology *t, enum topo_source_kind kind)
{
	static const char *const names[] = {
		[TOPO_SRC_LIVE] = "this machine",
		[TOPO_SRC_XML] = "XML file",
		[TOPO_SRC_SYNTHETIC] = "synthetic description",
		[TOPO_SRC_FSROOT] = "saved sysfs tree",
	};
	const char *env = NULL;

	if (kind == TOPO_SRC_LIVE && !t->this_system) {
		/* hwloc's own precedence among its overrides. */
		if (getenv("HWLOC_FSROOT"))
			env = "HWLOC_FSROOT";
		else if (getenv("HWLOC_SYNTHETIC"))
			env = "HWLOC_SYNTHETIC";
		else
			env = "HWLOC_XMLFILE";
	}
	snprintf(t->source, sizeof(t->source), "%s", env ? env : names[kind]);
}

int topo_load(enum topo_source_kind kind, const char *arg,
	      struct topology **out)
{
	hwloc_topology_t h;
	struct topology *t = NULL;
	char *saved[NVARS] = { NULL };
	int pu, err;

	*out = NULL;
	if (hwloc_topology_init(&h) < 0)
		return -ENOMEM;
	hwloc_topology_set_io_types_filter(h, HWLOC_TYPE_FILTER_KEEP_NONE);
	err = set_source(h, kind, arg, saved);
	if (err == 0 && hwloc_topology_load(h) < 0)
		err = -EINVAL;
	if (kind == TOPO_SRC_FSROOT) {
		swap_env(saved, (const char *const *)saved);
		for (size_t i = 0; i < NVARS; i++)
			free(saved[i]);
	}
	if (err)
		goto destroy;
	err = -ENOMEM;
	t = tree_new("");
	if (!t || flatten(t, hwloc_get_root_obj(h), TOPO_NONE) < 0 ||
	    flatten_numa(t, h) < 0)
		goto destroy;
	copy_kinds(t, h);
	hwloc_bitmap_foreach_begin (pu, hwloc_topology_get_complete_cpuset(h)) {
		cpulist_add(&t->complete, (unsigned)pu);
	}
	hwloc_bitmap_foreach_end();
	if (tree_finish(t) < 0)
		goto destroy;
	t->this_system =
	    kind == TOPO_SRC_LIVE && hwloc_topology_is_thissystem(h);
	describe(t, kind);
	snprintf(t->hwloc_version, sizeof(t->hwloc_version), "%s",
		 HWLOC_VERSION);
	*out = t;
	t = NULL;
	err = 0;
destroy:
	tree_free(t);
	hwloc_topology_destroy(h);
	return err;
}
