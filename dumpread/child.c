// SPDX-License-Identifier: GPL-2.0
/*
 * A library call in a child process (child_call()), for the calls that
 * trust what the guest wrote: a crash there ends the child, not the
 * report; and the child's end in words (child_status()).
 */
#define _GNU_SOURCE	/* sigabbrev_np */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dumpread-local.h"

/*
 * "signal SIGSEGV (Segmentation fault)" or "exit N" for a child's
 * @status (waitpid()), into @buf.
 */
const char *child_status(int status, char *buf, size_t size)
{
	if (WIFSIGNALED(status)) {
		const char *abbrev = sigabbrev_np(WTERMSIG(status));

		snprintf(buf, size, "signal %s%s (%s)", abbrev ? "SIG" : "",
			 abbrev ? abbrev : "", strsignal(WTERMSIG(status)));
	} else {
		snprintf(buf, size, "exit %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	return buf;
}

/*
 * child_call() - @fn(@arg) in a forked child, its return value its exit
 * status (0..255), ended by SIGALRM after @seconds (0: no limit); *@status
 * gets the child's wait status.  For the library calls that trust their
 * input: a crash there ends the child, not the report.  Returns 0, or
 * -errno with @e set when fork() or waitpid() failed.
 */
int child_call(int (*fn)(void *arg), void *arg, unsigned int seconds,
	       int *status, struct errmsg *e)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return errmsg_set(e, -errno, "fork: %s", strerror(errno));
	if (!pid) {
		if (seconds)
			alarm(seconds);
		_exit(fn(arg) & 0xff);
	}
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return errmsg_set(e, -errno, "waitpid: %s", strerror(errno));
	return 0;
}

