/* SPDX-License-Identifier: GPL-2.0 */
/*
 * track.h - every heap allocation of the code under fuzz, recorded so
 * that a harness can free what one input left behind (tests/fuzz/).
 *
 * The compiler's, the report's and the agent's data (tokens, programs,
 * placements, dumps, plan items) live until their program exits, and
 * have no free functions: a fuzzer runs them millions of times in one
 * process, so the leak of each run would grow without bound.  The fuzz
 * builds compile the code under test with "-include tests/fuzz/track.h",
 * which routes malloc, calloc, realloc, free, strdup, strndup and
 * vasprintf through trk_*(): each block is still a real malloc() block
 * (ASan sees every overflow and use after free as before), and
 * trk_release() frees the blocks still live since trk_begin().  A block
 * the C library allocated itself (open_memstream's buffer) and the code
 * frees is handed to the real free().
 *
 * Only the fuzz builds include it; the programs never do.
 */
#ifndef PROBECC_FUZZ_TRACK_H
#define PROBECC_FUZZ_TRACK_H

/*
 * No header of the C library here: this file comes before the source's
 * own "#define _GNU_SOURCE".  <stdlib.h> and <string.h>, included after
 * it, declare trk_malloc() and the others under the macros below, with
 * the same types.
 */
#include <stdarg.h>
#include <stddef.h>

void *trk_malloc(size_t n);
void *trk_calloc(size_t n, size_t size);
void *trk_realloc(void *p, size_t n);
void trk_free(void *p);
char *trk_strdup(const char *s);
char *trk_strndup(const char *s, size_t n);
int trk_vasprintf(char **out, const char *fmt, va_list ap);
int trk_asprintf(char **out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Start recording (blocks allocated before are never freed here). */
void trk_begin(void);
/* Free every recorded block still live, stop recording. */
void trk_release(void);

#ifndef TRK_IMPL
#define malloc(n)		trk_malloc(n)
#define calloc(n, s)		trk_calloc(n, s)
#define realloc(p, n)		trk_realloc(p, n)
#define free(p)			trk_free(p)
#define strdup(s)		trk_strdup(s)
#define strndup(s, n)		trk_strndup(s, n)
#define vasprintf(o, f, a)	trk_vasprintf(o, f, a)
#define asprintf		trk_asprintf
#endif

#endif
