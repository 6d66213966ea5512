/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dumpread-local.h - the dump reader's parts, shared among dumpread/
 * only (the report reads dumpread.h; tests/layers.py refuses an include
 * of this header from another folder).  See dumpread.h for the files.
 */
#ifndef PROBECC_DUMPREAD_LOCAL_H
#define PROBECC_DUMPREAD_LOCAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "dumpframe.h"
#include "dumpread.h"
#include "strmap.h"

/* ---- frame.c ---- */

/* One dump of the capture as frame.c read it. */
enum frame_state { FRAME_COMPLETE, FRAME_CUT, FRAME_DAMAGED };
struct framed {
	unsigned int n;		/* its number in the boot: 1 init, 2 window */
	char nonce[DUMP_FRAME_NONCE_LEN + 1];
	char *body;		/* the chunks' data joined, NUL-terminated */
	size_t body_len;
	unsigned int chunks;	/* chunks read and checked */
	enum frame_state state;
	char *why;		/* not complete: what went wrong (dr_why()) */
};

/*
 * text_nul() - where the dump body @body (@len bytes, NUL-terminated
 * after them) holds a NUL byte, or -1 when it holds none: the agent
 * copies tracefs text, which never holds one (the kernel's %s stops
 * there), and every reader's string would end at it, the rest of the dump
 * unread.  A raw dump's records after its "--- raw ---" line are binary.
 */
long text_nul(const char *body, size_t len);

/* Every dump of a capture (frames_read()). */
struct frames {
	struct framed *d;
	int n, cap;
	int stray;		/* frame lines not taken (no nonce, another's) */
	char *stray_why;	/* the first of them, "line N: ..." (dr_why()) */
	bool any;		/* a line looked like a frame */
};

void frames_read(const char *text, size_t len, struct frames *f);

/* frame64.c */
char *frames_unb64(const char *text, size_t *len);

/* ---- errors ---- */

/* Set @e to @code and the particulars (dr_why()); returns -1. */
int dr_error(struct dumpread_error *e, enum dumpread_errno code,
	     const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * dr_why() - the one way the reader keeps a reason: *@why becomes the
 * formatted text, malloc'd (the old one freed), never cut to a size.
 */
void dr_why(char **why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dr_vwhy(char **why, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* ---- rawdump.c: a raw dump's records, checked ---- */

#define RAW_MARK	"--- raw ---\n"
#define RAW_SIZE_MAX	(1 << 20)	/* a rawz piece inflates to at most this */
#define RAW_NAME_MAX	255		/* bytes of a record's name */
#define RAW_TOTAL_MAX	(256 << 20)	/* rawz records inflate to at most this, all told */
#define MAX_CPUS	4096

struct rawfile {
	char *name;
	char *data;		/* len bytes, then a NUL (append()) */
	size_t len, cap;
	unsigned int dump;	/* the dump it last came from */
};

struct rawset {
	struct rawfile *f;
	int n, cap;
	struct strmap names;	/* name -> index in f, plus 1 */
	int dumps;		/* dumps that had a raw body */
	size_t inflated;	/* bytes of rawz records inflated */
	char *why;		/* the first record cut or refused (dr_why()) */
	char *now;		/* the last one */
	unsigned int *need;	/* 65536 entries: formats_need() */
	unsigned char used[65536 / 8];	/* the common_types the pages hold */
};

/*
 * The target's ring-buffer page, from its events/header_page
 * (kernel/trace/ring_buffer.c: ring_buffer_print_page_header()).
 */
struct page_layout {
	unsigned int long_size;	/* the commit field: a local_t */
	unsigned int commit_off;
	unsigned int data_off;	/* the events start here */
	unsigned int page_size;	/* data_off + the data field's size */
	bool big_endian;
	const unsigned int *need;	/* per common_type, or NULL: formats_need() */
};

int raw_collect(const char *text, size_t len, bool complete_only,
		struct rawset *rs, struct page_layout *pl, FILE *info,
		struct dumpread_error *e);
void rawset_free(struct rawset *rs);
bool is_cpu_data(const char *name);
bool dec_num(const char *s, size_t n, unsigned long long max,
	     unsigned long long *v);
bool format_unused(const struct rawfile *f, const unsigned char *used, int *noid);
struct rawfile *rawfile(struct rawset *rs, const char *name);
void raw_say(FILE *info, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- printfmt.c ---- */
int printfmt_check(const char *args, size_t len, char *why, size_t size);

/* ---- decode.c: the pages into events, in process ---- */

/*
 * The events of the checked raw dumps @rs (@pl their layout) decoded
 * into @d's hits and clock marks (@d NULL: decoded and dropped, a check
 * that libtraceevent reads them).  0, or -1 with @e set.
 */
int raw_decode(const struct rawset *rs, const struct page_layout *pl,
	       struct dump *d, struct dumpread_error *e);
const char *child_status(int status, char *buf, size_t size);
int child_call(int (*fn)(void *arg), void *arg, unsigned int seconds,
	       int *status, struct errmsg *e);

/* ---- timebase.c ---- */
void timebase_of(const char *body, unsigned int n, struct timebase *tb);
bool clock_mark(struct dump *d, const char *msg, double ts);
bool notrace_mark(struct dump *d, const char *msg, double ts, long by);
void timebase_apply(struct dump *d);

/* Append a copy of @h to @d's hits. */
static inline void add_hit(struct dump *d, const struct hit *h)
{
	ALLOC_GROW(d->hits, d->nhits + 1, d->cap);
	d->hits[d->nhits++] = *h;
}

#endif
