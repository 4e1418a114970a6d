/* SPDX-License-Identifier: BSD-3-Clause */
/* What a program gives the credentials of the caller when it exec's it,
 * as the kernel decides: a set-user-ID or set-group-ID file (group
 * execute set) owned by another user or group than the caller's real
 * ones, or file capabilities beyond the caller's permitted set; nothing on
 * a nosuid mount, nor for a "#!" script. host.c finds it (host_exec_gain);
 * the tracer words it (follow_why_of_gain): a header of its own, so that
 * follow.h needs none of host.h. */
#ifndef PINRUN_GAIN_H
#define PINRUN_GAIN_H

enum host_gain {
	HOST_GAIN_NONE,
	HOST_GAIN_SETUID,
	HOST_GAIN_SETGID,
	HOST_GAIN_CAPS,
	HOST_GAIN_NKINDS /* how many: not a gain */
};

#endif
