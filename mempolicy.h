/* SPDX-License-Identifier: BSD-3-Clause */
/* --mem's modes: a leaf header, so that the options (options.h) and
 * --emit (emit.h, pure) name a mode without the kernel's interface
 * (host.h), whose one table (host.c) words them and maps them to the
 * kernel's. */
#ifndef PINRUN_MEMPOLICY_H
#define PINRUN_MEMPOLICY_H

/* In the order messages list them. */
enum host_mempolicy {
	HOST_MEM_BIND,
	HOST_MEM_INTERLEAVE,
	HOST_MEM_PREFERRED,
	HOST_MEM_LOCAL,
	HOST_MEM_MODES /* how many there are */
};

#endif
