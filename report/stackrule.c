// SPDX-License-Identifier: GPL-2.0
/*
 * One rule for every kernel stack of a hit, whoever took it (the
 * stacktrace option, a stack trigger, the agent's perf callchain): it
 * starts at the probed function.  The frames of the tracing machinery
 * above it (the function tracer's trampoline, the kprobe handler, the
 * trigger) are dropped, as perf drops its own.  A stack that holds only
 * such frames is no stack of the probed code: it is cut (its frames are
 * dropped, the hit keeps why), never shown or folded as its callers.
 *
 * Frame names are the kernel's (kernel/trace/, arch/x86/kernel/ftrace_64.S,
 * arch/mips/kernel/mcount.S, arch/arm64/kernel/entry-ftrace.S,
 * kernel/kprobes.c, kernel/trace/trace_kprobe.c, trace_events_trigger.c).
 */
#include <string.h>

#include "report-int.h"

/* Frames of the tracing machinery itself, on any arch. */
static const char *const machinery[] = {
	/* the function tracer and its trampolines */
	"ftrace_graph_call", "ftrace_call", "ftrace_regs_call", "ftrace_caller",
	"ftrace_regs_caller", "ftrace_stub", "ftrace_stub_graph",
	"ftrace_graph_caller", "ftrace_common", "return_to_handler",
	"arch_ftrace_ops_list_func", "ftrace_ops_list_func",
	"ftrace_ops_assist_func", "function_trace_call",
	"function_stack_trace_call", "_mcount", "mcount", "__fentry__",
	/* kprobes and their breakpoint handlers */
	"kprobe_trace_func", "kprobe_dispatcher", "kretprobe_dispatcher",
	"kprobe_ftrace_handler", "kprobe_int3_handler", "opt_pre_handler",
	"optimized_callback", "aggr_pre_handler", "kprobe_breakpoint_handler",
	"kprobe_handler", "kprobe_exceptions_notify", "notify_die", "do_int3",
	"exc_int3", "asm_exc_int3", "do_bp", "handle_bp", "brk_handler",
	"call_break_hook", "do_debug_exception", "el1_dbg",
	/* the stack's own taking: triggers, the stacktrace option */
	"event_triggers_call", "stacktrace_trigger", "stacktrace_count_trigger",
	"__trace_stack", "__ftrace_trace_stack", "ftrace_trace_stack",
	"trace_buffer_unlock_commit_regs", "trace_event_buffer_commit",
	"trace_function",
};

/*
 * Why a stack of machinery alone is cut, and the way to a real one, per
 * arch where it is known (docs/kernel-features.md); else the general
 * word.  @arch "" matches any.
 */
static const struct {
	const char *arch, *frame, *why;
} cuts[] = {
	{ "mips", "ftrace_graph_call",
	  "MIPS's function tracer records its own trampoline alone, without save_stack_trace_regs (kernel-patches/mipsel mends it); compiled without --stack-method kernel, a function line's 'stack' is the agent's perf callchain" },
	{ "mips", "",
	  "MIPS's kernel stacks of a probe end in the tracing code (kernel-patches/mipsel mends it); a kprobe with 'stack' takes the agent's perf callchain" },
	{ "", "",
	  "the kernel's stack ends inside its tracing code; a kprobe with 'stack' and --stack-method perf takes the agent's perf callchain" },
};

/* The function name of frame @f ("bond_create+0x9c [bonding]"), in @buf. */
static const char *frame_name(const char *f, char *buf, size_t size)
{
	size_t n = strcspn(f, "+ ");

	if (n >= size)
		n = size - 1;
	memcpy(buf, f, n);
	buf[n] = '\0';
	return buf;
}

static bool is_machinery(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(machinery); i++)
		if (!strcmp(machinery[i], name))
			return true;
	return false;
}

/*
 * The function @h probed: a function tracer hit's own name, a kprobe's
 * "(FUNC+0x0/0x898)" at the start of its body; NULL otherwise (a static
 * event: its frames are kept as they are).
 */
static const char *probed(const struct hit *h, char *buf, size_t size)
{
	size_t n;

	if (h->parent || !h->args[0])
		return h->probe;
	if (h->args[0] != '(')
		return NULL;
	n = strcspn(h->args + 1, "+)");
	if (!n || n >= size || h->args[1 + n] != '+')
		return NULL;
	memcpy(buf, h->args + 1, n);
	buf[n] = '\0';
	return buf;
}

static const char *cut_why(const char *arch, const char *first)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cuts); i++)
		if ((!cuts[i].arch[0] || (arch && !strncmp(arch, cuts[i].arch, strlen(cuts[i].arch)))) &&
		    (!cuts[i].frame[0] || !strcmp(cuts[i].frame, first)))
			return cuts[i].why;
	return cuts[ARRAY_SIZE(cuts) - 1].why;
}

void stacks_from_probed(struct dump *d)
{
	char fn[256], name[256];
	int i, j;

	for (i = 0; i < d->nhits; i++) {
		struct hit *h = &d->hits[i];
		const char *p;
		bool only = true;

		if (!h->nframes || !(p = probed(h, fn, sizeof(fn))))
			continue;
		for (j = 0; j < h->nframes; j++) {
			frame_name(h->frames[j], name, sizeof(name));
			if (!strcmp(name, p))
				break;
			only &= is_machinery(name);
		}
		if (j < h->nframes) {
			/* the frames above the probed function go */
			if (j) {
				memmove(h->frames, h->frames + j,
					(size_t)(h->nframes - j) * sizeof(*h->frames));
				h->nframes -= j;
			}
			continue;
		}
		if (!only)
			continue;	/* the probed function's frame is not there: a tail call, an inlined one */
		frame_name(h->frames[0], name, sizeof(name));
		h->cut_frame = h->frames[0];
		h->cut_why = cut_why(d->arch, name);
		h->nframes = 0;
	}
}
