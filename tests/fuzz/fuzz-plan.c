// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-plan: the agent's plan reader (initramfs/plan.c, plan_text(),
 * host build), in memory: every line split, checked and acted on as at
 * boot, against no tracefs or a tracefs directory that does not exist
 * (so "expect", "arm" and "perf" lines go through their path checks,
 * the error_log reading and the failure reports, and write nothing).
 *
 * Input: byte 0 bit 0 chooses the tracefs ("" or a missing directory),
 * the rest is the plan.
 *
 * Oracle beyond the sanitizers: every manifest item and note the plan
 * produced is one field of the dump's tab-separated lines (docs/plan.md)
 * holding no TAB, CR or LF, so that planned text or the kernel's
 * error_log cannot forge the dump's lines and framing.
 */
#include <stdlib.h>
#include <string.h>

#include "../../initramfs/agent.h"
#include "fuzz.h"

static struct agent a;

static void one_field(const char *what, const char *s, int tabs)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++)
		if (*p == '\t' && tabs-- > 0)
			continue;
		else if (*p == '\t' || *p == '\n' || *p == '\r')
			fuzz_fail("%s '%s' holds byte 0x%02x", what, s, *p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;
	size_t i;

	if (size < 1)
		return 0;
	trk_begin();
	memset(&a, 0, sizeof(a));
	a.no_exec = 1;
	a.sink_fd = -1;
	strcpy(a.plan_path, "/probecc/plan");
	strcpy(a.sink, "console");
	if (data[0] & 1)
		strcpy(a.tracefs, "/nonexistent/probecc-fuzz/tracefs");
	text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	plan_text(&a, text, size - 1);
	for (i = 0; i < a.n_items; i++) {
		one_field("item probe", a.items[i].probe, 0);
		one_field("item file", a.items[i].file, 0);
		one_field("item detail", a.items[i].detail, 0);
	}
	for (i = 0; i < a.n_notes; i++)
		one_field("note", a.notes[i], 1);	/* "TOPIC<TAB>TEXT" */
	for (i = 0; i < a.n_perf; i++)
		free(a.perf[i].rings);
	trk_release();
	return 0;
}
