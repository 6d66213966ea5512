// SPDX-License-Identifier: GPL-2.0
/*
 * lava.c - LAVA test-case signals on the console (docs/lava.md, "Test
 * cases"): when the kernel's command line has probecc_signals=lava (an
 * unknown NAME=VALUE the kernel passes to init's environment,
 * init/main.c unknown_bootoption(); qemu-images/lava-job adds it), each
 * dump is followed, before its end line, by lines
 *
 *   <LAVA_SIGNAL_TESTCASE TEST_CASE_ID=ID RESULT=R MEASUREMENT=N UNITS=U>
 *
 * which the LAVA job's monitor turns into test cases: after the init
 * dump one per plan item (item_PROBE_FILE, pass when armed or already
 * there, fail when failed or missing), after every dump the hits of each
 * kprobe and uprobe event the kernel counts (tracefs kprobe_profile:
 * "NAME HITS MISSED", kernel/trace/trace_kprobe.c
 * probes_profile_seq_show(); uprobe_profile: "FILE EVENT HITS",
 * kernel/trace/trace_uprobe.c probes_profile_seq_show()) and the dump's
 * bytes and milliseconds.  Every signal has a measurement and units:
 * lava-server's results table keeps units NOT NULL.  Between the last
 * chunk and the end line they are text outside the frames, which the
 * reader skips (docs/plan.md, "Dump framing"); before the end line, so
 * that the job's end pattern (the last dump's end) comes after them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"

/*
 * A case id LAVA keeps as it is: LAVA's results name a case by its id
 * lower-cased with each run of non-word characters as '_'
 * (lava_dispatcher's monitor; shared notes, "Results"), so the agent
 * writes that form itself: [a-z0-9_], at most LAVA_ID_MAX bytes.
 */
#define LAVA_ID_MAX 96

/* @s into @id (LAVA_ID_MAX + 1): lower case, each other byte as '_'. */
static void case_id(char *id, const char *s)
{
	size_t n, k = 0;

	for (n = 0; s[n] && k < LAVA_ID_MAX; n++) {
		char c = s[n];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
			c = '_';
		if (c == '_' && k && id[k - 1] == '_')
			continue;	/* a run as one, as LAVA does */
		id[k++] = c;
	}
	id[k] = '\0';
}

static void signal_line(int fd, const char *name, const char *result,
			const char *measurement, const char *units)
{
	char id[LAVA_ID_MAX + 1], line[LAVA_ID_MAX + 160];
	int k;

	case_id(id, name);
	k = snprintf(line, sizeof(line),
		     "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=%s RESULT=%s MEASUREMENT=%s UNITS=%s>\n",
		     id, result, measurement, units);
	if (k > 0 && (size_t)k < sizeof(line))
		write_all(fd, line, k);
}

/* One signal per line of tracefs/@file: @fields 3, the hits are field @hf. */
static void profile_signals(const struct agent *a, int fd, unsigned int dump,
			    const char *file, const char *kind, int hf)
{
	char path[AGENT_PATH_MAX], line[512], *f[3], name[300];
	FILE *p;

	if (path_join(path, sizeof(path), a->tracefs, file) ||
	    !(p = fopen(path, "re")))
		return;
	while (fgets(line, sizeof(line), p)) {
		char *s = line;
		int i;

		/* (next_word(), not scanf: util.c says why) */
		for (i = 0; i < 3 && (f[i] = next_word(&s)) && strlen(f[i]) < 256; i++)
			;
		if (i < 3 || strspn(f[hf], "0123456789") != strlen(f[hf]))
			continue;
		/* kprobe: NAME HITS MISSED; uprobe: FILE EVENT HITS */
		snprintf(name, sizeof(name), "dump%u_%s_%s", dump, kind,
			 hf == 1 ? f[0] : f[1]);
		signal_line(fd, name, "pass", f[hf], "hits");
	}
	fclose(p);
}

/*
 * lava_signals() - the signals of the dump being written on @o (its
 * chunks flushed first), begun @us0 microseconds after the agent's
 * start; on the console when the sink is another device.  Nothing when
 * the kernel did not ask (a->lava_signals).
 */
void lava_signals(struct agent *a, struct out *o, long long us0)
{
	char name[LAVA_ID_MAX + 64], num[32];
	long long us;
	size_t i;
	int fd = o->fd, own = 0;

	if (!a->lava_signals || a->previous)
		return;
	out_flush(o);
	if (a->sink_override[0] || strcmp(a->sink, "console")) {
		char path[AGENT_PATH_MAX];

		if (rooted(a, path, sizeof(path), "/dev/console") ||
		    (fd = open(path, O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC)) < 0)
			return;
		own = 1;
	}
	if (o->dump == 1)
		for (i = 0; i < a->n_items; i++) {
			const char *s = a->items[i].state;
			int ok = !strcmp(s, "ok") || !strcmp(s, "armed") ||
				 !strcmp(s, "armed-late");

			snprintf(name, sizeof(name), "item_%s_%s", a->items[i].probe,
				 a->items[i].file);
			signal_line(fd, name, ok ? "pass" : "fail", ok ? "1" : "0", "armed");
		}
	if (a->tracefs[0]) {
		profile_signals(a, fd, o->dump, "kprobe_profile", "hits", 1);
		profile_signals(a, fd, o->dump, "uprobe_profile", "uhits", 2);
	}
	snprintf(name, sizeof(name), "dump%u_bytes", o->dump);
	snprintf(num, sizeof(num), "%llu", o->bytes);
	signal_line(fd, name, "pass", num, "bytes");
	us = agent_us(a) - us0;
	snprintf(name, sizeof(name), "dump%u_ms", o->dump);
	snprintf(num, sizeof(num), "%lld.%03lld", us / 1000, us % 1000);
	signal_line(fd, name, "pass", num, "ms");
	if (own)
		close(fd);
}
