// SPDX-License-Identifier: GPL-2.0
/*
 * Placement: for each part of the program, decide whether the kernel
 * arms it from the command line, from bootconfig, or whether the
 * early-init agent must arm it, and record the decision as data in
 * struct placement (command-line parameters, bootconfig keys, plan
 * lines, a note for --explain); emit.c writes them out.
 *
 * The rules and their sources:
 * - kprobe_event= exists from 5.3 (commit 970988e19eb0,
 *   kernel/trace/trace_kprobe.c); one parameter holds every probe, ';'
 *   between them, and every ',' becomes a space (setup_boot_kprobe_events),
 *   so a repeated kprobe_event= would overwrite the earlier one.
 * - bootconfig exists from 5.6 (lib/bootconfig.c, kernel/trace/trace_boot.c);
 *   "kernel.*" keys become command-line parameters from 5.7 (init/main.c:
 *   xbc_make_cmdline("kernel")); "SYM%return" makes a kretprobe in a
 *   p: definition from 5.11 (trace_kprobe.c), the only way bootconfig can
 *   hold one, since trace_boot.c writes "p:kprobes/EVENT ...".
 * - Tracer options (func_stack_trace, funcgraph-*) are not global trace
 *   options: trace_options= applies them once ftrace= set the tracer
 *   (trace.c: register_tracer -> apply_trace_boot_options), but bootconfig's
 *   ftrace.options is applied before the tracer exists and the kernel
 *   refuses them (trace_boot.c; measured on 6.1).
 * - The global "stacktrace" option gives a stack on every event, not on
 *   the function tracer's entries; event triggers have no
 *   command-line parameter before 6.2 (trace_trigger=, static events
 *   only), and bootconfig's "actions" need CONFIG_HIST_TRIGGERS
 *   (trace_boot.c), so per-probe stacks are bootconfig actions when the
 *   config has it (proven on the x86_64 test kernel: stacks from the
 *   first hit), a static event's a trace_trigger= entry on 6.2+ (proven
 *   on Debian's arm64 6.12), else triggers written by the agent.
 * - Uprobes, event filters and triggers have no command-line form: agent.
 * - "instance NAME": probecc's events go into tracefs instance NAME.
 *   bootconfig's ftrace.instance.NAME.* (5.6, trace_boot.c
 *   trace_boot_init_instances()) arms everything there from boot;
 *   trace_instance=NAME,EVENTS (6.3, trace.c enable_instances(), run by
 *   trace_init()) the static events; kprobe_event= enables its probes
 *   in the top buffer only (trace_kprobe.c enable_boot_kprobe_events()),
 *   so on the command line the agent defines kprobes and enables them in
 *   the instance, and before 6.3 it makes the instance itself (plan
 *   line "instance", first).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bootconfig.h"
#include "compiler.h"
#include "plan.h"

/* The state placement builds up, in the order emit.c writes it. */
struct ctx {
	const struct program *prog;
	const struct target *t;
	struct placement *pl;
	struct cmdline_param **cmdline_tail;
	struct note **explain_tail;
	const char *tracer;		/* NULL, "function" or "function_graph" */
	struct strbuf opts_cmdline;	/* trace_options= values */
	struct cmdline_use *opts_uses, **opts_uses_tail;	/* who asked for them */
	struct name *opts_bc;		/* ftrace.options values */
	struct name *opts_kernel;	/* kernel.trace_options values */
	struct name *opts_inst;		/* options set in the instance */
	struct strbuf events;		/* trace_event= values */
	struct cmdline_use *events_uses, **events_uses_tail;
	struct strbuf kprobes;		/* kprobe_event= values */
	struct cmdline_use *kprobes_uses, **kprobes_uses_tail;
	struct strbuf triggers;		/* trace_trigger= values */
	struct cmdline_use *triggers_uses, **triggers_uses_tail;
	int ntriggers;			/* entries of trace_trigger= */
	/*
	 * "instance NAME": inst is "instances/NAME/" (else ""), the
	 * tracefs directory probecc's events are enabled and dumped in;
	 * bc_inst "ftrace.instance.NAME." (else "ftrace."), its bootconfig
	 * keys; inst_events the static events of trace_instance= (6.3+)
	 */
	const char *inst, *bc_inst;
	struct strbuf inst_events;
	struct cmdline_use *inst_uses, **inst_uses_tail;
	struct plan_line *expects, **expects_tail;	/* plan: expect lines */
	struct plan_line *arms, **arms_tail;		/* plan: arm and perf lines */
	/*
	 * set_event lines of the agent's kprobes and uprobes, after all their
	 * definitions: consecutive definitions go to the kernel in one write
	 * (docs/plan.md, "arm"), and interleaved set_event lines would end
	 * each run at one.
	 */
	struct plan_line *enables, **enables_tail;
	bool bootconfig;
	bool perf_stacks;		/* stacks of kprobes/events: the agent's perf */
	bool crash_default;	/* --crash-dump's default may take room */
	int kprobe_limit;		/* kprobe_event= definitions allowed */
	size_t *entry_len;		/* NULL, or each kprobe_event= entry's bytes */
};

static void explain(struct ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A note for --explain: why a part went where it went. */
static void explain(struct ctx *c, const char *fmt, ...)
{
	struct note *n = xcalloc(1, sizeof(*n));
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	n->s = xcalloc(1, len + 1);
	va_start(ap, fmt);
	vsnprintf(n->s, len + 1, fmt, ap);
	va_end(ap);
	*c->explain_tail = n;
	c->explain_tail = &n->next;
}

static void bc(struct ctx *c, const char *key, const char *value)
{
	int err = bc_add(c->pl->bootconfig, key, value);

	if (err)
		internal_error("bootconfig key '%s': %s", key, bc_strerror(err));
}

static void add_list(struct strbuf *sb, const char *s)
{
	sb_addf(sb, "%s%s", sb->len ? "," : "", s);
}

/* Record that the statement at @pos adds @bytes to a parameter (budget.c). */
static void use(struct cmdline_use ***tail, const struct pos *pos, size_t bytes)
{
	struct cmdline_use *u = xcalloc(1, sizeof(*u));

	if (pos)
		u->pos = *pos;
	u->bytes = bytes;
	**tail = u;
	*tail = &u->next;
}

/* A parameter of the fragment, made of @uses (NULL: one, by @pos). */
static void cmdline(struct ctx *c, const char *param, const char *value,
		    struct cmdline_use *uses, const struct pos *pos)
{
	struct cmdline_param *p;

	if (strpbrk(value, " \t\"'\n"))
		internal_error("command-line value '%s' would be split by the kernel",
			       value);
	p = xcalloc(1, sizeof(*p));
	p->param = param;
	p->value = xstrdup(value);
	p->uses = uses;
	if (!uses) {
		struct cmdline_use **tail = &p->uses;

		use(&tail, pos, strlen(value));
	}
	*c->cmdline_tail = p;
	c->cmdline_tail = &p->next;
}

/* A plan line of @kind with @n fields (NULL ones left out), at *@tail. */
static void plan_line(struct plan_line ***tail, const char *kind, int n, ...)
{
	struct plan_line *l = xcalloc(1, sizeof(*l));
	va_list ap;
	const char *f;

	l->kind = kind;
	va_start(ap, n);
	while (n--)
		if ((f = va_arg(ap, const char *)))
			l->f[l->n++] = xstrdup(f);
	va_end(ap);
	**tail = l;
	*tail = &l->next;
}

static void expect(struct ctx *c, const char *who, const char *file,
		   const char *match, const char *value)
{
	plan_line(&c->expects_tail, "expect", 4, who, file, match, value);
}

static void arm(struct ctx *c, const char *who, const char *file,
		const char *value)
{
	plan_line(&c->arms_tail, "arm", 3, who, file, value);
}

/* The agent's set_event line of a probe it defines (ctx.enables). */
static void enable(struct ctx *c, const char *who, const char *event)
{
	char *f = xasprintf("%sset_event", c->inst);

	plan_line(&c->enables_tail, "arm", 3, who, f, event);
	free(f);
}

/* @c's set_event: the top buffer's or the instance's (malloc'd). */
static char *set_event(const struct ctx *c)
{
	return xasprintf("%sset_event", c->inst);
}

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?") != NULL;
}

/* A function list: ftrace_filter=, ftrace_notrace=, ftrace_graph_filter=. */
static void function_list(struct ctx *c, const struct name *list,
			  const char *param, const char *bckey,
			  const char *file, const char *what)
{
	struct strbuf val = { 0 };
	struct cmdline_use *uses = NULL, **tail = &uses;
	const struct name *n;

	if (!list)
		return;
	for (n = list; n; n = n->next) {
		const char *mod = has_glob(n->s) ? NULL :
				  module_only_function(c->t->k, n->s);

		/*
		 * No module is loaded at boot or when the agent runs: the
		 * kernel drops such a name from the boot filter
		 * (ftrace.c: ftrace_set_early_filter()), and refuses an
		 * append (EINVAL) after a walk of every ftrace record
		 * (match_records(); 50-80 ms each on Malta under QEMU,
		 * bench/README.md).  check.c refused a list of nothing else,
		 * which would leave the filter empty.
		 */
		if (mod) {
			explain(c, "%s %s: in module %s, which is not loaded at boot or when the agent runs: left out (ftrace matches only loaded functions%s)",
				what, n->s, mod, strcmp(what, "notrace") ?
				"; a kprobe on it is armed when the module loads" : "");
			continue;
		}
		use(&tail, &n->pos, strlen(n->s) + (val.len ? 1 : 0));
		add_list(&val, n->s);
		if (c->bootconfig)
			bc(c, bckey, n->s);
		if (has_glob(n->s)) {
			explain(c, "%s %s: a glob; the kernel expands it, so the agent cannot verify it by name",
				what, n->s);
			continue;
		}
		expect(c, n->s, file, n->s, n->s);
	}
	if (!val.s)	/* a notrace list of modules' functions only */
		return;
	if (!c->bootconfig)
		cmdline(c, param, val.s, uses, NULL);
	explain(c, "%s %s: %s; the agent verifies %s and adds what is missing",
		what, val.s, c->bootconfig ? bckey : param, file);
	free(val.s);
}

static void tracer(struct ctx *c)
{
	const struct program *p = c->prog;

	if (p->functions)
		c->tracer = "function";
	else if (p->graph)
		c->tracer = "function_graph";
	if (!c->tracer)
		return;
	if (c->bootconfig)
		bc(c, "ftrace.tracer", c->tracer);
	else
		cmdline(c, "ftrace=", c->tracer, NULL, &p->tracer_pos);
	function_list(c, p->functions, "ftrace_filter=", "ftrace.ftrace.filters",
		      "set_ftrace_filter", "function");
	function_list(c, p->notrace, "ftrace_notrace=", "ftrace.ftrace.notraces",
		      "set_ftrace_notrace", "notrace");
	function_list(c, p->graph, "ftrace_graph_filter=", "ftrace.fgraph.filters",
		      "set_graph_function", "graph");
	if (p->graph_depth) {
		char *d = xasprintf("%d", p->graph_depth);

		if (c->bootconfig)
			bc(c, "ftrace.fgraph.max_depth", d);
		else
			cmdline(c, "ftrace_graph_max_depth=", d, NULL, &p->tracer_pos);
		expect(c, "-", "max_graph_depth", d, d);
		free(d);
	}
}

/*
 * One trace option, "NAME" or "noNAME", placed; check.c validated it.
 * @pos: the statement that asks for it.
 */
static void option(struct ctx *c, const char *opt, const char *why,
		   const struct pos *pos)
{
	const char *base = opt, *owner;
	bool on = true, global;
	struct name **list;
	char *file;

	if (!strncmp(opt, "no", 2)) {
		base = opt + 2;
		on = false;
	}
	global = trace_option_is_global(base);
	owner = trace_option_tracer(base);
	/* check.c refused unknown options and options of another tracer */
	if ((!global && !owner) || (owner && (!c->tracer || strcmp(owner, c->tracer))))
		internal_error("option '%s' placed unchecked", opt);
	/* Added twice (an option and a stack request)?  Once is enough. */
	for (list = &c->opts_bc; *list; list = &(*list)->next)
		if (!strcmp((*list)->s, opt))
			return;
	for (list = &c->opts_kernel; *list; list = &(*list)->next)
		if (!strcmp((*list)->s, opt))
			return;
	for (list = &c->opts_inst; *list; list = &(*list)->next)
		if (!strcmp((*list)->s, opt))
			return;
	if (strstr(c->opts_cmdline.s ? c->opts_cmdline.s : "", opt)) {
		const char *s = c->opts_cmdline.s;
		size_t n = strlen(opt);

		for (; (s = strstr(s, opt)); s += n)
			if ((s == c->opts_cmdline.s || s[-1] == ',') &&
			    (s[n] == ',' || s[n] == '\0'))
				return;
	}

	if (c->inst[0]) {
		/*
		 * An instance has its own options/ (trace.c
		 * create_trace_options_dir()); trace_options= and
		 * ftrace.options set the top buffer's.  check.c refused
		 * tracers with an instance, so this is a global option.
		 */
		char *key = xasprintf("%soptions", c->bc_inst);

		*list = xcalloc(1, sizeof(**list));
		(*list)->s = xstrdup(opt);
		list = NULL;
		if (c->bootconfig) {
			bc(c, key, opt);
			explain(c, "option %s%s: %s", opt, why, key);
		} else {
			explain(c, "option %s%s: the agent sets %soptions/%s (trace_options= sets the top buffer's)",
				opt, why, c->inst, base);
		}
		free(key);
	} else if (c->bootconfig && global) {
		list = &c->opts_bc;
		explain(c, "option %s%s: ftrace.options", opt, why);
	} else if (c->bootconfig && kernel_at_least(c->t, 5, 7)) {
		list = &c->opts_kernel;
		explain(c, "option %s%s: kernel.trace_options, since ftrace.options is applied before the %s tracer exists and the kernel refuses it there",
			opt, why, owner);
	} else {
		list = NULL;
		use(&c->opts_uses_tail, pos, strlen(opt) + (c->opts_cmdline.len ? 1 : 0));
		add_list(&c->opts_cmdline, opt);
		explain(c, "option %s%s: trace_options=%s", opt, why,
			owner ? " (applied once ftrace= has set the tracer)" : "");
	}
	if (list) {
		while (*list)
			list = &(*list)->next;
		*list = xcalloc(1, sizeof(**list));
		(*list)->s = xstrdup(opt);
	}
	file = xasprintf("%soptions/%s", c->inst, base);
	expect(c, "-", file, on ? "1" : "0", on ? "1" : "0");
	free(file);
}

/*
 * The kernel's own dump of the trace at an oops or a panic, and what
 * the file makes panic: kernel parameters, always on the command line
 * (they are read by __setup handlers, not by trace_boot; bootconfig's
 * "kernel." keys would carry them only with CONFIG_BOOT_CONFIG):
 * ftrace_dump_on_oops (kernel/trace/trace.c), oops=panic
 * (kernel/panic.c), panic_on_warn=1, softlockup_panic=1
 * (kernel/watchdog.c), hung_task_panic=1 (kernel/hung_task.c).
 */
static void place_crash(struct ctx *c)
{
	const struct program *p = c->prog;
	static const struct { unsigned bit; const char *param, *value, *what; } panics[] = {
		{ PANIC_ON_OOPS, "oops=", "panic", "an oops" },
		{ PANIC_ON_WARN, "panic_on_warn=", "1", "a WARN" },
		{ PANIC_ON_SOFTLOCKUP, "softlockup_panic=", "1", "a soft lockup" },
		{ PANIC_ON_HUNG_TASK, "hung_task_panic=", "1", "a hung task" },
	};
	size_t i;

	if (!p->crash_dump && c->t->crash_dump && p->instance) {
		explain(c, "crash dump: left out: ftrace_dump_on_oops prints the top buffer, and probecc's events are in instance %s",
			p->instance);
		goto panics;
	}
	if (!p->crash_dump && c->t->crash_dump && !c->crash_default)
		explain(c, "crash dump: left out: --crash-dump's ftrace_dump_on_oops would push a kprobe off the command line (its hits before /init would be lost); 'crash dump' in the file puts it first");
	if (p->crash_dump > 0 || (!p->crash_dump && c->t->crash_dump && c->crash_default)) {
		cmdline(c, "ftrace_dump_on_oops", "", NULL, NULL);
		explain(c, "crash dump: ftrace_dump_on_oops (%s): at an oops or a panic the kernel prints the ring buffer on the console, and probecc report --console reads it; it empties the buffer (a later dump holds only what came after)",
			p->crash_dump > 0 ? "the file's 'crash dump'" : "--crash-dump");
	}
panics:
	for (i = 0; i < sizeof(panics) / sizeof(panics[0]); i++)
		if (p->panic_on & panics[i].bit) {
			cmdline(c, panics[i].param, panics[i].value, NULL, NULL);
			explain(c, "panic on %s: %s%s", panics[i].what, panics[i].param, panics[i].value);
		}
}

static void settings(struct ctx *c)
{
	const struct program *p = c->prog;
	const struct name *n;

	for (n = p->options; n; n = n->next)
		option(c, n->s, "", &n->pos);
	if (p->func_stack && !c->perf_stacks)
		option(c, "func_stack_trace",
		       c->t->abi->quirks->kstack_perf ?
		       " (\"stack\" on a function line, --stack-method kernel: the function tracer's own option, whose stacks on this arch need kernel-patches/mipsel)" :
		       " (\"stack\" on a function line: the function tracer's own option)",
		       &p->func_stack_pos);
	if (p->buffer_size) {
		unsigned long long sz = p->buffer_size;
		char *v = (sz % (1 << 20)) == 0 ? xasprintf("%lluM", sz >> 20) :
			  (sz % (1 << 10)) == 0 ? xasprintf("%lluK", sz >> 10) :
			  xasprintf("%llu", sz);

		if (c->bootconfig) {
			char *key = xasprintf("%sbuffer_size", c->bc_inst);

			bc(c, key, v);
			free(key);
		} else {
			/* an instance's buffer is made this size too (trace.c trace_array_create()) */
			cmdline(c, "trace_buf_size=", v, NULL, &p->buffer_pos);
		}
		explain(c, "buffer %s per CPU: %s (the kernel rounds it up to whole pages, so the agent reports buffer_size_kb instead of checking it)",
			v, c->bootconfig ? "ftrace.buffer_size" : "trace_buf_size=");
		free(v);
	}
	place_crash(c);
	if (p->clock) {
		char *m = xasprintf("[%s]", p->clock);

		char *key = xasprintf("%strace_clock", c->bc_inst);
		char *file = xasprintf("%strace_clock", c->inst);

		if (c->bootconfig)
			bc(c, key, p->clock);
		else if (!c->inst[0])
			cmdline(c, "trace_clock=", p->clock, NULL, &p->clock_pos);
		expect(c, "-", file, m, p->clock);
		if (c->bootconfig || !c->inst[0])
			explain(c, "clock %s: %s", p->clock,
				c->bootconfig ? key : "trace_clock=");
		else
			explain(c, "clock %s: the agent sets %s (trace_clock= sets the top buffer's)",
				p->clock, file);
		free(key);
		free(file);
		free(m);
	}
}

/* "SYM+OFF f1 f2" / "PATH:0xOFF f1 f2": a definition without its "p:GROUP/NAME" head. */
static char *probe_body(const struct probe *p, const struct target *t,
			const char *retsuffix)
{
	struct strbuf sb = { 0 };
	const struct field *f;
	const char *mod = NULL;

	/*
	 * A function only a module has goes as MOD:SYM: the kernel keeps
	 * such a probe and registers it when MOD loads
	 * (kernel/trace/trace_kprobe.c: trace_kprobe_module_callback()),
	 * while a bare SYM it refuses until then (ENOENT:
	 * number_of_same_symbols() finds none; measured on Debian's Malta
	 * 6.1, at boot and in tracefs alike).
	 */
	if (p->kind == P_KPROBE || p->kind == P_KRETPROBE)
		mod = module_only_function(t ? t->k : NULL, p->target);
	if (mod)
		sb_addf(&sb, "%s:", mod);
	if (p->kind == P_UPROBE || p->kind == P_URETPROBE)
		sb_addf(&sb, "%s:0x%llx", p->target, (unsigned long long)p->offset);
	else if (p->offset)
		sb_addf(&sb, "%s+%lld", p->target, p->offset);
	else
		sb_addf(&sb, "%s%s", p->target, retsuffix);
	for (f = p->fields; f; f = f->next) {
		char *s = fetch_field(f, p, t);

		sb_addf(&sb, " %s", s);
		free(s);
	}
	return sb.s;
}

static bool is_return(const struct probe *p)
{
	return p->kind == P_KRETPROBE || p->kind == P_URETPROBE;
}

/*
 * The agent writes triggers and filters into events/kprobes/NAME/.  On
 * 6.1, kprobes defined by kprobe_event= often get no such directory:
 * tracefs builds the event directories from a work item
 * (trace.c: tracer_init_tracefs) that races with init_kprobe_trace
 * (measured: missing in most boots, both arches).  Such probes are
 * defined by the agent, whose directories always exist.
 */
static bool stack_in_bootconfig(const struct ctx *c, const struct probe *p,
				bool global_stack);

static bool pmu_kstack(const struct ctx *c, const struct probe *p,
		       bool global_stack);

static bool needs_event_dir(const struct ctx *c, const struct probe *p,
			    bool global_stack)
{
	return (p->stack && !global_stack &&
		!stack_in_bootconfig(c, p, global_stack) &&
		!pmu_kstack(c, p, global_stack)) ||
	       p->stack_user || (p->filter && !c->bootconfig);
}

/*
 * Whether kprobe @p's perf callchains come from a kprobe of perf's own at
 * its symbol (plan "perf PROBE kprobe:SYM[+OFF]": the kprobe PMU,
 * kernel/trace/trace_event_perf.c perf_kprobe_init(), 4.17+) rather than
 * from its event's id: the probe then needs no events/ directory, so the
 * kernel can define it from its command line (kprobe_event=), and the
 * agent neither defines nor enables it nor reads an id.  A module's
 * function (MOD:SYM) is not loaded when the agent runs.
 */
static bool pmu_kstack(const struct ctx *c, const struct probe *p,
		       bool global_stack)
{
	return p->kind == P_KPROBE && p->stack && !global_stack &&
	       !p->stack_user && c->perf_stacks && p->target &&
	       !strchr(p->target, ':') && kernel_at_least(c->t, 4, 17);
}

/* "kprobe:SYM[+OFF]" of @p for a plan "perf" line (malloc'd). */
static char *pmu_event(const struct probe *p)
{
	return p->offset ? xasprintf("kprobe:%s+%lld", p->target, p->offset) :
			   xasprintf("kprobe:%s", p->target);
}

/*
 * A per-probe stack as a bootconfig "actions = stacktrace": only when the
 * probe itself is defined there (kprobes; kretprobes from 5.11) and the
 * config says CONFIG_HIST_TRIGGERS, without which trace_boot.c refuses
 * actions ("Failed to apply event actions because CONFIG_HIST_TRIGGERS is
 * not set", measured on 6.1).  An unknown config keeps the agent's trigger.
 */
static bool stack_in_bootconfig(const struct ctx *c, const struct probe *p,
				bool global_stack)
{
	if (!c->bootconfig || !p->stack || global_stack || c->perf_stacks ||
	    p->stack_user || c->t->hist_triggers != 1)
		return false;
	switch (p->kind) {
	case P_EVENT:
		return true;
	case P_KPROBE:
		return true;
	case P_KRETPROBE:
		return kernel_at_least(c->t, 5, 11);
	default:
		return false;
	}
}

static bool uses_arg(const struct fetcharg *f)
{
	return f->kind == F_ARG || (f->kind == F_DEREF && uses_arg(f->inner));
}

/*
 * --explain: which ABI @p's arguments follow and why (probe_abi()): a
 * uprobe's file's when --sysroot let resolve_uprobes() read it, else
 * the kernel's.  Said for a uprobe whose file was read, and for any
 * probe with an argN.
 */
static void explain_abi(struct ctx *c, const struct probe *p)
{
	const struct abi *a = probe_abi(p, c->t);
	const struct field *f;
	const char *what = p->kind == P_KPROBE ? "kprobe" :
			   p->kind == P_KRETPROBE ? "kretprobe" :
			   p->kind == P_UPROBE ? "uprobe" : "uretprobe";
	bool args = false;
	char *why;

	for (f = p->fields; f; f = f->next)
		args |= uses_arg(f->fetcharg);
	if (!args && !p->abi)
		return;
	if (p->abi)
		why = xasprintf("the %s ABI of %s, a %s program, under the %s kernel",
				a->abi, p->target, p->abi_why, c->t->abi->arch);
	else if (p->kind == P_UPROBE || p->kind == P_URETPROBE)
		why = xasprintf("the kernel's %s ABI, assumed: without --sysroot %s's ELF header was not read",
				a->abi, p->target);
	else
		why = xasprintf("the kernel's %s ABI (a kprobe runs kernel code)", a->abi);
	if (p->kind == P_KRETPROBE && args) {
		const char *rwhy;

		(void)kernel_ret_args(c->t, &rwhy);
		explain(c, "%s %s: argN at the return is the kernel's $argN: the entry's arguments, which the kernel keeps for the return (6.10+; trace_probe.c store_trace_entry_data()): %s",
			what, p->name, rwhy);
	}
	else if (is_return(p))
		explain(c, "%s %s: %s%s%s", what, p->name, why,
			a->arg_type ? "; $retval without a type is read as " : "",
			a->arg_type ? a->arg_type : "");
	else
		explain(c, "%s %s arguments: %s: arg1-%d in %s-%s, arg%d at %s%s%s",
			what, p->name, why, a->nregs, a->argregs[0],
			a->argregs[a->nregs - 1], a->nregs + 1,
			abi_arg(a, a->nregs + 1),
			a->arg_type ? "; one without a type is read as " : "",
			a->arg_type ? a->arg_type : "");
	free(why);
}

static void kprobe(struct ctx *c, const struct probe *p, int *order,
		   bool global_stack)
{
	const struct target *t = c->t;
	const char *what = is_return(p) ? "kretprobe" : "kprobe";
	char *body = probe_body(p, t, "");
	char *def = xasprintf("%c:kprobes/%s %s", is_return(p) ? 'r' : 'p',
			      p->name, body);
	char *event = xasprintf("kprobes:%s", p->name);
	bool dir = needs_event_dir(c, p, global_stack), kernel_armed = false;

	if (dir && !c->inst[0]) {
		arm(c, p->name, "kprobe_events", def);
		enable(c, p->name, event);
		if (p->stack_user || (p->stack && !global_stack && c->perf_stacks &&
				      !pmu_kstack(c, p, global_stack)))
			explain(c, "%s %s: agent (its perf event opens events/kprobes/%s/id, which 6.1 often fails to create for boot-time probes)",
				what, p->name, p->name);
		else
			explain(c, "%s %s: agent (its %s is written into events/kprobes/%s/, which 6.1 often fails to create for boot-time probes)",
				what, p->name, p->stack && !global_stack ? "stacktrace trigger" : "filter",
				p->name);
	} else if (!dir && c->bootconfig &&
		   (!is_return(p) || kernel_at_least(t, 5, 11))) {
		char *key = xasprintf("%sevent.kprobes.%s.probes", c->bc_inst, p->name);
		char *ekey = xasprintf("%sevent.kprobes.%s.enable", c->bc_inst, p->name);
		char *bbody = is_return(p) ? probe_body(p, t, "%return") : xstrdup(body);

		bc(c, key, bbody);
		bc(c, ekey, NULL);
		explain(c, "%s %s: bootconfig %s%s", what, p->name, key,
			is_return(p) ? " (SYM%return: a kretprobe, 5.11+)" : "");
		free(key);
		free(ekey);
		free(bbody);
		kernel_armed = true;
	} else if (!c->inst[0] && kernel_at_least(t, 5, 3) &&
		   *order < c->kprobe_limit) {
		/* kprobe_event= form: "p:NAME,SYM,f1,f2"; ',' becomes ' '. */
		char *s;

		/* no fetcharg text has a ',': kprobe_event= would make it a space */
		if (strchr(body, ','))
			internal_error("probe '%s' would hold a ',' in kprobe_event=",
				       p->name);
		s = xasprintf("%c:%s %s", is_return(p) ? 'r' : 'p', p->name, body);
		for (char *q = s; *q; q++)
			if (*q == ' ')
				*q = ',';
		use(&c->kprobes_uses_tail, &p->pos, strlen(s) + (c->kprobes.len ? 1 : 0));
		sb_addf(&c->kprobes, "%s%s", c->kprobes.len ? ";" : "", s);
		if (c->entry_len)
			c->entry_len[*order] = strlen(s);
		free(s);
		explain(c, "%s %s: kprobe_event= (kernel 5.3+; defined at fs_initcall, so hits earlier in boot are missed: trace the function with 'function' to see those)",
			what, p->name);
		(*order)++;
		kernel_armed = true;
	} else {
		arm(c, p->name, "kprobe_events", def);
		enable(c, p->name, event);
		if (dir)
			explain(c, "%s %s: agent, enabled in %s (its %s is written into %sevents/kprobes/%s/ by the agent)",
				what, p->name, c->inst,
				p->stack_user || (p->stack && !global_stack && c->perf_stacks &&
						  !pmu_kstack(c, p, global_stack)) ? "perf event" :
				p->stack && !global_stack ? "stacktrace trigger" : "filter",
				c->inst, p->name);
		else if (c->inst[0])
			/* trace_kprobe.c enable_boot_kprobe_events(): top_trace_array() */
			explain(c, "%s %s: agent, enabled in %s (kprobe_event= enables a probe in the top buffer only; bootconfig's ftrace.instance.%s.event.kprobes would arm it from boot): hits before /init are not traced",
				what, p->name, c->inst, c->prog->instance);
		else if (kernel_at_least(t, 5, 3))
			explain(c, "%s %s: agent (the command line has no room left within %d bytes)",
				what, p->name, t->cmdline_max);
		else
			explain(c, "%s %s: agent (kernel %d.%d has no kprobe_event=, added in 5.3)",
				what, p->name, t->kmajor, t->kminor);
	}
	if (kernel_armed) {
		/*
		 * Checked in kprobe_events (as GROUP/EVENT: a kretprobe's line
		 * reads "r10:...", its maxactive) and set_event, which list the
		 * probe whether or not its events/ directory exists; the kernel
		 * lists a definition only once its event is registered
		 * (kernel/trace/trace_kprobe.c: register_trace_kprobe()).
		 * kprobe_events holds the kprobes alone: available_events, every
		 * event of the kernel (~1,700), cost 9-10 ms of an arm64 boot.
		 */
		char *listed = xasprintf("kprobes/%s", p->name);
		char *se = set_event(c);

		expect(c, p->name, "kprobe_events", listed, def);
		expect(c, p->name, se, event, event);
		free(listed);
		free(se);
	}
	explain_abi(c, p);
	free(body);
	free(def);
	free(event);
}

/* The group of the uprobes perf samples user stacks at (filter_and_stack()). */
#define USTACK_GROUP	"probecc_ustack"

static void uprobe(struct ctx *c, const struct probe *p)
{
	char *body = probe_body(p, c->t, "");
	char *def = xasprintf("%c:uprobes/%s %s", is_return(p) ? 'r' : 'p',
			      p->name, body);
	char *ev = xasprintf("uprobes:%s", p->name);

	arm(c, p->name, "uprobe_events", def);
	enable(c, p->name, ev);
	explain(c, "%s %s: agent (the kernel has no command-line or bootconfig form for uprobes; %s must exist when the agent runs)",
		is_return(p) ? "uretprobe" : "uprobe", p->name, p->target);
	if (p->usym_why)
		explain(c, "%s %s: %s", is_return(p) ? "uretprobe" : "uprobe",
			p->name, p->usym_why);
	if (p->ustack_why)
		explain(c, "%s %s: 'stack has' names looked up in %s",
			is_return(p) ? "uretprobe" : "uprobe", p->name, p->ustack_why);
	explain_abi(c, p);
	free(body);
	free(def);
	free(ev);
}

static void event(struct ctx *c, const struct probe *p)
{
	char *who = xasprintf("%s:%s", p->group, p->name);

	char *se = set_event(c);

	if (c->bootconfig) {
		char *key = xasprintf("%sevent.%s.%s.enable", c->bc_inst, p->group, p->name);

		bc(c, key, NULL);
		explain(c, "event %s: bootconfig %s", who, key);
		free(key);
	} else if (c->inst[0] && kernel_at_least(c->t, 6, 3)) {
		/* enabled in the instance by trace_init(), before the first initcall */
		use(&c->inst_uses_tail, &p->pos, strlen(who) + 1);
		add_list(&c->inst_events, who);
		explain(c, "event %s: trace_instance=%s,... (6.3+: the instance and its events from early boot)",
			who, c->prog->instance);
	} else if (c->inst[0]) {
		arm(c, who, se, who);
		explain(c, "event %s: agent, enabled in %s (kernel %d.%d has no trace_instance=, added in 6.3): hits before /init are not traced",
			who, c->inst, c->t->kmajor, c->t->kminor);
		free(se);
		free(who);
		return;
	} else {
		use(&c->events_uses_tail, &p->pos, strlen(who) + (c->events.len ? 1 : 0));
		add_list(&c->events, who);
		explain(c, "event %s: trace_event=", who);
	}
	expect(c, who, se, who, who);
	free(se);
	free(who);
}

/*
 * trace_trigger=EVENT.TRIGGER,... (6.2+, kernel/trace/trace_events.c
 * setup_trace_triggers()): at most MAX_BOOT_TRIGGERS (32) entries, each
 * matched by the event's name alone against the events whose files are
 * made at early boot (__trace_early_add_new_event()): built-in static
 * events, never a kprobe (kprobe_event= defines it later).
 */
#define BOOT_TRIGGERS_MAX	32

/*
 * Whether @p's stack is a trace_trigger= entry: a static event on 6.2+,
 * placed on the command line (bootconfig has its own actions), with the
 * kernel's stacks (not the agent's perf), and a free entry.
 */
static bool stack_in_trace_trigger(const struct ctx *c, const struct probe *p,
				   bool global_stack)
{
	return p->kind == P_EVENT && p->stack && !global_stack &&
	       !c->bootconfig && !c->perf_stacks && !c->inst[0] &&
	       kernel_at_least(c->t, 6, 2) && c->ntriggers < BOOT_TRIGGERS_MAX;
}

/* Filters and stacks of kprobes, uprobes and events. */
static void filter_and_stack(struct ctx *c, const struct probe *p,
			     bool global_stack)
{
	char *who = p->kind == P_EVENT ? xasprintf("%s:%s", p->group, p->name) :
		    xstrdup(p->name);
	char *dir = xasprintf("%sevents/%s/%s", c->inst, p->group, p->name);
	char *file;

	if (p->filter) {
		if (c->bootconfig && p->kind != P_UPROBE && p->kind != P_URETPROBE) {
			char *key = xasprintf("%sevent.%s.%s.filter", c->bc_inst, p->group, p->name);
			int err = bc_add(c->pl->bootconfig, key, p->filter);

			if (err)	/* check.c tried the same value */
				internal_error("filter of %s: %s", who,
					       bc_strerror(err));
			explain(c, "%s filter: bootconfig %s", who, key);
			free(key);
		} else {
			file = xasprintf("%s/filter", dir);
			arm(c, who, file, p->filter);
			explain(c, "%s filter: agent writes %s (no command-line form; hits before the agent ran are unfiltered)",
				who, file);
			free(file);
		}
	}
	if (stack_in_bootconfig(c, p, global_stack)) {
		char *key = xasprintf("%sevent.%s.%s.actions", c->bc_inst, p->group, p->name);

		bc(c, key, "stacktrace");
		explain(c, "%s stack: bootconfig %s = stacktrace (CONFIG_HIST_TRIGGERS is set): stacks from the first hit",
			who, key);
		free(key);
	} else if (stack_in_trace_trigger(c, p, global_stack)) {
		char *entry = xasprintf("%s.stacktrace", p->name);

		use(&c->triggers_uses_tail, &p->pos,
		    strlen(entry) + (c->triggers.len ? 1 : 0));
		add_list(&c->triggers, entry);
		c->ntriggers++;
		file = xasprintf("%s/trigger", dir);
		/* the kernel lists it "stacktrace:unlimited" (event_trigger_print()) */
		expect(c, who, file, "stacktrace:unlimited", "stacktrace");
		explain(c, "%s stack: trace_trigger=%s (6.2+; a static event's trigger from the command line, so the first hit has its stack); the kernel matches the name %s in every system, and only on events built into the kernel (a module's event gets none: the agent adds it to %s when the check finds it missing)",
			who, entry, p->name, file);
		free(entry);
		free(file);
	} else if (p->stack_user) {
		/*
		 * At a kprobe hit in a task's system call (or fault, or
		 * interrupt of user code) perf_sample_regs_user()
		 * (kernel/events/core.c) takes the task's own user registers
		 * (perf_get_regs_user(): task_pt_regs(current)) and the
		 * stack from their stack pointer; in a kernel thread none
		 * (PERF_SAMPLE_REGS_ABI_NONE).  The same sample's kernel
		 * callchain gives the kernel frames above them, so the
		 * probe's kernel stack is perf's on every arch.
		 */
		char *ev = xasprintf("%s/%s", p->group, p->name);
		char size[16];

		snprintf(size, sizeof(size), "%u",
			 p->ustack ? p->ustack : PLAN_USTACK_DEFAULT);
		plan_line(&c->arms_tail, "perf", 4, who, ev, size, "callchain");
		explain(c, "%s stack user: the agent samples %s with perf: its kernel callchain, the user registers and %s bytes of user stack of the task the hit is in (PERF_SAMPLE_CALLCHAIN, PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER: a hit in a system call has its task's registers from its entry, one in a kernel thread none); the report unwinds the user stack with the task's programs' CFI under --sysroot and prints it below the kernel frames; hits before the agent ran have neither stack",
			who, ev, size);
		free(ev);
	} else if (pmu_kstack(c, p, global_stack)) {
		char *ev = pmu_event(p);

		plan_line(&c->arms_tail, "perf", 2, who, ev);
		explain(c, "%s stack: the agent records perf callchains of a kprobe of perf's own at %s (the kprobe PMU, 4.17+: from the probe's pt_regs, with no events/ directory or id to wait for); hits before the agent ran have no stack",
			who, ev + strlen("kprobe:"));
		free(ev);
	} else if (p->stack && p->kind != P_UPROBE && p->kind != P_URETPROBE &&
		   c->perf_stacks) {
		char *ev = xasprintf("%s/%s", p->group, p->name);

		plan_line(&c->arms_tail, "perf", 2, who, ev);
		free(ev);
		explain(c, "%s stack: the agent records perf callchains of %s (from the probe's pt_regs); hits before the agent ran have no stack",
			who, dir);
	} else if (p->stack && (p->kind == P_UPROBE || p->kind == P_URETPROBE)) {
		/*
		 * A uprobe event is either traced or perf's, never both:
		 * probe_event_enable() (kernel/trace/trace_uprobe.c) returns
		 * -EINTR when the other has it.  So perf gets a twin of the
		 * uprobe, without fetchargs, in a group of its own.
		 */
		char *body = probe_body(p, c->t, "");
		char *def = xasprintf("%c:" USTACK_GROUP "/%s %.*s", is_return(p) ? 'r' : 'p',
				      p->name, (int)strcspn(body, " "), body);
		char *ev = xasprintf(USTACK_GROUP "/%s", p->name);
		char size[16];

		snprintf(size, sizeof(size), "%u",
			 p->ustack ? p->ustack : PLAN_USTACK_DEFAULT);
		arm(c, who, "uprobe_events", def);
		plan_line(&c->arms_tail, "perf", 3, who, ev, size);
		explain(c, "%s stack: the agent samples the user registers and %s bytes of user stack at %s with perf (PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER; a twin uprobe, as one event cannot be both traced and perf's); the report unwinds them with the program's CFI under --sysroot",
			who, size, ev);
		free(body);
		free(def);
		free(ev);
	} else if (p->stack && p->kind != P_UPROBE && p->kind != P_URETPROBE &&
		   !global_stack) {
		file = xasprintf("%s/trigger", dir);
		arm(c, who, file, "stacktrace");
		explain(c, "%s stack: agent writes a stacktrace trigger to %s (%s; bootconfig actions need CONFIG_HIST_TRIGGERS); hits before the agent ran have no stack",
			who, file,
			p->kind != P_EVENT ? "trace_trigger= takes static events only" :
			!kernel_at_least(c->t, 6, 2) ? "no command-line form before 6.2" :
			"trace_trigger= holds 32 at most");
		free(file);
	}
	free(who);
	free(dir);
}

/* The group of the kprobes perf samples a function line's stacks at. */
#define FSTACK_GROUP	"probecc_fstack"

/*
 * The twin kprobe's GROUP/EVENT of function @n (malloc'd), or NULL when
 * it has none (said in --explain when @say).  With @pmu (the kprobe PMU's
 * kprobe, which has no event name) only the name's kind counts.  An event name is a C
 * identifier (trace_probe.c is_good_name()) of fewer than
 * MAX_EVENT_NAME_LEN (64) bytes: a ".isra.0" clone's dots become '_'.
 */
static char *fstack_event(struct ctx *c, const struct name *n, bool say,
			  bool pmu)
{
	char *ev, *q;

	if (has_glob(n->s) || strchr(n->s, ':') || (!pmu && strlen(n->s) >= 64)) {
		if (say)
			explain(c, "function %s: %s, so its hits have no stack (the function tracer's parent field names their callers)",
				n->s, has_glob(n->s) ? "a glob names no one symbol for a kprobe" :
				strchr(n->s, ':') ? "a module's function: no kprobe before it loads" :
				"no kprobe event name of 64 bytes or more");
		return NULL;
	}
	if (module_only_function(c->t->k, n->s))
		return NULL;	/* tracer() said why it is left out */
	ev = xasprintf(FSTACK_GROUP "/%s", n->s);
	for (q = ev + strlen(FSTACK_GROUP "/"); *q; q++)
		if (!isalnum((unsigned char)*q) && *q != '_')
			*q = '_';
	return ev;
}

/*
 * "stack" on a function line where the kernel's own stacks are cut
 * (KSTACK_PERF: Debian's stock Malta 6.1 func_stack_trace records
 * ftrace_graph_call alone, docs/kernel-features.md) or --stack-method
 * perf: the agent samples a kprobe at each function's entry with perf,
 * never enabled in the trace (the function tracer's entry is the hit):
 * from 4.17 one of perf's own (the kprobe PMU: plan "perf FUNC
 * kprobe:FUNC", nothing to define in kprobe_events; the agent opens one
 * event for a kprobe with "stack" at the same symbol and this), before
 * a twin kprobe probecc_fstack/FUNC it defines; the report gives each
 * sample's callchain, which starts at the function's own pt_regs
 * (perf_callchain_kernel()), to the function tracer's hit of the same
 * task.  The kprobe is the agent's, so hits before it armed have no stack.  A glob names no one symbol to kprobe;
 * a module's function is left out of the filter already (tracer()).
 */
static void function_stacks(struct ctx *c)
{
	const struct program *prog = c->prog;
	const struct name *n;
	int pass, pmu;

	if (!prog->func_stack || !c->perf_stacks)
		return;
	pmu = kernel_at_least(c->t, 4, 17);
	if (pmu)
		explain(c, "stack on the function line: the agent's perf callchains of a kprobe of perf's own at each function (the kprobe PMU, 4.17+: no tracefs event), in place of func_stack_trace (%s); hits before the agent armed them (the kernel's own boot, before /init) have no stack, and the report says which",
			c->t->stack_method == STACK_PERF ? "--stack-method perf" :
			"on this arch a stock kernel's func_stack_trace records its own trampoline alone, ftrace_graph_call; --stack-method kernel keeps the option for a kernel patched by kernel-patches/mipsel");
	else
		explain(c, "stack on the function line: the agent's perf callchains of a twin kprobe %s/FUNC at each function, in place of func_stack_trace (%s); hits before the agent armed them (the kernel's own boot, before /init) have no stack, and the report says which",
			FSTACK_GROUP,
			c->t->stack_method == STACK_PERF ? "--stack-method perf" :
			"on this arch a stock kernel's func_stack_trace records its own trampoline alone, ftrace_graph_call; --stack-method kernel keeps the option for a kernel patched by kernel-patches/mipsel");
	/* the definitions first, one write (docs/plan.md "arm"), then perf's */
	for (pass = pmu; pass < 2; pass++)
		for (n = prog->functions; n; n = n->next) {
			char *ev = fstack_event(c, n, pass == pmu, pmu);
			char *def;

			if (!ev)
				continue;
			if (pass == 0) {
				def = xasprintf("p:%s %s", ev, n->s);
				arm(c, n->s, "kprobe_events", def);
				free(def);
			} else if (pmu) {
				def = xasprintf("kprobe:%s", n->s);
				plan_line(&c->arms_tail, "perf", 2, n->s, def);
				free(def);
			} else {
				plan_line(&c->arms_tail, "perf", 2, n->s, ev);
			}
			free(ev);
		}
}

static void probes(struct ctx *c, int *order)
{
	const struct probe *p;
	bool any_kstack = false, all_kstack = true, any_ustack = false, global;
	const struct pos *kstack_pos = NULL, *ustack_pos = NULL;
	bool truncated;	/* the kernel's own kprobe stacks (its KSTACK_PERF) */

	*order = 0;
	for (p = c->prog->probes; p; p = p->next) {
		if (p->kind == P_UPROBE || p->kind == P_URETPROBE) {
			any_ustack |= p->stack;
			if (p->stack && !ustack_pos)
				ustack_pos = &p->pos;
			continue;
		}
		if (p->stack_user)	/* its kernel stack is its perf sample's */
			continue;
		any_kstack |= p->stack;
		if (p->stack && !kstack_pos)
			kstack_pos = &p->pos;
		all_kstack &= p->stack;
	}
	/*
	 * When every kernel event wants a stack, the global stacktrace
	 * option does it from the first hit on; otherwise triggers.  Not
	 * on MIPS: the option saves a kprobe's stack from its pt_regs, and
	 * MIPS has no save_stack_trace_regs (arch/mips/kernel/stacktrace.c),
	 * so each hit costs a WARN and records nothing (measured on 6.1).
	 */
	global = any_kstack && all_kstack;
	/*
	 * On MIPS the kernel's own stacks are truncated: a
	 * trigger's ends in the breakpoint handler, and save_stack_trace_regs
	 * is missing, so the global option costs a WARN per hit and records
	 * nothing (measured on Debian's 6.1; kernel-patches/mipsel/ mends
	 * both).  perf_callchain_kernel() unwinds from the probe's pt_regs.
	 */
	truncated = c->t->abi->quirks->kstack_perf;
	if (any_kstack && c->perf_stacks) {
		global = false;
		explain(c, "stack on kprobes and events: the agent's perf callchains (%s)",
			c->t->stack_method == STACK_PERF ? "--stack-method perf" :
			"MIPS kernels truncate their own stacks: a trigger's ends in the breakpoint handler, the stacktrace option saves none without kernel-patches/mipsel; --stack-method kernel for a patched kernel");
	} else if (global && truncated) {
		explain(c, "stack on kprobes and events: the global stacktrace option (--stack-method kernel: on MIPS this needs save_stack_trace_regs, kernel-patches/mipsel/0001)");
	}
	for (p = c->prog->probes; p; p = p->next) {
		if (p->kind == P_KPROBE || p->kind == P_KRETPROBE)
			kprobe(c, p, order, global);
		else if (p->kind == P_EVENT)
			event(c, p);
		else
			uprobe(c, p);
	}
	if (global)
		option(c, "stacktrace",
		       " (every kprobe and event asks for a stack: the global option covers hits before the agent runs)",
		       kstack_pos);
	/* where the kernel keeps no user stack, the option records nothing */
	if (any_ustack && !user_stacks_kept(c->t->k, c->t))
		explain(c, "stack on uprobes: no userstacktrace option, which a %s kernel does not record (no USER_STACKTRACE_SUPPORT): it would take %zu bytes of the command line for nothing",
			c->t->abi->arch, strlen("userstacktrace") + 1);
	else if (any_ustack)
		option(c, "userstacktrace",
		       " (\"stack\" on a uprobe: a user stack on every event; MIPS kernels record none)",
		       ustack_pos);
	for (p = c->prog->probes; p; p = p->next)
		filter_and_stack(c, p, global);
	function_stacks(c);
	/*
	 * Enabled last: a probe the agent defines has its filter and
	 * trigger before its first hit, so the agent's own opens of those
	 * files (a kprobe on the open path) are not hits of it.
	 */
	*c->arms_tail = c->enables;
	if (c->enables)
		c->arms_tail = c->enables_tail;
}

/*
 * The persistent ring buffer (6.12: Documentation/trace/debugging.rst,
 * "Persistent buffers across boots"): reserve_mem=SIZE:ALIGN:LABEL (6.11,
 * mm/memblock.c reserve_mem()) keeps SIZE bytes of RAM that a reset which
 * keeps RAM (QEMU's system_reset, a watchdog) does not clear, and
 * trace_instance=NAME@LABEL (kernel/trace/trace.c enable_instances())
 * maps an instance's ring buffer onto them.  Every probe is enabled in
 * that instance too, by the agent, after its "persist" line: the agent
 * first dumps what the previous boot left there (stage "previous"), then
 * empties it.  The probes' definitions come before that line, so the
 * previous boot's dynamic events keep their type numbers.  The 2 MiB
 * alignment keeps the reservation at one address across boots more
 * often (debugging.rst); the buffer is split between the CPUs.
 */
#define PERSIST_NAME	"probecc"
#define PERSIST_SIZE	(2ULL << 20)
static void persist(struct ctx *c)
{
	const struct program *prog = c->prog;
	const struct probe *p;
	unsigned long long size = prog->persist_size ? prog->persist_size : PERSIST_SIZE;
	char *v;

	if (!prog->probes)
		return;
	if (prog->persist_off) {
		explain(c, "persist: off (the file says so): a hang leaves no trace");
		return;
	}
	if (!kernel_at_least(c->t, 6, 12)) {
		if (prog->persist_size)	/* asked for: say why not */
			explain(c,
					"persist: none, kernel %d.%d has no persistent ring buffer (6.12): a hang leaves no trace unless hang detection (softlockup_panic, hung_task_panic) makes it a panic",
				c->t->kmajor, c->t->kminor);
		return;
	}
	v = size % (1ULL << 20) ? xasprintf("%lluK:2M:" PERSIST_NAME, size >> 10) :
	    xasprintf("%lluM:2M:" PERSIST_NAME, size >> 20);
	cmdline(c, "reserve_mem=", v, NULL,
		prog->persist_size ? &prog->persist_pos : NULL);
	cmdline(c, "trace_instance=", PERSIST_NAME "@" PERSIST_NAME, NULL,
		prog->persist_size ? &prog->persist_pos : NULL);
	plan_line(&c->arms_tail, "persist", 1, PERSIST_NAME);
	for (p = prog->probes; p; p = p->next) {
		char *f = xasprintf("instances/" PERSIST_NAME "/events/%s/%s/enable",
				    p->group, p->name);
		char *who = p->kind == P_EVENT ? xasprintf("%s:%s", p->group, p->name) :
			    xstrdup(p->name);

		arm(c, who, f, "1");
		free(f);
		free(who);
	}
	explain(c, "persist: every probe also goes into the persistent instance %s (kernel 6.12+: reserve_mem=%s trace_instance=%s@%s), which keeps its trace over a reset that keeps RAM (a hang, then QEMU's system_reset or a watchdog); the next boot's agent dumps the previous boot's trace first (stage previous) and empties the instance; the function tracer stays in the top buffer",
		PERSIST_NAME, v, PERSIST_NAME, PERSIST_NAME);
	free(v);
}

static void finish_cmdline(struct ctx *c)
{
	const struct name *n;
	struct strbuf v = { 0 };

	if (c->opts_cmdline.len)
		cmdline(c, "trace_options=", c->opts_cmdline.s, c->opts_uses, NULL);
	if (c->events.len)
		cmdline(c, "trace_event=", c->events.s, c->events_uses, NULL);
	if (c->kprobes.len)
		cmdline(c, "kprobe_event=", c->kprobes.s, c->kprobes_uses, NULL);
	if (c->triggers.len)
		cmdline(c, "trace_trigger=", c->triggers.s, c->triggers_uses, NULL);
	if (c->inst[0] && !c->bootconfig && kernel_at_least(c->t, 6, 3)) {
		/*
		 * trace_instance=NAME[,GROUP:EVENT...] (kernel/trace/trace.c
		 * boot_instance(), enable_instances() from trace_init());
		 * several trace_instance= add up, so persist's is its own.
		 */
		struct cmdline_use *u = xcalloc(1, sizeof(*u));
		char *v = c->inst_events.len ?
			  xasprintf("%s,%s", c->prog->instance, c->inst_events.s) :
			  xstrdup(c->prog->instance);

		u->pos = c->prog->instance_pos;
		u->bytes = strlen(c->prog->instance);
		u->next = c->inst_uses;
		cmdline(c, "trace_instance=", v, u, NULL);
		free(v);
	}
	if (c->bootconfig) {
		for (n = c->opts_bc; n; n = n->next)
			bc(c, "ftrace.options", n->s);
		for (n = c->opts_kernel; n; n = n->next)
			add_list(&v, n->s);
		if (v.len)
			bc(c, "kernel.trace_options", v.s);
		free(v.s);
		/* The kernel reads bootconfig from the initrd only when told to. */
		cmdline(c, "bootconfig", "", NULL, NULL);
	}
}

/*
 * One placement with at most @kprobe_limit kprobes on the command line;
 * *@nkprobes: how many went there.  @entry_len (NULL, or room for every
 * probe) gets the bytes of each one's kprobe_event= entry, in order.
 */
static struct placement *place_once(const struct program *prog,
				    const struct target *t, bool crash_default,
				    int kprobe_limit, int *nkprobes,
				    size_t *entry_len)
{
	struct placement *pl = xcalloc(1, sizeof(*pl));
	struct ctx c = { .prog = prog, .t = t, .pl = pl,
			 .crash_default = crash_default,
			 .kprobe_limit = kprobe_limit, .entry_len = entry_len };

	c.cmdline_tail = &pl->cmdline;
	c.explain_tail = &pl->explain;
	c.expects_tail = &c.expects;
	c.arms_tail = &c.arms;
	c.enables_tail = &c.enables;
	c.opts_uses_tail = &c.opts_uses;
	c.events_uses_tail = &c.events_uses;
	c.kprobes_uses_tail = &c.kprobes_uses;
	c.triggers_uses_tail = &c.triggers_uses;

	c.inst_uses_tail = &c.inst_uses;
	c.inst = "";
	c.bc_inst = "ftrace.";
	if (prog->instance) {
		c.inst = xasprintf("instances/%s/", prog->instance);
		c.bc_inst = xasprintf("ftrace.instance.%s.", prog->instance);
	}

	c.bootconfig = t->via == VIA_BOOTCONFIG;
	c.perf_stacks = t->stack_method == STACK_PERF ||
			(t->stack_method == STACK_AUTO && t->abi->quirks->kstack_perf);
	if (c.bootconfig) {
		/* check.c: kernel 5.6+, BOOT_CONFIG and BOOTTIME_TRACING not unset */
		pl->bootconfig = bc_new();
		if (!pl->bootconfig)
			fatal("out of memory");
	}
	explain(&c, "target: %s (%s ABI)%s, kernel %d.%d%s; kernel-side setup via %s, command line budget %d bytes",
		t->abi->arch, t->abi->abi, t->arch_default ? " [default]" : "",
		t->kmajor, t->kminor, t->version_default ? " [default]" : "",
		c.bootconfig ? "bootconfig" : "the command line", t->cmdline_max);
	if (t->boot_config >= 0)
		explain(&c, "config: BOOT_CONFIG %s, BOOTTIME_TRACING %s, HIST_TRIGGERS %s",
			t->boot_config ? "y" : "n", t->boottime_tracing ? "y" : "n",
			t->hist_triggers ? "y (stacks as bootconfig actions)" : "n (stacks as the agent's triggers)");

	if (prog->instance) {
		/* first in the plan: every line after it may use the instance */
		plan_line(&c.expects_tail, "instance", 1, prog->instance);
		explain(&c, "instance %s: probecc's events are enabled in %s, not in the top buffer, and the agent dumps that instance (so another tool's tracing neither mixes with them nor clears them); %s",
			prog->instance, c.inst,
			c.bootconfig ? "bootconfig ftrace.instance makes it at boot" :
			kernel_at_least(t, 6, 3) ? "trace_instance= makes it at boot (6.3+)" :
			"the agent makes it (mkdir) at /init: the kernel has no trace_instance= before 6.3");
	}

	/* first: the budget cuts from the end, and without it nothing runs */
	if (t->overlay) {
		cmdline(&c, "rdinit=", OVERLAY_INIT, NULL, NULL);
		explain(&c, "initrd: the agent is %s in the overlay; rdinit= starts it, and it execs the initrd's own /init",
			OVERLAY_INIT);
	}
	tracer(&c);
	settings(&c);
	probes(&c, nkprobes);
	persist(&c);
	finish_cmdline(&c);

	*c.expects_tail = c.arms;
	pl->plan = c.expects;
	if (prog->dump_raw_implied)
		explain(&c, "dump form: raw, since 'graph' is read from raw dumps only (a function_graph trace's text lines have no task or time); the dump line names no form ('text' there is an error with 'graph')");
	if (prog->window_ms)
		explain(&c, "dump: %s, before the real init, and again after a %u ms window of early userspace",
			prog->sink ? prog->sink : "console", prog->window_ms);
	else
		explain(&c, "dump: %s, before the real init",
			prog->sink ? prog->sink : "console");
	return pl;
}

/* Does the fragment of @pl fit the budget? */
static bool fits(const struct placement *pl, const struct target *t)
{
	return cmdline_len(pl) <= (size_t)t->cmdline_max;
}

/*
 * The most kprobes of the command line that fit, computed from the
 * fragment with all @n of them (@all) and with none, as the kprobe_event=
 * entries (@entry_len) add up: L(m) = L(0) + C + S(m) + m - 1, C the
 * parameter's own bytes, S(m) the first m entries, m - 1 ';'.  Checked
 * by two more placements (m fits, m + 1 does not); -1 when the check
 * fails, and place() searches instead.
 */
static int most_that_fit(const struct program *prog, const struct target *t,
			 bool cd, const struct placement *all, int n,
			 const size_t *entry_len)
{
	size_t none, sum = 0, c, at;
	int m, k;

	if (n < 1)
		return -1;
	none = cmdline_len(place_once(prog, t, cd, 0, &k, NULL));
	for (m = 0; m < n; m++)
		sum += entry_len[m];
	if (cmdline_len(all) < none + sum + n - 1)
		return -1;
	c = cmdline_len(all) - none - sum - (n - 1);
	if (none > (size_t)t->cmdline_max)
		return -1;	/* budget_check() refuses it: no shortcut */
	for (m = 0, sum = 0; m < n; m++) {
		at = none + c + sum + entry_len[m] + m;	/* with m + 1 entries */
		if (at > (size_t)t->cmdline_max)
			break;
		sum += entry_len[m];
	}
	if (m >= n || !fits(place_once(prog, t, cd, m, &k, NULL), t) ||
	    fits(place_once(prog, t, cd, m + 1, &k, NULL), t))
		return -1;
	return m;
}

/*
 * The placement with @cd (--crash-dump's default allowed on the command
 * line) and as many kprobes on the command line as fit; *@nk: how many.
 */
static struct placement *place_fit(const struct program *prog,
				   const struct target *t, bool cd, int *nk)
{
	struct placement *pl;
	struct probe *p;
	size_t *entry_len, nprobes = 0;
	int n = 0, limit;

	for (p = prog->probes; p; p = p->next)
		nprobes++;
	entry_len = xcalloc(nprobes + 1, sizeof(*entry_len));
	/*
	 * Every kprobe on the command line first; while the fragment is
	 * over budget, hand the last of them to the agent.
	 */
	pl = place_once(prog, t, cd, 1 << 30, &n, entry_len);
	if (!fits(pl, t)) {
		/*
		 * The fragment only shrinks as kprobes leave it.  The most
		 * that fit, from the entries' lengths (4 placements in all),
		 * else a binary search (log2(n) placements; one try per
		 * kprobe was quadratic: 2.8 s for 1000 kprobes,
		 * bench/README.md).
		 */
		int lo = 0, hi = n - 1, m;

		limit = most_that_fit(prog, t, cd, pl, n, entry_len);
		while (limit < 0 && lo < hi) {
			m = (lo + hi + 1) / 2;
			if (fits(place_once(prog, t, cd, m, &n, NULL), t))
				lo = m;
			else
				hi = m - 1;
		}
		if (limit < 0)
			limit = lo;
		pl = place_once(prog, t, cd, limit, &n, NULL);
	}
	free(entry_len);
	*nk = n;
	/* over the budget even without kprobes: budget_check() says so */
	return pl;
}

/*
 * --crash-dump's default (run-probes') yields to kprobes: on Malta's
 * 255 bytes its 20 would move a kprobe to the agent, which misses the
 * kernel's own boot; and it is left out of a fragment over the budget
 * anyway.  The file's own "crash dump" is placed first.
 */
struct placement *place(const struct program *prog, const struct target *t)
{
	struct placement *pl, *without;
	int with_n, without_n;

	pl = place_fit(prog, t, true, &with_n);
	if (prog->crash_dump || !t->crash_dump)
		return pl;
	without = place_fit(prog, t, false, &without_n);
	/* over the budget either way: the error names what the file needs */
	if (without_n > with_n || !fits(pl, t))
		return without;
	return pl;
}
