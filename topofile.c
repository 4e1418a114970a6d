/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * topofile.c: the flattened topology as bytes, both ways. The cache stores
 * these bytes in a file and the isolated loader writes them on a pipe;
 * neither is this file's business. Decoding trusts nothing: the checksum,
 * the key and every index are checked, and the tree is rebuilt through
 * topotree.c's builder, which refuses what no machine has.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "topofile.h"

/* Bump when the layout below changes. 3: NUMA memory, kind and
 * distances; I/O devices. 4: GPU UUIDs. 5: cache sizes. */
#define FORMAT 5
static const char magic[8] = { 'p', 'i', 'n', 'r', 'u', 'n', 'T', '\n' };

uint64_t topofile_checksum(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t h = 14695981039346656037ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 1099511628211ULL;
	return h;
}

/* --- writing ------------------------------------------------------------ */

/* Fixed-width fields in the host's byte order, and the set complete as
 * the host's words: only the build that wrote the bytes reads them (the
 * loader is its child; the cache's key names the build). */

static void put32(struct buf *w, uint32_t v)
{
	buf_add(w, &v, sizeof(v));
}

static void put64(struct buf *w, uint64_t v)
{
	buf_add(w, &v, sizeof(v));
}

static void put_string(struct buf *w, const char *s)
{
	put32(w, (uint32_t)strlen(s));
	buf_add(w, s, strlen(s));
}

static void put_devices(struct buf *w, const struct topology *t)
{
	put32(w, t->devices);
	put32(w, t->ndevs);
	for (unsigned i = 0; i < t->ndevs; i++) {
		const struct topo_dev *d = &t->devs[i];

		put32(w, d->type);
		put32(w, (uint32_t)d->attach);
		put32(w, (uint32_t)d->pci);
		put32(w, d->pci_class);
		put_string(w, d->busid);
		put_string(w, d->name);
		put_string(w, d->subtype);
		put_string(w, d->uuid);
	}
}

enum topofile_err topofile_encode(const char *key, const struct topology *t,
				  void **buf, size_t *len)
{
	struct buf w = { 0 };
	uint64_t sum;

	buf_add(&w, magic, sizeof(magic));
	put32(&w, FORMAT);
	put_string(&w, key);
	put32(&w, t->nobjs);
	for (unsigned i = 0; i < t->nobjs; i++) {
		const struct topo_obj *o = &t->objs[i];

		put32(&w, o->type);
		put32(&w, o->depth);
		put32(&w, o->os);
		put32(&w, (uint32_t)o->parent);
		put32(&w, (uint32_t)o->kind);
		put64(&w, o->cache_bytes);
	}
	put32(&w, t->nnuma);
	for (unsigned i = 0; i < t->nnuma; i++) {
		put32(&w, t->numa[i].os);
		put32(&w, (uint32_t)t->numa[i].attach);
		put64(&w, t->numa[i].bytes);
		put_string(&w, t->numa[i].kind);
	}
	put32(&w, t->distances != NULL);
	for (unsigned i = 0; t->distances && i < t->nnuma * t->nnuma; i++)
		put32(&w, t->distances[i]);
	put_devices(&w, t);
	buf_add(&w, &t->complete, sizeof(t->complete));
	put32(&w, t->this_system);
	put_string(&w, t->source);
	put_string(&w, t->hwloc_version);
	put_string(&w, t->hwloc_library);
	sum = topofile_checksum(w.data, w.len);
	buf_add(&w, &sum, sizeof(sum));
	if (w.failed) {
		free(w.data);
		return TOPOFILE_NOMEM;
	}
	*buf = w.data;
	*len = w.len;
	return TOPOFILE_OK;
}

/* --- reading ------------------------------------------------------------ */

struct reader {
	const unsigned char *p, *end;
	bool bad;
};

static uint32_t get32(struct reader *rd)
{
	uint32_t v = 0;

	if (rd->end - rd->p < 4) {
		rd->bad = true;
		return 0;
	}
	memcpy(&v, rd->p, 4);
	rd->p += 4;
	return v;
}

static uint64_t get64(struct reader *rd)
{
	uint64_t v = 0;

	if (rd->end - rd->p < 8) {
		rd->bad = true;
		return 0;
	}
	memcpy(&v, rd->p, 8);
	rd->p += 8;
	return v;
}

static const char *get_bytes(struct reader *rd, size_t len)
{
	const char *s = (const char *)rd->p;

	if ((size_t)(rd->end - rd->p) < len) {
		rd->bad = true;
		return NULL;
	}
	rd->p += len;
	return s;
}

static void get_string(struct reader *rd, char *buf, size_t size)
{
	uint32_t len = get32(rd);
	const char *s = len < size ? get_bytes(rd, len) : NULL;

	if (!s) {
		rd->bad = true;
		buf[0] = '\0';
		return;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
}

/* One object, checked against those before it; false when it is not one
 * a tree can hold. */
static bool read_object(struct reader *rd, struct topology *t, uint32_t i,
			struct cpuset *pus)
{
	uint32_t type = get32(rd), depth = get32(rd), os = get32(rd);
	int32_t parent = (int32_t)get32(rd), kind = (int32_t)get32(rd);
	uint64_t cache_bytes = get64(rd);
	int o;

	if (rd->bad || type >= TOPO_NTYPES || type == TOPO_NUMA ||
	    (cache_bytes && !tree_type_is_cache((enum topo_type)type)) ||
	    (i == 0) != (parent == TOPO_NONE) ||
	    (i && (parent < 0 || (uint32_t)parent >= i ||
		   depth <= t->objs[parent].depth ||
		   t->objs[parent].type == TOPO_PU)) ||
	    depth > 1024 || kind < -1 || kind > 255 ||
	    (type == TOPO_PU && (os >= CPULIST_MAX || cpulist_has(pus, os))))
		return false;
	if (type == TOPO_PU)
		cpulist_add(pus, os);
	if ((o = tree_add(t, (enum topo_type)type, parent, (int)depth, os)) < 0)
		return false;
	if (kind >= 0)
		tree_set_kind(t, o, kind);
	t->objs[o].cache_bytes = cache_bytes;
	return true;
}

/* The NUMA nodes, each with its memory and kind, and their distances. */
static void read_numa(struct reader *rd, struct topology *t)
{
	uint32_t n = rd->bad ? 0 : get32(rd);
	unsigned *m;

	if (n > 1u << 16)
		rd->bad = true;
	for (uint32_t i = 0; i < n && !rd->bad; i++) {
		uint32_t os = get32(rd);
		int32_t attach = (int32_t)get32(rd);
		uint64_t bytes = get64(rd);
		int k;

		if (rd->bad || attach < 0 || (uint32_t)attach >= t->nobjs ||
		    (k = tree_add_numa(t, attach, os)) < 0) {
			rd->bad = true;
			break;
		}
		t->numa[k].bytes = bytes;
		get_string(rd, t->numa[k].kind, sizeof(t->numa[k].kind));
	}
	if (rd->bad || !get32(rd))
		return;
	if (!(m = malloc(((size_t)n * n + 1) * sizeof(*m)))) {
		rd->bad = true;
		return;
	}
	for (size_t i = 0; i < (size_t)n * n && !rd->bad; i++)
		m[i] = get32(rd);
	if (!rd->bad && tree_set_distances(t, m) < 0)
		rd->bad = true;
	free(m);
}

/* The I/O devices, each checked by the builder. */
static void read_devices(struct reader *rd, struct topology *t)
{
	uint32_t n;

	t->devices = get32(rd) != 0;
	n = rd->bad ? 0 : get32(rd);
	if (n > 1u << 20)
		rd->bad = true;
	for (uint32_t i = 0; i < n && !rd->bad; i++) {
		struct topo_dev d;
		uint32_t type = get32(rd);

		memset(&d, 0, sizeof(d));
		if (type >= TOPO_DEV_NTYPES)
			rd->bad = true;
		d.type = (enum topo_dev_type)(type % TOPO_DEV_NTYPES);
		d.attach = (int32_t)get32(rd);
		d.pci = (int32_t)get32(rd);
		d.pci_class = get32(rd);
		get_string(rd, d.busid, sizeof(d.busid));
		get_string(rd, d.name, sizeof(d.name));
		get_string(rd, d.subtype, sizeof(d.subtype));
		get_string(rd, d.uuid, sizeof(d.uuid));
		if (!rd->bad && tree_add_dev(t, &d) < 0)
			rd->bad = true;
	}
}

/* Rebuild the topology through the builder. */
static enum topofile_err decode(struct reader *rd, const char *key,
				struct topology **out)
{
	struct topology *t = tree_new("");
	struct cpuset pus;
	uint32_t n, klen = get32(rd);
	const char *k = get_bytes(rd, klen);
	enum topo_err e;

	if (!t)
		return TOPOFILE_NOMEM;
	if (!k || klen != strlen(key) || memcmp(k, key, klen)) {
		tree_free(t);
		return rd->bad ? TOPOFILE_CORRUPT : TOPOFILE_STALE;
	}
	n = get32(rd);
	if (n == 0 || n > 1u << 24)
		rd->bad = true;
	cpulist_zero(&pus);
	for (uint32_t i = 0; i < n && !rd->bad; i++)
		if (!read_object(rd, t, i, &pus))
			rd->bad = true;
	read_numa(rd, t);
	if (!rd->bad)
		read_devices(rd, t);
	if (!rd->bad) {
		const char *set = get_bytes(rd, sizeof(t->complete));

		if (set)
			memcpy(&t->complete, set, sizeof(t->complete));
	}
	t->this_system = get32(rd) != 0;
	get_string(rd, t->source, sizeof(t->source));
	get_string(rd, t->hwloc_version, sizeof(t->hwloc_version));
	get_string(rd, t->hwloc_library, sizeof(t->hwloc_library));
	if (rd->bad || rd->p != rd->end) {
		tree_free(t);
		return TOPOFILE_CORRUPT;
	}
	if ((e = tree_finish(t)) != TOPO_OK) {
		tree_free(t);
		return e == TOPO_E_NOMEM ? TOPOFILE_NOMEM : TOPOFILE_CORRUPT;
	}
	*out = t;
	return TOPOFILE_OK;
}

enum topofile_err topofile_decode(const void *data, size_t len, const char *key,
				  struct topology **out)
{
	const unsigned char *buf = data;
	struct reader rd;
	uint64_t sum;

	*out = NULL;
	if (len < sizeof(magic) + 4 + sizeof(sum))
		return TOPOFILE_CORRUPT;
	memcpy(&sum, buf + len - sizeof(sum), sizeof(sum));
	if (memcmp(buf, magic, sizeof(magic)) ||
	    sum != topofile_checksum(buf, len - sizeof(sum)))
		return TOPOFILE_CORRUPT;
	rd.p = buf + sizeof(magic);
	rd.end = buf + len - sizeof(sum);
	rd.bad = false;
	return get32(&rd) == FORMAT ? decode(&rd, key, out) : TOPOFILE_STALE;
}
