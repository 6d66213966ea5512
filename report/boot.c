// SPDX-License-Identifier: GPL-2.0
/*
 * How the boot ended: one verdict from the console log (--console), the
 * boot runner's own word (--boot-end: what qemu-images/boot saw), the
 * command line the boot was given (--append) and the dumps.  The table
 * below is the one list of verdicts and of the exit statuses that
 * `probecc report --console` and qemu-images/run-probes give them.
 *
 * The console is read as the kernel prints it:
 *   panic()          "Kernel panic - not syncing: MSG" (kernel/panic.c)
 *   PID 1's exit     "Attempted to kill init! exitcode=0x%08x"
 *                    (kernel/exit.c, do_exit() -> panic())
 *   an oops          "STR[#N]:" on MIPS (arch/mips/kernel/traps.c
 *                    __die()), "STR: %04lx [#N] ..." on x86
 *                    (arch/x86/kernel/dumpstack.c __die_header()),
 *                    "Internal error: STR: %016lx [#N] ..." on arm64
 *   the task         "CPU: N PID: P Comm: C ..." (lib/dump_stack.c)
 *   where            "epc   : ADDR SYM" (MIPS show_regs()), "RIP:
 *                    SEG:SYM" (x86 show_ip()), "pc : SYM" (arm64)
 *   its stack        the lines after "Call Trace:" (MIPS "[<ADDR>] SYM",
 *                    x86 " SYM", " ? SYM" for a guess, which is left out)
 * and the line qemu-images/rc/run-rc prints when the user's rc script
 * ends: "probecc-rc: exit STATUS".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report-int.h"

const struct boot_row boot_rows[BOOT_NR] = {
	[BOOT_CLEAN] = { "clean", 0,
		"the guest powered off after its last dump (with --until, showed what the job waited for)" },
	[BOOT_HANG] = { "hang", 3,
		"no poweroff within the timeout, or a reset after no progress: QEMU stopped" },
	[BOOT_PANIC] = { "panic", 4,
		"the kernel panicked: its message, task, EPC/RIP and stack" },
	[BOOT_QEMU] = { "qemu", 5,
		"QEMU would not start or exited with an error" },
	[BOOT_REBOOT] = { "reboot", 6,
		"QEMU ended without the kernel's \"reboot: Power down\" (a reboot or halt)" },
	[BOOT_NO_DUMP] = { "no-dump", 7,
		"the boot ended without one complete dump of the agent" },
	[BOOT_CMDLINE_CUT] = { "cmdline-cut", 8,
		"the kernel's /proc/cmdline does not end with the command line given (cut by the firmware)" },
	[BOOT_INIT_EXITED] = { "init-exited", 9,
		"the real init (PID 1) ended: the kernel's \"Attempted to kill init\", with its exit status" },
	[BOOT_OOPS] = { "oops", 10,
		"the kernel oopsed without a panic; the boot was ended" },
	[BOOT_WINDOW_MISSING] = { "window-missing", 11,
		"the probe file asks for a window dump and none arrived complete" },
	[BOOT_RC_FAILED] = { "rc-failed", 12,
		"the user's rc script (run-probes --rc) ended with a status other than 0" },
};

/* The words of qemu-images/boot's verdicts and what each makes here. */
static const struct {
	const char *word;
	enum boot_end end;
} runner_words[] = {
	{ "poweroff", BOOT_CLEAN },
	{ "until", BOOT_CLEAN },
	{ "timeout", BOOT_HANG },
	{ "reset", BOOT_HANG },
	{ "panic", BOOT_PANIC },
	{ "oops", BOOT_OOPS },
	{ "qemu", BOOT_QEMU },
	{ "reboot", BOOT_REBOOT },
};

/* How many of the console's last lines the verdict keeps. */
#define BOOT_TAIL 20

/*
 * boot_runner_word() - 0 when @word is one qemu-images/boot gives
 * (poweroff, until, timeout, reset, panic, oops, qemu, reboot), -EINVAL
 * otherwise.
 */
int boot_runner_word(const char *word)
{
	size_t i;

	for (i = 0; i < sizeof(runner_words) / sizeof(runner_words[0]); i++)
		if (!strcmp(word, runner_words[i].word))
			return 0;
	return -EINVAL;
}

/* The text after @key in @t, up to @stop (a set of bytes), as a new string. */
static char *field_after(const char *t, const char *key, const char *stop)
{
	const char *p = strstr(t, key);

	if (!p)
		return NULL;
	p += strlen(key);
	p += strspn(p, " ");
	return xstrndup(p, strcspn(p, stop));
}

/* One frame of a "Call Trace:" block, or NULL for a guess or a marker. */
static char *trace_frame(const char *t)
{
	const char *p = t + strspn(t, " \t");

	if (*p == '?' || *p == '<' || !*p)	/* " ? guess", "<TASK>" */
		return NULL;
	if (*p == '[' && p[1] == '<') {		/* MIPS: "[<80123456>] sym+0x0/0x10" */
		const char *e = strstr(p, ">]");

		if (!e)
			return NULL;
		p = e + 2;
		p += strspn(p, " ");
	}
	return *p ? xstrndup(p, strcspn(p, " \t")) : NULL;
}

/*
 * The death: from the first oops header or panic line, the task, the
 * program counter and the first "Call Trace:" block after it.
 */
static void death_details(struct boot *b, char **lines, int n, int from)
{
	bool in_trace = false, traced = false;
	double ts;
	int i;

	for (i = from; i < n; i++) {
		const char *t = dumpread_printk_text(lines[i], &ts);
		char *f;

		if (in_trace) {
			/* frames are indented (x86) or "[<ADDR>]" (MIPS) */
			if (!*t || !strchr(" \t[<", *t) || strstr(t, "</TASK>")) {
				in_trace = false;
				traced = true;
			} else {
				f = trace_frame(t);
				if (f)
					push_str(&b->stack, &b->nstack, &b->capstack, f);
				continue;
			}
		}
		if (!b->task[0] && !strncmp(t, "CPU: ", 5) && strstr(t, " Comm: ")) {
			char *pid = field_after(t, "PID:", " ");
			char *comm = field_after(t, "Comm:", " ");

			snprintf(b->task, sizeof(b->task), "%s-%s", comm ? comm : "?", pid ? pid : "?");
			free(pid);
			free(comm);
		} else if (!b->pc[0] && (!strncmp(t, "epc   : ", 8) || !strncmp(t, "RIP: ", 5) ||
					 !strncmp(t, "pc : ", 5))) {
			const char *v = strchr(t, ':') + 1;

			v += strspn(v, " ");
			snprintf(b->pc, sizeof(b->pc), "%s", v);
		} else if (!traced && !strncmp(t, "Call Trace:", 11)) {
			in_trace = true;
		}
	}
}

/* Keep the console's last BOOT_TAIL non-empty lines, printk time included. */
static void keep_tail(struct boot *b, char **lines, int n)
{
	int i, first = n;
	int kept = 0;

	while (first > 0 && kept < BOOT_TAIL) {
		first--;
		if (lines[first][strspn(lines[first], " \r")])
			kept++;
	}
	for (i = first; i < n; i++) {
		char *l = lines[i];
		size_t len = strlen(l);

		while (len && (l[len - 1] == '\r' || l[len - 1] == '\n'))
			l[--len] = '\0';
		if (*l)
			push_str(&b->tail, &b->ntail, &b->captail, xstrdup(l));
	}
}

/* Read the console log @text into what it says of the boot's end. */
static void read_console(struct boot *b, char *text)
{
	char **lines = NULL, *line, *save = NULL;
	int n = 0, cap = 0, i, death = -1;
	double ts;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		push_str(&lines, &n, &cap, line);
	keep_tail(b, lines, n);
	for (i = 0; i < n; i++) {
		/* (its "\r" dropped in place: death_details() reads it so too) */
		const char *t = dumpread_printk_text(lines[i], &ts);
		const char *p;

		if (!b->poweroff && strstr(t, "reboot: Power down"))
			b->poweroff = true;
		if (!strncmp(t, "probecc-rc: exit ", 17) &&
		    strspn(t + 17, "0123456789") == strlen(t + 17) && t[17] && strlen(t + 17) < 4)
			b->rc_status = atoi(t + 17);
		if (!b->oops && dumpread_oops_header(t)) {
			b->oops = true;
			snprintf(b->oops_msg, sizeof(b->oops_msg), "%s", t);
			if (death < 0) {
				death = i;
				b->time = ts;
			}
		}
		if (!b->panic && (p = strstr(t, "Kernel panic - not syncing: "))) {
			b->panic = true;
			snprintf(b->panic_msg, sizeof(b->panic_msg), "%s", p + 28);
			if (death < 0) {
				death = i;
				b->time = ts;
			}
		}
	}
	if (death >= 0)
		death_details(b, lines, n, death);
	free(lines);
}

/*
 * The last dump's "cmdline" ends with @want, blanks at its end aside
 * (firmware puts words in front; @want is trimmed by the report).
 */
static bool cmdline_whole(const char *got, const char *want)
{
	size_t g = strlen(got), w = strlen(want);

	while (g && strchr(" \t\r\n", got[g - 1]))
		g--;
	/* an empty --append gave the kernel nothing that could be cut */
	if (!w)
		return true;
	return g >= w && !strncmp(got + g - w, want, w) && (g == w || got[g - w - 1] == ' ');
}

/*
 * boot_decide() - r->boot from r->console_text, r->boot_end, r->append
 * and the dumps read into r->d (dump_read() first).  The first that
 * holds: QEMU failed; PID 1 exited; a panic; an oops; the runner's
 * timeout or reset; a reboot; no dump; no window dump; the command line
 * cut; the rc script's status not 0; else clean.
 */
void boot_decide(struct report *r)
{
	struct boot *b = &r->boot;
	const struct dump *d = &r->d;
	enum boot_end runner = BOOT_CLEAN;
	size_t i;

	b->known = true;
	b->time = -1;
	b->rc_status = -1;
	if (r->console_text)
		read_console(b, r->console_text);
	for (i = 0; r->boot_end && i < sizeof(runner_words) / sizeof(runner_words[0]); i++)
		if (!strcmp(r->boot_end, runner_words[i].word))
			runner = runner_words[i].end;

	if (runner == BOOT_QEMU) {
		b->end = BOOT_QEMU;
		snprintf(b->msg, sizeof(b->msg), "QEMU failed (qemu-images/boot: qemu)");
	} else if (b->panic && !strncmp(b->panic_msg, "Attempted to kill init! exitcode=0x", 35)) {
		unsigned long code = strtoul(b->panic_msg + 35, NULL, 16);

		b->end = BOOT_INIT_EXITED;
		if (code & 0x7f) {
			b->init_status = -1;
			snprintf(b->msg, sizeof(b->msg), "the real init (PID 1) was killed by signal %lu: %s",
				 code & 0x7f, b->panic_msg);
		} else {
			b->init_status = (int)(code >> 8 & 0xff);
			snprintf(b->msg, sizeof(b->msg), "the real init (PID 1) exited with status %d: %s",
				 b->init_status, b->panic_msg);
		}
	} else if (b->panic || runner == BOOT_PANIC) {
		b->end = BOOT_PANIC;
		snprintf(b->msg, sizeof(b->msg), "kernel panic: %s",
			 b->panic ? b->panic_msg : "(no message in the console log)");
	} else if (b->oops || runner == BOOT_OOPS) {
		b->end = BOOT_OOPS;
		snprintf(b->msg, sizeof(b->msg), "kernel oops: %s",
			 b->oops ? b->oops_msg : "(no message in the console log)");
	} else if (runner == BOOT_HANG) {
		b->end = BOOT_HANG;
		snprintf(b->msg, sizeof(b->msg), "no poweroff: %s (the last console line: %s)",
			 !strcmp(r->boot_end, "reset") ? "reset after no progress" :
			 "still running at the timeout, QEMU killed",
			 b->ntail ? b->tail[b->ntail - 1] : "none");
	} else if (runner == BOOT_REBOOT) {
		b->end = BOOT_REBOOT;
		snprintf(b->msg, sizeof(b->msg), "QEMU ended without \"reboot: Power down\"");
	} else if (!d->ndumps && !d->unframed) {
		b->end = BOOT_NO_DUMP;
		snprintf(b->msg, sizeof(b->msg), "no complete dump%s%s",
			 d->ncut ? ": " : "", d->ncut ? dr_text(d->why) : "");
	} else if (window_missing(r)) {
		b->end = BOOT_WINDOW_MISSING;
		/*
		 * A poweroff with no "probecc-rc: exit" line: the workload
		 * powered off before rc/run-rc could wait for the window dump
		 * (qemu-images/rc/run-rc), the likely cause under run-probes.
		 */
		snprintf(b->msg, sizeof(b->msg),
			 "the probe file asks for a window dump (window %u ms); the last complete dump is the init dump%s%s%s",
			 r->prog->window_ms, d->ncut ? "; " : "", d->ncut ? dr_text(d->why) : "",
			 b->poweroff && b->rc_status < 0 ?
			 "; it powered off with no \"probecc-rc: exit\" line: likely the --rc script or init powered off before the window ended (rc/run-rc waits for the window dump, then powers off)" : "");
	} else if (r->append_text && !cmdline_whole(d->cmdline ? d->cmdline : "", r->append_text)) {
		b->end = BOOT_CMDLINE_CUT;
		snprintf(b->msg, sizeof(b->msg), "the kernel got \"%s\", not the whole command line",
			 d->cmdline ? d->cmdline : "");
	} else if (b->rc_status > 0) {
		b->end = BOOT_RC_FAILED;
		snprintf(b->msg, sizeof(b->msg), "the rc script exited with status %d", b->rc_status);
	} else {
		b->end = BOOT_CLEAN;
		snprintf(b->msg, sizeof(b->msg), "%s%s",
			 r->boot_end && !strcmp(r->boot_end, "until") ?
			 "the job's --until matched after the last dump" : "clean poweroff after the last dump",
			 b->rc_status == 0 ? "; the rc script exited with status 0" : "");
	}
	/* the death named when the console had one, whatever decided */
	if (b->end != BOOT_PANIC && b->end != BOOT_INIT_EXITED && b->end != BOOT_OOPS) {
		b->nstack = 0;
		b->task[0] = b->pc[0] = '\0';
	}
}

/*
 * window_missing() - the probe file asks for a window dump and the last
 * complete dump is the init dump: what was armed after it and what was
 * lost in the window are not known.
 */
bool window_missing(const struct report *r)
{
	const struct dump *d = &r->d;

	return r->prog && r->prog->window_ms && (d->ndumps || d->unframed) &&
	       d->stage && !strcmp(d->stage, "init");
}

/* boot_rows_print() - the table of verdicts and statuses, for --help texts. */
void boot_rows_print(FILE *f)
{
	int i;

	fprintf(f, "  0  clean, every expectation holds\n"
		   "  1  clean, an expectation failed\n"
		   "  2  bad usage; a report input unreadable; the dump no complete evidence\n");
	for (i = 3; i <= 12; i++) {
		int j;

		for (j = 0; j < BOOT_NR; j++)
			if (boot_rows[j].status == i)
				fprintf(f, "  %-2d %s: %s\n", i, boot_rows[j].name, boot_rows[j].what);
	}
}

/*
 * boot_last_events() - the index of the first of the last @n hits at or
 * before the death's time (all hits when it is not known): "the last
 * events before it".
 */
int boot_last_events(const struct report *r, int n)
{
	int end = r->d.nhits;

	if (r->boot.time >= 0)
		while (end > 0 && r->d.hits[end - 1].ts > r->boot.time)
			end--;
	return end > n ? end - n : 0;
}
