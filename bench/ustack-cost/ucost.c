/*
 * bench/ustack-cost.sh's program: calls probe_me() N times (argv[1],
 * default 20000) and prints the wall time per call
 * (clock_gettime(CLOCK_MONOTONIC)).  Paced (argv[2] = B, argv[3] = U):
 * after every B calls it sleeps U microseconds, so that the agent, woken
 * at half a perf ring, reads the ring before it fills; then each call is
 * timed on its own and the median is printed too (the host's load
 * stalls the emulated CPU now and then: the median leaves that out).
 * The calls are made below a 12 KiB frame, so that an 8 KiB user-stack
 * copy at probe_me is a whole 8 KiB of mapped stack (perf copies up to
 * the fault, else).  The same program is installed under one name per
 * probe variant.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

volatile int sink;

__attribute__((noinline)) int probe_me(int x)
{
	sink += x;
	return sink;
}

static double ns_between(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1e9 + (b->tv_nsec - a->tv_nsec);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The mean ns per call; paced (@batch > 0): the median in *@median. */
__attribute__((noinline)) static double run(long n, long batch, long us,
					    double *median)
{
	volatile char pad[12288];
	struct timespec a, b, c, d;
	double *dt = NULL, sum = 0;
	long i;

	memset((char *)pad, 1, sizeof(pad));
	if (batch) {
		dt = malloc(n * sizeof(*dt));
		if (!dt)
			return -1;
		for (i = 0; i < n; i++) {
			clock_gettime(CLOCK_MONOTONIC, &c);
			probe_me((int)i);
			clock_gettime(CLOCK_MONOTONIC, &d);
			dt[i] = ns_between(&c, &d);
			sum += dt[i];
			if ((i + 1) % batch == 0)
				usleep(us);
		}
		qsort(dt, n, sizeof(*dt), cmp_double);
		*median = n % 2 ? dt[n / 2] : (dt[n / 2 - 1] + dt[n / 2]) / 2;
		free(dt);
		sink += pad[n % sizeof(pad)];
		return sum / n;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		probe_me((int)i);
	clock_gettime(CLOCK_MONOTONIC, &b);
	sink += pad[n % sizeof(pad)];
	return ns_between(&a, &b) / n;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	long batch = argc > 3 ? atol(argv[2]) : 0;
	long us = argc > 3 ? atol(argv[3]) : 0;
	double ns, median = 0;

	if (n < 1 || batch < 0 || us < 0)
		return 2;
	ns = run(n, batch, us, &median);
	if (ns < 0)
		return 1;
	if (batch)
		printf("ucost %s paced %ld calls %ld ns_per_call %.0f median_ns %.0f\n",
		       argv[0], batch, n, ns, median);
	else
		printf("ucost %s calls %ld ns_per_call %.0f\n", argv[0], n, ns);
	return 0;
}
