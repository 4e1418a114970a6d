/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * standalone.c: a main() standing in for libFuzzer, so that a harness
 * links with the plain compiler and no sanitizer runtime (scripts/fuzz
 * --link-check). It runs LLVMFuzzerTestOneInput once on each file named
 * on the command line, as libFuzzer runs a corpus: a broken property
 * aborts (FUZZ_CHECK), an unreadable file is exit 2.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void __sanitizer_set_report_fd(void *fd);

/* fuzz.h sends the sanitizers' reports to a copy of stderr: without a
 * sanitizer runtime there are none. */
void __sanitizer_set_report_fd(void *fd)
{
	(void)fd;
}

/* The whole of FILE in *data (malloc'd), its length in *size. */
static int slurp(const char *file, uint8_t **data, size_t *size)
{
	FILE *f = fopen(file, "rb");
	size_t cap = 4096, len = 0, got;
	uint8_t *buf = malloc(cap), *grown;

	if (!f || !buf) {
		free(buf);
		if (f)
			fclose(f);
		return -1;
	}
	while ((got = fread(buf + len, 1, cap - len, f)) > 0) {
		len += got;
		if (len < cap)
			continue;
		grown = realloc(buf, cap * 2);
		if (!grown) {
			free(buf);
			fclose(f);
			return -1;
		}
		buf = grown;
		cap *= 2;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	*data = buf;
	*size = len;
	return 0;
}

int main(int argc, char **argv)
{
	uint8_t *data;
	size_t size;

	LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		if (slurp(argv[i], &data, &size) < 0) {
			fprintf(stderr, "%s: cannot read '%s'\n", argv[0],
				argv[i]);
			return 2;
		}
		LLVMFuzzerTestOneInput(data, size);
		free(data);
	}
	return 0;
}
