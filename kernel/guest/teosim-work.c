// SPDX-License-Identifier: GPL-2.0-only
/*
 * teosim-work: idle-pattern workloads for the teosim ground-truth guest.
 *
 * Runs inside the QEMU guest (linked statically, started by the guest's
 * /init once per item of teosim.work= on the kernel command line).  Each
 * workload makes the CPUs go idle in a different pattern, so that the
 * governors see a mix of sleep lengths, tick states and wakeup sources:
 *
 *   teosim-work timers   SECONDS RATE_HZ  one thread per CPU, periodic absolute
 *                                         timers; CPU i runs at RATE_HZ / (1 + 0.37 i)
 *   teosim-work pingpong SECONDS BURST    two threads on CPUs 0 and 1 bounce a byte
 *                                         over two pipes BURST times, then sleep
 *                                         0.2 .. 5 ms; cross-CPU wakeups
 *   teosim-work mixed    SECONDS SEED     one thread per CPU; sleeps drawn from a mix
 *                                         of 20-200 us, 0.5-3 ms, 5-20 ms and
 *                                         30-100 ms, with 0-100 us of work between
 *   teosim-work io       SECONDS BLOCKDEV one thread doing O_DIRECT 4 KiB reads at
 *                                         random offsets, 0.5-3 ms apart (iowait)
 *   teosim-work burst    SECONDS SEED     one thread per CPU; bursts of 10-50 sleeps of
 *                                         20-100 us with 5-20 us of work between,
 *                                         each burst followed by 20-80 ms of silence
 *   teosim-work remote   SECONDS SEED     a thread on CPU 0 wakes a thread on CPU 1
 *                                         through a pipe every 10 us .. 2 ms; the
 *                                         woken CPU is idle, often still polling,
 *                                         and then needs no IPI
 *   teosim-work idle     SECONDS SEED     a nearly idle system: one thread per CPU wakes
 *                                         every 50-500 ms for 10-50 us of work, as a
 *                                         daemon does; the CPUs sleep long, and the
 *                                         kernel's own timers stay in the mix
 *   teosim-work qos      SECONDS LIMIT_US mixed (seed 1) while holding a PM QoS CPU
 *                                         latency limit of LIMIT_US through
 *                                         /dev/cpu_dma_latency
 *
 * Timer slack is set to 1 ns so that the sleeps are what they ask for.  The
 * program prints one summary line; its exit status is 0 on success.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_SEC 1000000000LL

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void sleep_until(int64_t t)
{
	struct timespec ts = { .tv_sec = t / NSEC_PER_SEC, .tv_nsec = t % NSEC_PER_SEC };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void sleep_for(int64_t ns)
{
	sleep_until(now_ns() + ns);
}

static void spin_for(int64_t ns)
{
	int64_t end = now_ns() + ns;

	while (now_ns() < end)
		;
}

/* xorshift64*: a small deterministic generator per thread. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static int64_t rnd_range(uint64_t *s, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rnd(s) % (uint64_t)(hi - lo + 1));
}

static void pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "teosim-work: cannot pin to cpu %d: %s\n", cpu, strerror(errno));
}

struct worker {
	pthread_t thread;
	int cpu;
	int64_t end;
	long param;
	uint64_t seed;
	long events;
	int fd_in, fd_out;	/* pingpong */
	int initiator;		/* pingpong */
	const char *path;	/* io */
};

static void *timers_main(void *arg)
{
	struct worker *w = arg;
	int64_t period = NSEC_PER_SEC / w->param;
	int64_t t;

	pin_to(w->cpu);
	period += period * 37 * w->cpu / 100;
	for (t = now_ns() + period; t < w->end; t += period) {
		sleep_until(t);
		spin_for(2000);
		w->events++;
	}
	return NULL;
}

static void *pingpong_main(void *arg)
{
	struct worker *w = arg;
	char byte = 'x';

	pin_to(w->cpu);
	for (;;) {
		long i;
		int stop = now_ns() >= w->end;

		if (w->initiator) {
			/* A zero byte tells the partner to finish. */
			byte = stop ? 0 : 'x';
			for (i = 0; i < (stop ? 1 : w->param); i++) {
				if (write(w->fd_out, &byte, 1) != 1 || read(w->fd_in, &byte, 1) != 1)
					return NULL;
				w->events++;
			}
			if (stop)
				return NULL;
			sleep_for(rnd_range(&w->seed, 200000, 5000000));
		} else {
			if (read(w->fd_in, &byte, 1) != 1 || write(w->fd_out, &byte, 1) != 1)
				return NULL;
			w->events++;
			if (byte == 0)
				return NULL;
		}
	}
}

static void *mixed_main(void *arg)
{
	struct worker *w = arg;

	pin_to(w->cpu);
	while (now_ns() < w->end) {
		int64_t r = rnd_range(&w->seed, 0, 99), ns;

		if (r < 40)
			ns = rnd_range(&w->seed, 20000, 200000);
		else if (r < 70)
			ns = rnd_range(&w->seed, 500000, 3000000);
		else if (r < 90)
			ns = rnd_range(&w->seed, 5000000, 20000000);
		else
			ns = rnd_range(&w->seed, 30000000, 100000000);
		sleep_for(ns);
		spin_for(rnd_range(&w->seed, 0, 100000));
		w->events++;
	}
	return NULL;
}

/*
 * The kernel's own timers alone leave a 6.1 guest's CPUs asleep for
 * seconds (a handful of periods in 20 s, too few to compare): a daemon's
 * rare wakeups give the family periods enough while keeping it idle.
 */
static void *idle_main(void *arg)
{
	struct worker *w = arg;

	pin_to(w->cpu);
	while (now_ns() < w->end) {
		sleep_for(rnd_range(&w->seed, 50000000, 500000000));
		spin_for(rnd_range(&w->seed, 10000, 50000));
		w->events++;
	}
	return NULL;
}

static void *burst_main(void *arg)
{
	struct worker *w = arg;

	pin_to(w->cpu);
	while (now_ns() < w->end) {
		int64_t n = rnd_range(&w->seed, 10, 50);

		for (int64_t i = 0; i < n; i++) {
			sleep_for(rnd_range(&w->seed, 20000, 100000));
			spin_for(rnd_range(&w->seed, 5000, 20000));
			w->events++;
		}
		sleep_for(rnd_range(&w->seed, 20000000, 80000000));
	}
	return NULL;
}

/* The waker: CPU 0 writes a byte at random intervals; a zero byte ends it. */
static void *remote_main(void *arg)
{
	struct worker *w = arg;
	char byte;

	pin_to(w->cpu);
	for (;;) {
		if (w->initiator) {
			int stop = now_ns() >= w->end;

			byte = stop ? 0 : 'x';
			if (write(w->fd_out, &byte, 1) != 1 || stop)
				return NULL;
			w->events++;
			sleep_for(rnd_range(&w->seed, 10000, 2000000));
		} else {
			if (read(w->fd_in, &byte, 1) != 1 || byte == 0)
				return NULL;
			spin_for(3000);
			w->events++;
		}
	}
}

static void *io_main(void *arg)
{
	struct worker *w = arg;
	void *buf;
	off_t size;
	int fd = open(w->path, O_RDONLY | O_DIRECT);

	if (fd < 0) {
		fprintf(stderr, "teosim-work: %s: %s\n", w->path, strerror(errno));
		return NULL;
	}
	size = lseek(fd, 0, SEEK_END);
	if (size < 4096 || posix_memalign(&buf, 4096, 4096)) {
		close(fd);
		return NULL;
	}
	while (now_ns() < w->end) {
		off_t off = (off_t)rnd_range(&w->seed, 0, size / 4096 - 1) * 4096;

		if (pread(fd, buf, 4096, off) != 4096)
			break;
		w->events++;
		sleep_for(rnd_range(&w->seed, 500000, 3000000));
	}
	free(buf);
	close(fd);
	return NULL;
}

static int usage(void)
{
	fprintf(stderr, "usage: teosim-work timers|pingpong|mixed|burst|remote|idle|qos SECONDS PARAM\n"
			"       teosim-work io SECONDS BLOCKDEV\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct worker w[64];
	int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN), n = 0, i;
	const char *mode;
	double seconds;
	long param = 0, events = 0;
	int64_t start;

	if (argc != 4)
		return usage();
	mode = argv[1];
	seconds = atof(argv[2]);
	if (seconds <= 0)
		return usage();
	if (strcmp(mode, "io"))
		param = atol(argv[3]);
	if (ncpu < 1)
		ncpu = 1;
	if (ncpu > 64)
		ncpu = 64;
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	start = now_ns();
	memset(w, 0, sizeof(w));
	for (i = 0; i < 64; i++) {
		w[i].end = start + (int64_t)(seconds * NSEC_PER_SEC);
		w[i].param = param;
		w[i].seed = 0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1) + (uint64_t)param;
	}

	/* The limit holds while the file stays open; mixed runs under it. */
	if (!strcmp(mode, "qos")) {
		int32_t limit = (int32_t)param;
		int fd = open("/dev/cpu_dma_latency", O_WRONLY);

		if (fd < 0 || param < 0 || write(fd, &limit, sizeof(limit)) != sizeof(limit)) {
			fprintf(stderr, "teosim-work: /dev/cpu_dma_latency: %s\n", strerror(errno));
			return 1;
		}
		mode = "mixed";
		param = 1;
		for (i = 0; i < 64; i++)
			w[i].param = param;
	}

	if (!strcmp(mode, "timers") && param > 0) {
		for (n = 0; n < ncpu; n++)
			w[n].cpu = n;
		for (i = 0; i < n; i++)
			pthread_create(&w[i].thread, NULL, timers_main, &w[i]);
	} else if (!strcmp(mode, "pingpong") && param > 0) {
		int a[2], b[2];

		if (pipe(a) || pipe(b)) {
			perror("teosim-work: pipe");
			return 1;
		}
		n = 2;
		w[0].cpu = 0;
		w[0].initiator = 1;
		w[0].fd_out = a[1];
		w[0].fd_in = b[0];
		w[1].cpu = ncpu > 1 ? 1 : 0;
		w[1].fd_in = a[0];
		w[1].fd_out = b[1];
		for (i = 0; i < n; i++)
			pthread_create(&w[i].thread, NULL, pingpong_main, &w[i]);
	} else if (!strcmp(mode, "mixed") || !strcmp(mode, "burst") || !strcmp(mode, "idle")) {
		void *(*main_of_mode)(void *) = !strcmp(mode, "mixed") ? mixed_main :
						!strcmp(mode, "burst") ? burst_main : idle_main;

		for (n = 0; n < ncpu; n++) {
			w[n].cpu = n;
			w[n].seed ^= (uint64_t)param << 32;
		}
		for (i = 0; i < n; i++)
			pthread_create(&w[i].thread, NULL, main_of_mode, &w[i]);
	} else if (!strcmp(mode, "remote")) {
		int a[2];

		if (pipe(a)) {
			perror("teosim-work: pipe");
			return 1;
		}
		n = 2;
		w[0].cpu = 0;
		w[0].initiator = 1;
		w[0].fd_out = a[1];
		w[0].seed ^= (uint64_t)param << 32;
		w[1].cpu = ncpu > 1 ? 1 : 0;
		w[1].fd_in = a[0];
		for (i = 0; i < n; i++)
			pthread_create(&w[i].thread, NULL, remote_main, &w[i]);
	} else if (!strcmp(mode, "io")) {
		n = 1;
		w[0].path = argv[3];
		pthread_create(&w[0].thread, NULL, io_main, &w[0]);
	} else {
		return usage();
	}
	for (i = 0; i < n; i++) {
		pthread_join(w[i].thread, NULL);
		events += w[i].events;
	}
	printf("teosim-work: %s %s %s: %ld events in %.2f s\n", argv[1], argv[2], argv[3],
	       events, (double)(now_ns() - start) / NSEC_PER_SEC);
	return events > 0 ? 0 : 1;
}
