/* SPDX-License-Identifier: BSD-3-Clause */
/* envp.c: a variable of an environment handed as an array (envp.h). Pure:
 * no system call. */
#include <string.h>

#include "envp.h"

const char *envp_get(char *const *envp, const char *name)
{
	size_t len = strlen(name);

	for (; envp && *envp; envp++)
		if (!strncmp(*envp, name, len) && (*envp)[len] == '=')
			return *envp + len + 1;
	return NULL;
}
