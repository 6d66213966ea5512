// SPDX-License-Identifier: GPL-2.0
/*
 * What the kernel's tracing knows by name: trace options (global ones
 * and the function tracers' own) and trace clocks.  check.c refuses the
 * names it does not know; place.c decides where the known ones go.
 */
#include <string.h>

#include "compiler.h"

/* trace.h TRACE_FLAGS of 6.1 (global options; BRANCH needs BRANCH_TRACER). */
static const char *const global_options[] = {
	"print-parent", "sym-offset", "sym-addr", "verbose", "raw", "hex",
	"bin", "block", "trace_printk", "annotate", "userstacktrace",
	"sym-userobj", "printk-msg-only", "context-info", "latency-format",
	"record-cmd", "record-tgid", "overwrite", "disable_on_free",
	"irq-info", "markers", "event-fork", "pause-on-trace", "hash-ptr",
	"function-trace", "function-fork", "display-graph", "stacktrace", NULL,
};

/* Tracer options: trace_functions.c and trace_functions_graph.c. */
static const struct {
	const char *name, *tracer;
} tracer_options[] = {
	{ "func_stack_trace", "function" },
	{ "func-no-repeats", "function" },
	{ "funcgraph-overrun", "function_graph" },
	{ "funcgraph-cpu", "function_graph" },
	{ "funcgraph-overhead", "function_graph" },
	{ "funcgraph-proc", "function_graph" },
	{ "funcgraph-duration", "function_graph" },
	{ "funcgraph-abstime", "function_graph" },
	{ "funcgraph-irqs", "function_graph" },
	{ "funcgraph-tail", "function_graph" },
	{ "sleep-time", "function_graph" },
	{ "graph-time", "function_graph" },
};

/* trace.c trace_clocks[] of 6.1, plus ARCH_TRACE_CLOCKS of x86. */
static const char *const clocks[] = {
	"local", "global", "counter", "uptime", "perf", "mono", "mono_raw",
	"boot", "tai", NULL,
};

bool trace_option_is_global(const char *name)
{
	int i;

	for (i = 0; global_options[i]; i++)
		if (!strcmp(global_options[i], name))
			return true;
	return false;
}

const char *trace_option_tracer(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(tracer_options) / sizeof(tracer_options[0]); i++)
		if (!strcmp(tracer_options[i].name, name))
			return tracer_options[i].tracer;
	return NULL;
}

bool trace_clock_known(const struct target *t, const char *name)
{
	int i;

	if (*t->abi->quirks->clocks && !strcmp(name, t->abi->quirks->clocks))
		return true;
	for (i = 0; clocks[i]; i++)
		if (!strcmp(clocks[i], name))
			return true;
	return false;
}
