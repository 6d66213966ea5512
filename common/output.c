// SPDX-License-Identifier: GPL-2.0
/*
 * Atomic outputs: every output is first written in full to a temporary
 * file beside its destination; only when all of them are written are
 * they renamed into place.  A failed run leaves nothing behind, nor does
 * one ended by a signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"

struct staged {
	char *tmp, *path;
	size_t len;		/* direct outputs: the bytes of tmp (may hold NULs) */
	struct staged *next;
};

static struct staged *staged;

/*
 * While files are staged, a signal that would end probecc removes them
 * first, then is raised again under the handler it had before (the
 * default, or dumpread/tracedat.c's, which removes its directory and the
 * staged files too, then ends probecc).  A signal ignored (nohup's
 * SIGHUP) stays ignored; a handler put over this one is left in place.
 * The list is changed with these signals blocked, so the handler sees
 * every temporary file.
 */
static const int out_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
#define OUT_NSIG (sizeof(out_signals) / sizeof(out_signals[0]))
static struct sigaction out_old[OUT_NSIG];
static bool out_armed;

void out_unlink_staged(void)
{
	struct staged *s;

	for (s = staged; s; s = s->next)
		unlink(s->tmp);
}

static void out_on_signal(int sig)
{
	size_t i;

	out_unlink_staged();
	for (i = 0; i < OUT_NSIG; i++)
		if (out_signals[i] == sig)
			sigaction(sig, &out_old[i], NULL);
	raise(sig);
}

/* Block the signals above (into *@old), to change the list. */
static void out_block(sigset_t *old)
{
	sigset_t block;
	size_t i;

	sigemptyset(&block);
	for (i = 0; i < OUT_NSIG; i++)
		sigaddset(&block, out_signals[i]);
	sigprocmask(SIG_BLOCK, &block, old);
}

/* With the signals blocked: the handler in place while files are staged. */
static void out_arm(bool on)
{
	struct sigaction sa = { .sa_handler = out_on_signal };
	size_t i;

	if (on == out_armed)
		return;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < OUT_NSIG; i++) {
		struct sigaction cur;

		sigaction(out_signals[i], NULL, &cur);
		if (on) {
			out_old[i] = cur;
			/* left in place by a handler restored over it: not its own next */
			if (cur.sa_handler == out_on_signal) {
				out_old[i].sa_handler = SIG_DFL;
				out_old[i].sa_flags = 0;
			}
			if (cur.sa_handler != SIG_IGN)
				sigaction(out_signals[i], &sa, NULL);
		} else if (cur.sa_handler == out_on_signal) {
			sigaction(out_signals[i], &out_old[i], NULL);
		}
	}
	out_armed = on;
}

static mode_t current_umask(void)
{
	mode_t m = umask(022);

	umask(m);
	return m;
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		data += n;
		len -= n;
	}
	return 0;
}

/*
 * Destinations that rename cannot replace are written in place, after
 * everything compiled: "-" and /dev/stdout (standard output), and an
 * existing file that is not a regular one (a FIFO, a tty).  A symbolic
 * link to a regular file is followed, so the link stays and its target
 * is replaced atomically.
 */
static struct staged *direct;

static bool is_stdout(const char *path)
{
	return !strcmp(path, "-") || !strcmp(path, "/dev/stdout");
}

static bool is_special(const char *path)
{
	struct stat st;

	return !stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

static mode_t out_mode(const char *path)
{
	struct stat st;

	if (!stat(path, &st) && S_ISREG(st.st_mode))
		return st.st_mode & 07777;
	return 0666 & ~current_umask();
}

/* Is @path (as given, and as it resolves) a destination already staged? */
static bool staged_already(const char *path)
{
	char *real = realpath(path, NULL);
	struct staged *lists[2] = { staged, direct }, *s;
	bool dup = false;
	int i;

	for (i = 0; i < 2 && !dup; i++)
		for (s = lists[i]; s && !dup; s = s->next)
			dup = !strcmp(s->path, path) || (real && !strcmp(s->path, real));
	free(real);
	return dup;
}

int out_stage(const char *path, const char *data, size_t len,
	      struct errmsg *e)
{
	struct staged *s;
	sigset_t old;
	int fd, err;

	/* two outputs into one file: the second would replace the first */
	if (staged_already(path)) {
		out_abort();
		return errmsg_set(e, -EEXIST, "%s is named for two outputs", path);
	}
	s = xcalloc(1, sizeof(*s));

	if (is_stdout(path) || is_special(path)) {
		s->path = xstrdup(path);
		s->tmp = xcalloc(1, len + 1);	/* the data, kept until commit */
		memcpy(s->tmp, data, len);
		s->len = len;
		s->next = direct;
		direct = s;
		return 0;
	}

	s->path = realpath(path, NULL);	/* follows a link; NULL: no file yet */
	if (!s->path)
		s->path = xstrdup(path);
	s->tmp = xasprintf("%s.probecc-XXXXXX", s->path);
	/* in the list from its creation: a signal removes it from then on */
	out_block(&old);
	fd = mkstemp(s->tmp);
	err = errno;
	if (fd >= 0) {
		out_arm(true);
		s->next = staged;
		staged = s;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		errno = err;
		goto fail_nofd;
	}
	/*
	 * mkstemp creates 0600: a file replaced keeps its mode (an initrd
	 * given to probecc-bootconfig -a), a new one is an ordinary file.
	 */
	if (write_all(fd, data, len) || fchmod(fd, out_mode(s->path)) ||
	    fsync(fd)) {
		err = errno;
		close(fd);
		errno = err;
		goto fail;
	}
	if (close(fd))
		goto fail;
	return 0;
fail:
	/* out_abort() below removes it with the others */
	err = errno;
	errmsg_set(e, -err, "cannot write %s: %s", path, strerror(err));
	out_abort();
	errno = err;
	return -err;
fail_nofd:
	err = errno;
	errmsg_set(e, -err, "cannot write %s: %s", path, strerror(err));
	free(s->tmp);
	free(s->path);
	free(s);
	out_abort();
	errno = err;
	return -err;
}

static void staged_free(struct staged *s)
{
	free(s->tmp);
	free(s->path);
	free(s);
}

void out_abort(void)
{
	struct staged *s;
	sigset_t old;

	out_block(&old);
	while ((s = staged)) {
		unlink(s->tmp);
		staged = s->next;
		staged_free(s);
	}
	out_arm(false);
	sigprocmask(SIG_SETMASK, &old, NULL);
	while ((s = direct)) {
		direct = s->next;
		staged_free(s);
	}
}

int out_commit(struct errmsg *e)
{
	struct staged *s;
	sigset_t old;
	int fd, r, err;

	/*
	 * Direct outputs first: they are the ones that can fail for want of
	 * room (/dev/full, a closed pipe), and nothing is renamed until
	 * they are written.
	 */
	while ((s = direct)) {
		fd = is_stdout(s->path) ? dup(1) : open(s->path, O_WRONLY | O_APPEND);
		r = fd < 0 ? -1 : write_all(fd, s->tmp, s->len);
		if (fd >= 0 && close(fd))
			r = -1;
		if (r) {
			err = errno;
			errmsg_set(e, -err, "cannot write %s: %s", s->path, strerror(err));
			goto fail;
		}
		direct = s->next;
		staged_free(s);
	}
	while ((s = staged)) {
		if (rename(s->tmp, s->path)) {
			err = errno;
			errmsg_set(e, -err, "cannot rename %s into place: %s", s->path,
				   strerror(err));
			goto fail;
		}
		out_block(&old);
		staged = s->next;
		staged_free(s);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	out_abort();	/* nothing left: the handlers as they were */
	return 0;
fail:
	/* what was not renamed yet is removed; what was stays in place */
	out_abort();
	errno = err;
	return -err;
}

/* out_is_input() - see common.h. */
bool out_is_input(const char *out, const char *in)
{
	struct stat so, si;

	/* a device (/dev/null both ways) is not overwritten by a write */
	return out && in && strcmp(out, "-") && strcmp(in, "-") && !stat(out, &so) &&
	       S_ISREG(so.st_mode) && !stat(in, &si) && so.st_dev == si.st_dev &&
	       so.st_ino == si.st_ino;
}
