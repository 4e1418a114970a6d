/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for the two byte formats: topofile.c (the cache file and the
 * loader's answer) and json.c, and the buffer both write into (buf.c). */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "check.h"
#include "json.h"
#include "topofile.h"

TEST(topofile_round_trip)
{
	struct topology *t = build_machine(2, 2, 3, 2, true), *back = NULL;
	void *buf;
	size_t len;

	tree_set_kind(t, t->pus[0], 1);
	/* objs[2] is package:0's first L3: a size beyond 32 bits. */
	t->objs[2].cache_bytes = 5ULL << 32 | 12345;
	EXPECT(topofile_encode("key", t, &buf, &len) == TOPOFILE_OK);
	EXPECT(topofile_decode(buf, len, "key", &back) == TOPOFILE_OK);
	EXPECT(back && back->nobjs == t->nobjs && back->npus == t->npus &&
	       back->nnuma == t->nnuma);
	EXPECT(back && cpulist_equal(&back->usable, &t->usable));
	EXPECT(back && back->objs[back->pus[0]].kind == 1);
	EXPECT(back && back->objs[2].type == TOPO_L3 &&
	       back->objs[2].cache_bytes == (5ULL << 32 | 12345));
	EXPECT(back && back->objs[3].cache_bytes == 0);
	tree_free(back);
	free(buf);
	tree_free(t);
}

/* A size on an object that is no cache is no topology pinrun wrote. */
TEST(topofile_refuses_a_size_off_a_cache)
{
	struct topology *t = build_machine(1, 1, 2, 1, false), *back = NULL;
	void *buf;
	size_t len;

	EXPECT(t->objs[3].type == TOPO_CORE);
	t->objs[3].cache_bytes = 1;
	EXPECT(topofile_encode("key", t, &buf, &len) == TOPOFILE_OK);
	EXPECT(topofile_decode(buf, len, "key", &back) == TOPOFILE_CORRUPT);
	EXPECT(back == NULL);
	free(buf);
	tree_free(t);
}

/* Another format's bytes are stale, never read as this one's: the version
 * follows the 8-byte magic, and the checksum ends the bytes. */
TEST(topofile_another_version_is_stale)
{
	struct topology *t = build_machine(1, 1, 2, 1, false), *back = NULL;
	unsigned char *buf;
	void *raw;
	size_t len;
	uint32_t version;
	uint64_t sum;

	EXPECT(topofile_encode("key", t, &raw, &len) == TOPOFILE_OK);
	buf = raw;
	memcpy(&version, buf + 8, sizeof(version));
	EXPECT(version == 5);
	version = 4; /* before cache sizes */
	memcpy(buf + 8, &version, sizeof(version));
	sum = topofile_checksum(buf, len - sizeof(sum));
	memcpy(buf + len - sizeof(sum), &sum, sizeof(sum));
	EXPECT(topofile_decode(buf, len, "key", &back) == TOPOFILE_STALE);
	EXPECT(back == NULL);
	free(raw);
	tree_free(t);
}

TEST(topofile_refuses)
{
	struct topology *t = build_machine(1, 1, 2, 1, false), *back = NULL;
	unsigned char *buf;
	void *raw;
	size_t len;

	EXPECT(topofile_encode("key", t, &raw, &len) == TOPOFILE_OK);
	buf = raw;
	EXPECT(topofile_decode(buf, len, "other", &back) == TOPOFILE_STALE);
	EXPECT(topofile_decode(buf, len - 1, "key", &back) == TOPOFILE_CORRUPT);
	EXPECT(topofile_decode(buf, 3, "key", &back) == TOPOFILE_CORRUPT);
	buf[len / 2] ^= 0x55;
	EXPECT(topofile_decode(buf, len, "key", &back) == TOPOFILE_CORRUPT);
	EXPECT(back == NULL);
	free(raw);
	tree_free(t);
}

TEST(json_writer)
{
	struct json j = { 0 };

	json_open(&j, '{');
	json_key(&j, "a");
	json_int(&j, -3);
	json_key(&j, "b\"");
	json_open(&j, '[');
	json_string(&j, "x\n\\");
	json_null(&j);
	json_open(&j, '{');
	json_close(&j, '}');
	json_bool(&j, true);
	json_close(&j, ']');
	json_key(&j, "c");
	json_number(&j, 1.5, 2);
	json_close(&j, '}');
	EXPECT(!strcmp(json_text(&j), "{\"a\":-3,\"b\\\"\":[\"x\\u000a\\\\\","
				      "null,{},true],\"c\":1.50}"));
	json_reset(&j);
	json_open(&j, '[');
	json_close(&j, ']');
	EXPECT(!strcmp(json_text(&j), "[]"));
	/* Bytes that are not UTF-8 (a lone 0xff, a cut sequence, an overlong
	 * '/', a surrogate) as Python's surrogateescape writes them; valid
	 * UTF-8 (2, 3 and 4 bytes) as it is. */
	json_reset(&j);
	json_string(&j, "a\xff"
			"b\xc3(\xc0\xaf\xed\xa0\x80 \xc3\xa9\xe2\x82\xac"
			"\xf0\x9f\x98\x80");
	EXPECT(!strcmp(json_text(&j),
		       "\"a\\udcff"
		       "b\\udcc3(\\udcc0\\udcaf"
		       "\\udced\\udca0\\udc80 \xc3\xa9\xe2\x82\xac"
		       "\xf0\x9f\x98\x80\""));
	json_free(&j);
}

TEST(buf_grows)
{
	struct buf b = { 0 };
	char want[1000];

	/* One byte at a time across every doubling: the bytes in order,
	 * always NUL-terminated, the room asked for always there. */
	for (unsigned i = 0; i < sizeof(want); i++) {
		want[i] = (char)('a' + i % 26);
		buf_add(&b, &want[i], 1);
		EXPECT(b.len == i + 1 && b.data[b.len] == '\0');
	}
	EXPECT(!b.failed && !memcmp(b.data, want, sizeof(want)));
	EXPECT(buf_reserve(&b, 5000) && b.cap >= b.len + 5000 + 1);
	EXPECT(b.len == sizeof(want));
	buf_add(&b, "", 0);
	EXPECT(b.len == sizeof(want) && b.data[b.len] == '\0');
	/* Once failed, nothing more goes in. */
	b.failed = true;
	buf_add(&b, "x", 1);
	EXPECT(b.len == sizeof(want) && !buf_reserve(&b, 1));
	buf_free(&b);
	EXPECT(!b.data && !b.len && !b.cap && !b.failed);
}

int main(void)
{
	RUN(buf_grows);
	RUN(topofile_round_trip);
	RUN(topofile_refuses);
	RUN(topofile_refuses_a_size_off_a_cache);
	RUN(topofile_another_version_is_stale);
	RUN(json_writer);
	return DONE();
}
