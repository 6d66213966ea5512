// SPDX-License-Identifier: GPL-2.0
/*
 * What the harnesses share: see fuzz.h.  Built twice: alone for every
 * harness, and with -DFUZZ_REPORT (the report's parts too, which need
 * compiler/ and report/) for the report's harnesses.
 */
#define _GNU_SOURCE	/* fopencookie, memmem */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sanitizer/lsan_interface.h>

#include "dumpframe.h"
#include "fuzz.h"
#ifdef FUZZ_REPORT
#include "compiler.h"
#include "report-int.h"
#endif

/*
 * libFuzzer calls it once before the first input: the code's stderr
 * (diagnostics, byte by byte in diag.c's caret lines) fully buffered,
 * not a write(2) per byte; fuzz_fail() flushes it before abort().
 */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static char buf[1 << 16];

	(void)argc;
	(void)argv;
	setvbuf(stderr, buf, _IOFBF, sizeof(buf));
	return 0;
}

void fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("fuzz: oracle: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	abort();
}

FILE *fuzz_null(void)
{
	static FILE *null;

	if (!null)
		null = fopen("/dev/null", "w");
	if (!null)
		fuzz_fail("cannot open /dev/null");
	return null;
}

/* The top of the tree: two levels above the harness (tests/fuzz/fuzz-T). */
static const char *top(void)
{
	static char dir[PATH_MAX];
	ssize_t n;
	int i;

	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	if (n < 0)
		fuzz_fail("/proc/self/exe: %s", strerror(errno));
	dir[n] = '\0';
	/* three components off: fuzz-T, fuzz, tests */
	for (i = 0; i < 3; i++) {
		char *slash = strrchr(dir, '/');

		if (!slash || slash == dir)
			fuzz_fail("%s: not tests/fuzz/ of a tree", dir);
		*slash = '\0';
	}
	return dir;
}

static char tmpdir[PATH_MAX];

/*
 * The directory is made by a child that then waits for the end of a
 * pipe whose only writer is the harness (O_CLOEXEC: no program it runs
 * holds it) and removes the directory when that end closes, however the
 * harness ended: exit, abort() after a sanitizer's report (no atexit
 * handler runs then, nor after libFuzzer's _Exit() on a timeout or
 * out-of-memory), SIGKILL.  The child makes it, so that no moment has
 * the directory without its remover.  It ignores the signals a terminal
 * or a "kill -- -PGID" sends the harness's process group, so that it
 * outlives the harness it cleans after.  The name comes back on a
 * second pipe ("" when none could be made).
 */
static void tmpdir_make(void)
{
	const char *tmp = getenv("TMPDIR");
	int up[2], down[2];
	size_t n = 0;
	ssize_t got;
	char c;
	pid_t pid;

	if (pipe2(up, O_CLOEXEC) || pipe2(down, O_CLOEXEC))
		fuzz_fail("pipe2: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		fuzz_fail("fork: %s", strerror(errno));
	if (pid == 0) {
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		signal(SIGQUIT, SIG_IGN);
		close(up[1]);
		close(down[0]);
		/* the harness's PID in the name: a test finds the one it started */
		snprintf(tmpdir, sizeof(tmpdir), "/dev/shm/probecc-fuzz.%d.XXXXXX", (int)getppid());
		if (!mkdtemp(tmpdir)) {
			snprintf(tmpdir, sizeof(tmpdir), "%s/probecc-fuzz.%d.XXXXXX",
				 tmp && *tmp ? tmp : "/tmp", (int)getppid());
			if (!mkdtemp(tmpdir))
				tmpdir[0] = '\0';
		}
		if (write(down[1], tmpdir, strlen(tmpdir) + 1) < 0 || !tmpdir[0])
			_exit(1);
		close(down[1]);
		while (read(up[0], &c, 1) < 0 && errno == EINTR)
			;
		/* rm(1): a fork of a threaded process had better not malloc */
		execl("/bin/rm", "rm", "-rf", "--", tmpdir, (char *)NULL);
		_exit(127);
	}
	close(up[0]);	/* up[1] stays open until the harness ends */
	close(down[1]);
	while (n < sizeof(tmpdir) && ((got = read(down[0], tmpdir + n, 1)) > 0 ||
				      (got < 0 && errno == EINTR)))
		if (got > 0 && !tmpdir[n++])
			break;
	close(down[0]);
	if (!n || tmpdir[n - 1] || !tmpdir[0])
		fuzz_fail("no private directory could be made in /dev/shm, $TMPDIR or /tmp");
}

const char *fuzz_tmpdir(void)
{
	if (!tmpdir[0])
		tmpdir_make();
	return tmpdir;
}

void fuzz_put(const char *path, const void *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	const char *p = data;

	if (fd < 0)
		fuzz_fail("%s: %s", path, strerror(errno));
	while (size) {
		ssize_t n = write(fd, p, size);

		if (n <= 0)
			fuzz_fail("%s: %s", path, strerror(errno));
		p += n;
		size -= (size_t)n;
	}
	close(fd);
}

void fuzz_keep_begin(void)
{
	__lsan_disable();
}

void fuzz_keep_end(void)
{
	__lsan_enable();
}

char *fuzz_path(const char *path)
{
	char *full;

	if (asprintf(&full, "%s/%s", top(), path) < 0)
		fuzz_fail("out of memory");
	return full;
}

char *fuzz_load(const char *path, size_t *len)
{
	static struct loaded {
		const char *path;
		char *text;
		size_t len;
	} files[16];
	char full[PATH_MAX], *text;
	size_t i, n;
	FILE *f;
	long end;

	for (i = 0; i < sizeof(files) / sizeof(files[0]) && files[i].path; i++)
		if (!strcmp(files[i].path, path)) {
			*len = files[i].len;
			return files[i].text;
		}
	if (i == sizeof(files) / sizeof(files[0]))
		fuzz_fail("fuzz_load: more than %zu files", i);
	snprintf(full, sizeof(full), "%s/%s", top(), path);
	f = fopen(full, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (end = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		fuzz_fail("%s: %s", full, strerror(errno));
	text = malloc(end + 1);
	if (!text)
		fuzz_fail("out of memory");
	n = fread(text, 1, end, f);
	if (n != (size_t)end)
		fuzz_fail("%s: read %zu of %ld bytes", full, n, end);
	fclose(f);
	text[n] = '\0';
	*len = n;
	files[i] = (struct loaded){ .path = path, .text = text, .len = *len };
	return text;
}

char *fuzz_copy(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		fuzz_fail("out of memory");
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

void fuzz_frame(FILE *f, unsigned int n, const char *body, size_t len, bool end)
{
	unsigned int seq = 0;
	size_t off, k;

	fprintf(f, DUMP_FRAME_BEGIN, n, FUZZ_NONCE);
	for (off = 0; off < len || !seq; off += k) {
		k = len - off < DUMP_FRAME_CHUNK_MAX ? len - off : DUMP_FRAME_CHUNK_MAX;
		fprintf(f, DUMP_FRAME_CHUNK, n, ++seq, k,
			crc32_update(0, body + off, k), FUZZ_NONCE);
		fwrite(body + off, 1, k, f);
		if (!k || body[off + k - 1] != '\n')
			fputc('\n', f);
	}
	if (end)
		fprintf(f, DUMP_FRAME_END, n, seq, (unsigned long long)len, FUZZ_NONCE);
}

char *fuzz_dumps(const uint8_t *data, size_t size, bool cut, size_t *len)
{
	const uint8_t *sep = memmem(data, size, FUZZ_DUMP_SEP, strlen(FUZZ_DUMP_SEP));
	char *text = NULL, *copy;
	FILE *f = open_memstream(&text, len);

	if (!f)
		fuzz_fail("out of memory");
	if (sep) {
		fuzz_frame(f, 1, (const char *)data, sep - data, true);
		sep += strlen(FUZZ_DUMP_SEP);
		fuzz_frame(f, 2, (const char *)sep, data + size - sep, !cut);
	} else {
		fuzz_frame(f, 1, (const char *)data, size, !cut);
	}
	fclose(f);
	/* open_memstream's buffer is the C library's: a tracked copy */
	copy = fuzz_copy((const uint8_t *)text, *len);
	free(text);
	return copy;
}

/* lib/ctype.c: the bytes with _S. */
static int kspace(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

static char *skip_spaces(char *s)
{
	while (kspace(*s))
		s++;
	return s;
}

/* next_arg() of lib/cmdline.c (linux-source-6.1), step for step. */
static char *next_arg(char *args, char **param, char **val)
{
	unsigned int i, equals = 0;
	int in_quote = 0, quoted = 0;
	char *next;

	if (*args == '"') {
		args++;
		in_quote = 1;
		quoted = 1;
	}
	for (i = 0; args[i]; i++) {
		if (kspace(args[i]) && !in_quote)
			break;
		if (equals == 0 && args[i] == '=')
			equals = i;
		if (args[i] == '"')
			in_quote = !in_quote;
	}
	*param = args;
	if (!equals) {
		*val = NULL;
	} else {
		args[equals] = '\0';
		*val = args + equals + 1;
		/* the kernel drops the quotes around a value */
		if (**val == '"') {
			(*val)++;
			if (args[i - 1] == '"')
				args[i - 1] = '\0';
		}
	}
	if (quoted && i > 0 && args[i - 1] == '"')
		args[i - 1] = '\0';
	if (args[i]) {
		args[i] = '\0';
		next = args + i + 1;
	} else {
		next = args + i;
	}
	return skip_spaces(next);
}

int fuzz_split_cmdline(const char *line, struct fuzz_arg **args)
{
	char *copy = strdup(line), *p;
	int n = 0, cap = 8;

	*args = malloc(cap * sizeof(**args));
	if (!copy || !*args)
		fuzz_fail("out of memory");
	p = skip_spaces(copy);
	while (*p) {
		if (n == cap) {
			cap *= 2;
			*args = realloc(*args, cap * sizeof(**args));
			if (!*args)
				fuzz_fail("out of memory");
		}
		p = next_arg(p, &(*args)[n].param, &(*args)[n].value);
		n++;
	}
	return n;
}

#ifdef FUZZ_REPORT
struct program *fuzz_program(const char *path)
{
	struct source src = { .name = path };
	struct diags d = { 0 };
	struct program *prog;
	struct token *toks;

	src.text = fuzz_load(path, &src.len);
	fuzz_keep_begin();
	toks = tokenize(&src, &d);
	prog = toks ? parse(toks, &d) : NULL;
	fuzz_keep_end();
	if (!prog)
		fuzz_fail("%s does not parse", path);
	return prog;
}

void fuzz_judged(const struct report *r)
{
	int i;

	if (r->boot.end >= BOOT_NR)
		fuzz_fail("boot verdict %d is none of the table's", r->boot.end);
	if (!dump_evidence(&r->d))
		for (i = 0; i < r->nexp; i++)
			if (r->verdicts[i].ok)
				fuzz_fail("expectation %d passed without a complete dump", i + 1);
}

/* What a sink checks: the output's name, the control bytes it may hold. */
struct sink {
	const char *what, *allowed;
	size_t off;
	char buf[1 << 16];
};

static ssize_t sink_write(void *cookie, const char *buf, size_t len)
{
	struct sink *s = cookie;
	size_t i;

	for (i = 0; s->allowed && i < len; i++) {
		unsigned char c = buf[i];

		if (c < 0x20 && !(c && strchr(s->allowed, c)))
			fuzz_fail("the %s output holds byte 0x%02x at %zu: %.*s",
				  s->what, c, s->off + i,
				  (int)(len - i < 80 ? len - i : 80), buf + i);
	}
	s->off += len;
	return len;
}

FILE *fuzz_sink(const char *what, const char *allowed)
{
	static struct sink s;	/* one open at a time */
	FILE *f;

	s.what = what;
	s.allowed = allowed;
	s.off = 0;
	f = fopencookie(&s, "w", (cookie_io_functions_t){ .write = sink_write });
	if (!f)
		fuzz_fail("fopencookie: %s", strerror(errno));
	setvbuf(f, s.buf, _IOFBF, sizeof(s.buf));
	return f;
}

/* Write @r with @write through a sink: no control byte but @allowed (NULL: any). */
static void sink_out(const struct report *r, const char *what, const char *allowed,
		     void (*write)(FILE *, const struct report *))
{
	FILE *f = fuzz_sink(what, allowed);

	write(f, r);
	fclose(f);
}

void fuzz_read(struct report *r, const char *text, size_t len)
{
	dump_read(r, fuzz_copy((const uint8_t *)text, len), len);
}

void fuzz_report(struct report *r)
{
	dump_probe_names(r);
	boot_decide(r);
	initcalls_pair(r);
	expect_all(r);
	fuzz_judged(r);
	fuzz_outputs(r);
}

void fuzz_outputs(const struct report *r)
{
	sink_out(r, "text", NULL, text_write);
	sink_out(r, "summary", NULL, text_summary);
	sink_out(r, "folded", NULL, folded_write);
	sink_out(r, "JSON", "\n", json_write);
	sink_out(r, "SVG", "\t\n\r", svg_write);
	sink_out(r, "JUnit", "\t\n\r", junit_write);
	sink_out(r, "Perfetto", "\n", perfetto_write);
}
#endif
