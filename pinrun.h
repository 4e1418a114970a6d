/* pinrun's version and exit statuses (exitcode.h). */
#ifndef PINRUN_H
#define PINRUN_H

#include "exitcode.h"

#define PINRUN_VERSION "0.1.0"

#endif
