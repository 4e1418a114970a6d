/* SPDX-License-Identifier: BSD-3-Clause */
/* pinrun's exit statuses (exitcode.h, a leaf header the tracer uses too);
 * PINRUN_VERSION comes from the file VERSION, through the Makefile. */
#ifndef PINRUN_H
#define PINRUN_H

#include "exitcode.h"

#endif
