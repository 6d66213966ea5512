// SPDX-License-Identifier: GPL-2.0
/* A command-line option's number: decimal, in range, never wrapped. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "common.h"

int arg_int(const char *s, int min, int max, int *out)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;	/* no sign, no space: strtol would take them */
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = (int)v;
	return 0;
}
