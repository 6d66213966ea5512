/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report-int.h - the report's parts, shared among report/ only:
 *
 *   dump.c         the raw capture -> struct dump (frames, manifest lines,
 *                  trace hits, perf samples joined to hits, frames named)
 *   expect.c       one verdict per "expect" line of the probe file
 *   text.c         the report for a person (stdout)
 *   json.c, folded.c, svg.c, junit.c
 *                  one machine output each, written to a FILE *
 *   report-main.c  the command line, loading, the outputs staged together
 *
 * All state is in struct report, passed down: no globals.  Arrays grow
 * as needed; nothing is cut at a fixed count.
 */
#ifndef PROBECC_REPORT_INT_H
#define PROBECC_REPORT_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "common.h"
#include "compiler.h"
#include "kernel.h"

struct hit {
	char *probe;		/* event name, or the traced function */
	char *task;
	double ts;		/* seconds since boot */
	char *args;		/* the body after "NAME: " ("" for functions) */
	char *parent;		/* function tracer: the caller after "<-" */
	char **frames;		/* the <stack trace>, innermost first */
	int nframes, capframes;
	bool stack;		/* a <stack trace> followed */
	bool perf;		/* frames are a perf callchain */
};

/* A "perf" line: one sample of a probe with its kernel callchain. */
struct sample {
	char *probe;
	double ts;		/* seconds, perf's clock (local_clock) */
	long pid;
	unsigned long long *addrs;
	int n;
};

/* A "module" line: where a module's core and code sections were. */
struct module {
	char *name;
	unsigned long long base, size;
	char **secs;		/* code section names ... */
	unsigned long long *secaddr;	/* ... and addresses in that boot */
	int nsecs;
	struct ko_sym *syms;	/* from --modules; NULL: none */
	size_t nsyms;
	bool loaded;		/* syms looked up */
};

struct dump {
	int ndumps;		/* complete dumps (begin and end frames) */
	int ncut;		/* dumps begun and never ended */
	bool unframed;		/* no frames: the file is one dump */
	double init_time;	/* uptime of userspace start; -1: unknown */
	struct strbuf items;	/* "item" lines of the last dump */
	struct strbuf cpus;	/* "cpu" lines of the last dump */
	char *uname;
	struct hit *hits;
	int nhits, cap;
	struct sample *samples;
	int nsamples, capsamples, unmatched;
	struct module *mods;
	int nmods, capmods;
	unsigned long long stext;	/* "stext": _stext in that boot; 0: unknown */
};

/* One verdict per expectation, computed once. */
struct verdict {
	bool ok;
	char why[256];
};

struct report {
	/* the command line */
	const char *dumppath, *probes, *json, *folded, *svg, *junit;
	const char *sysmap, *target, *vmlinux, *modules_dir;

	struct kernel *k;		/* NULL: no kernel symbols */
	unsigned long long kaslr;	/* the boot's _stext minus the symbols' */
	struct program *prog;		/* NULL: no --probes */
	struct dump d;

	const char **names;		/* distinct probes, in order of first hit */
	int nnames;
	struct verdict *verdicts;	/* one per prog->expects */
	int nexp, failed;
};

/* dump.c */
void *xrealloc_array(void *p, size_t n, size_t size);
bool dump_evidence(const struct dump *d);
bool dump_complete(const struct dump *d);
void dump_read(struct report *r, char *text);
void dump_probe_names(struct report *r);

/* expect.c */
void expect_all(struct report *r);

/* text.c */
void text_write(FILE *out, const struct report *r);
void text_summary(FILE *out, const struct report *r);

/* json.c, folded.c, svg.c, junit.c */
void json_write(FILE *f, const struct report *r);
void folded_write(FILE *f, const struct report *r);
void svg_write(FILE *f, const struct report *r);
void junit_write(FILE *f, const struct report *r);
void xml_escaped(FILE *f, const char *s);

#endif
