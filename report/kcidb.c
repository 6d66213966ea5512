// SPDX-License-Identifier: GPL-2.0
/*
 * --kcidb: the boot's results as KCIDB I/O JSON (kcidb-io schema 5.3,
 * tests/kcidb/), the form a KernelCI lab submits: one test object per
 * verdict under the path "boot.probecc":
 *   boot.probecc                  how the boot ended (the boot verdict)
 *   boot.probecc.complete_dump    the capture is complete evidence
 *   boot.probecc.expect.TEXT      one per expectation of the probe file
 *   boot.probecc.first_hit.PROBE  each probe's first hit, a number in s
 *   boot.probecc.initcall.FUNC    each finished initcall's time, in s
 * Status: PASS/FAIL; ERROR when the capture is no complete evidence (no
 * expectation can pass); MISS for the expectations when no dump came;
 * DONE for the timings.  Test ids are "probecc:NONCE.N" (the boot's
 * nonce: unique per boot), the build is --kcidb-build ID (the lab's
 * build of the kernel, "ORIGIN:..."), else "probecc:" and the kernel's
 * release.  The --kcidb-file artifacts are the output_files of
 * boot.probecc (of boot.probecc.complete_dump when the boot's end is
 * not known).
 */
#include <string.h>

#include "report-int.h"

/*
 * kcidb_file_check() - is @arg a --kcidb-file NAME=URL?  KCIDB's resource
 * (kcidb-io schema 5.3, $defs/resource): NAME of 1..255 bytes, no '/'; URL a
 * "uri" (RFC 3986: SCHEME ":" ..., the scheme a letter then letters,
 * digits, '+', '-', '.'), here also without spaces or control
 * characters, which a URI never holds unescaped.  Returns 0 or -1.
 */
int kcidb_file_check(const char *arg)
{
	const char *eq = strchr(arg, '='), *u, *p;

	if (!eq || eq == arg || eq - arg > 255 || memchr(arg, '/', eq - arg))
		return -1;
	u = eq + 1;
	if (!((*u >= 'a' && *u <= 'z') || (*u >= 'A' && *u <= 'Z')))
		return -1;
	p = u + strspn(u, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.");
	if (*p != ':' || !p[1])
		return -1;
	for (p = u; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return -1;
	return 0;
}

/* The --kcidb-file resources as "output_files" (none: nothing). */
static void output_files(FILE *f, const struct report *r)
{
	int i;

	if (!r->nkcidb_files)
		return;
	fprintf(f, ", \"output_files\": [");
	for (i = 0; i < r->nkcidb_files; i++) {
		const char *a = r->kcidb_files[i], *eq = strchr(a, '=');
		char name[256];

		snprintf(name, sizeof(name), "%.*s", (int)(eq - a), a);
		fprintf(f, "%s{\"name\": ", i ? ", " : "");
		json_string(f, name);
		fprintf(f, ", \"url\": ");
		json_string(f, eq + 1);
		fputc('}', f);
	}
	fputc(']', f);
}

/* KCIDB's path element rule ([a-zA-Z0-9_-]+): others as one '_'. */
static void path_elem(FILE *f, const char *s)
{
	int n = 0, under = 0;

	for (; *s && n < 80; s++) {
		char c = *s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '_') {
			fputc(c, f);
			under = c == '_';
			n++;
		} else if (!under && n) {
			fputc('_', f);
			under = 1;
			n++;
		}
	}
	if (!n)
		fputc('_', f);
}

struct kcidb_ctx {
	FILE *f;
	const struct report *r;
	int n;			/* tests written */
	const char *build;
};

/* The head of one test object, up to its status; the caller ends it. */
static void test_head(struct kcidb_ctx *k, const char *path, const char *elem,
		      const char *status)
{
	const struct dump *d = &k->r->d;

	fprintf(k->f, "%s\n    {\"origin\": \"probecc\", \"id\": ", k->n ? "," : "");
	{
		char id[64];

		snprintf(id, sizeof(id), "probecc:%s.%d", d->nonce[0] ? d->nonce : "none", k->n);
		json_string(k->f, id);
	}
	fprintf(k->f, ", \"build_id\": ");
	json_string(k->f, k->build);
	fprintf(k->f, ", \"path\": \"%s", path);
	if (elem) {
		fputc('.', k->f);
		path_elem(k->f, elem);
	}
	fprintf(k->f, "\", \"status\": \"%s\"", status);
	k->n++;
}

void kcidb_write(FILE *f, const struct report *r)
{
	const struct dump *d = &r->d;
	const struct expectation *e;
	struct kcidb_ctx k = { f, r, 0, NULL };
	char buf[1400], build[160];
	const char *why;
	int i, j;

	why = dump_incomplete_why(d, buf, sizeof(buf));
	if (r->kcidb_build) {
		k.build = r->kcidb_build;
	} else {
		size_t n = d->uname ? strcspn(d->uname, "\t") : 0;

		snprintf(build, sizeof(build), "probecc:%.*s", (int)n, n ? d->uname : "unknown");
		k.build = build;
	}
	fprintf(f, "{\"version\": {\"major\": 5, \"minor\": 3}, \"tests\": [");
	if (r->boot.known) {
		test_head(&k, "boot.probecc", NULL, r->boot.end == BOOT_CLEAN ? "PASS" : "FAIL");
		fprintf(f, ", \"misc\": {\"verdict\": ");
		json_string(f, boot_rows[r->boot.end].name);
		fprintf(f, ", \"message\": ");
		json_string(f, r->boot.msg);
		fputc('}', f);
		output_files(f, r);
		fputc('}', f);
	}
	test_head(&k, "boot.probecc.complete_dump", NULL, why ? "ERROR" : "PASS");
	if (!r->boot.known)
		output_files(f, r);	/* no boot verdict: on the dump's test */
	if (why) {
		fprintf(f, ", \"misc\": {\"message\": ");
		json_string(f, why);
		fputc('}', f);
	}
	fputc('}', f);
	for (i = 0, e = r->prog ? r->prog->expects : NULL; e; e = e->next, i++) {
		const char *st = !d->ndumps ? "MISS" : why ? "ERROR" :
				 r->verdicts[i].ok ? "PASS" : "FAIL";

		const char *t = e->text;

		if (!strncmp(t, "expect ", 7))
			t += 7;
		test_head(&k, "boot.probecc.expect", t, st);
		fprintf(f, ", \"comment\": ");
		json_string(f, e->text);
		fprintf(f, ", \"misc\": {\"message\": ");
		json_string(f, r->verdicts[i].why);
		fprintf(f, "}}");
	}
	for (i = 0; i < r->nnames; i++)
		for (j = 0; j < d->nhits; j++) {
			if (strcmp(d->hits[j].probe, r->names[i]))
				continue;
			test_head(&k, "boot.probecc.first_hit", r->names[i], "DONE");
			fprintf(f, ", \"number\": {\"value\": %.6f, \"unit\": \"s\", \"prefix\": \"metric\"}}",
				d->hits[j].ts);
			break;
		}
	for (i = 0; i < r->nics; i++) {
		const struct initcall *ic = &r->ics[i];

		if (ic->end < 0)
			continue;
		test_head(&k, "boot.probecc.initcall", ic->func, "DONE");
		fprintf(f, ", \"number\": {\"value\": %.6f, \"unit\": \"s\", \"prefix\": \"metric\"}}",
			ic->end - ic->start);
	}
	fprintf(f, "\n]}\n");
}
