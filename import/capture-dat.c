// SPDX-License-Identifier: GPL-2.0
/*
 * trace-cmd .dat files, read with libtracecmd and libtraceevent (Debian's
 * libtracecmd-dev): the library parses the file and each event's format;
 * this file only picks the fields teosim uses.  Records come in time order
 * across CPUs (tracecmd_iterate_events()).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "capture.h"
#include "input-file.h"
#include "kvline.h"

struct dat_reader {
	struct capture *c;
	struct tep_handle *tep;
};

/* A numeric field; warns (record offset, event, field) and returns false when absent or above max. */
static bool get_max(struct dat_reader *d, struct tep_event *e, struct tep_record *rec,
		    const char *name, unsigned long long max, unsigned long long *out)
{
	if (tep_get_field_val(NULL, e, name, rec, out, 0) != 0) {
		capture_warn(d->c, rec->offset, "%s:%s has no field '%s': event skipped",
			     e->system, e->name, name);
		return false;
	}
	if (*out > max) {
		capture_warn(d->c, rec->offset, "%s:%s: %s=%llu is above %llu: event skipped",
			     e->system, e->name, name, *out, max);
		return false;
	}
	return true;
}

static bool get(struct dat_reader *d, struct tep_event *e, struct tep_record *rec,
		const char *name, unsigned long long *out)
{
	return get_max(d, e, rec, name, ULLONG_MAX, out);
}

/* A task id the event may lack: 0 then, or when beyond any kernel's. */
static uint32_t optional_pid(struct tep_event *e, struct tep_record *rec, const char *name)
{
	unsigned long long v;

	if (tep_get_field_val(NULL, e, name, rec, &v, 0) != 0 || v > CAP_PID_MAX)
		return 0;
	return (uint32_t)v;
}

static bool is_tick_function(struct dat_reader *d, struct tep_event *e, struct tep_record *rec)
{
	unsigned long long addr;
	const char *fn;

	if (tep_get_field_val(NULL, e, "function", rec, &addr, 0) != 0)
		return false;
	fn = tep_find_function(d->tep, addr);
	return fn && (!strcmp(fn, "tick_sched_timer") || !strcmp(fn, "tick_nohz_handler"));
}

/* The flags of the kernel's struct timer_list (include/linux/timer.h). */
#define TIMER_CPUMASK		0x0003FFFFu
#define TIMER_DEFERRABLE	0x00080000u
#define TIMER_PINNED		0x00100000u
#define TIMER_ARRAYSHIFT	22

/* timer_start: as the text reader's parse_wheel_start(), from the raw fields. */
static bool read_wheel_start(struct dat_reader *d, struct tep_event *e, struct tep_record *rec,
			     struct cap_event *ev)
{
	unsigned long long expires, now, flags, bucket;

	if (!get(d, e, rec, "expires", &expires) || !get(d, e, rec, "now", &now) ||
	    !get_max(d, e, rec, "flags", UINT32_MAX, &flags))
		return false;
	ev->jiffies = now;
	ev->target_cpu = (unsigned int)(flags & TIMER_CPUMASK);
	ev->flag = (flags & TIMER_DEFERRABLE) != 0;
	ev->pinned = (flags & TIMER_PINNED) != 0;
	if (tep_find_field(e, "bucket_expiry")) {
		if (!get(d, e, rec, "bucket_expiry", &bucket))
			return false;
		ev->clock_ns = bucket;
		return true;
	}
	ev->clock_ns = cap_wheel_bucket(expires, ev->jiffies,
					(unsigned int)(flags >> TIMER_ARRAYSHIFT));
	return true;
}

/* The kernel's trace flags (kernel/trace/trace.h) that the text shows as 'N', 'n' or 'p'. */
#define TRACE_FLAG_NEED_RESCHED		0x04u
#define TRACE_FLAG_PREEMPT_RESCHED	0x20u

/*
 * What the record's common_flags show of need_resched: clear (neither
 * flag), or TIF_NEED_RESCHED set; neither is known without them.
 */
static void read_resched(struct tep_event *e, struct tep_record *rec, struct cap_event *ev)
{
	unsigned long long flags;

	if (tep_get_common_field_val(NULL, e, "common_flags", rec, &flags, 0) != 0)
		return;
	ev->resched_clear = !(flags & (TRACE_FLAG_NEED_RESCHED | TRACE_FLAG_PREEMPT_RESCHED));
	ev->resched_set = flags & TRACE_FLAG_NEED_RESCHED;
}

static bool read_fields(struct dat_reader *d, struct tep_event *e, struct tep_record *rec,
			struct cap_event *ev)
{
	unsigned long long v;

	switch (ev->kind) {
	case CAP_IDLE:
	case CAP_IDLE_MISS:
		if (!get(d, e, rec, "state", &v))
			return false;
		ev->state = (uint32_t)v;
		read_resched(e, rec, ev);
		if (!get_max(d, e, rec, "cpu_id", CAP_CPUS_MAX - 1, &v))
			return false;
		ev->cpu = (unsigned int)v;
		if (ev->kind == CAP_IDLE_MISS) {
			if (!get(d, e, rec, "below", &v))
				return false;
			ev->flag = v != 0;
		}
		return true;
	case CAP_TIMER_START:
	case CAP_TIMER_CANCEL:
	case CAP_TIMER_EXPIRE:
		if (!get(d, e, rec, "hrtimer", &v))
			return false;
		ev->timer = v;
		ev->tick_timer = is_tick_function(d, e, rec);
		if (ev->kind == CAP_TIMER_CANCEL)
			return true;
		if (!get_max(d, e, rec, ev->kind == CAP_TIMER_START ? "expires" : "now", INT64_MAX,
			     &v))
			return false;
		ev->clock_ns = v;
		return true;
	case CAP_WHEEL_START:
	case CAP_WHEEL_CANCEL:
	case CAP_WHEEL_EXPIRE:
		if (!get(d, e, rec, "timer", &v))
			return false;
		ev->timer = v;
		if (ev->kind == CAP_WHEEL_START)
			return read_wheel_start(d, e, rec, ev);
		if (ev->kind == CAP_WHEEL_CANCEL)
			return true;
		if (!get(d, e, rec, "now", &v))
			return false;
		ev->jiffies = v;
		if (!get(d, e, rec, "baseclk", &v))
			return false;
		ev->clock_ns = v;
		return true;
	case CAP_TICK_STOP:
		if (!get(d, e, rec, "success", &v))
			return false;
		ev->flag = v != 0;
		return true;
	case CAP_WAKEUP:
		if (!get_max(d, e, rec, "target_cpu", CAP_CPUS_MAX - 1, &v))
			return false;
		ev->target_cpu = (unsigned int)v;
		ev->pid = optional_pid(e, rec, "pid");
		return true;
	case CAP_SWITCH:
		/* The idle task is pid 0 on every CPU. */
		if (!get(d, e, rec, "next_pid", &v))
			return false;
		ev->flag = v == 0;
		ev->next_pid = v <= CAP_PID_MAX ? (uint32_t)v : 0;
		ev->pid = optional_pid(e, rec, "prev_pid");
		/*
		 * TASK_UNINTERRUPTIBLE alone, how a task waits for I/O
		 * (io_schedule()): 2 as the state itself and as the
		 * tracepoint's reported state alike.
		 */
		ev->blocked = tep_get_field_val(NULL, e, "prev_state", rec, &v, 0) == 0 && v == 2;
		return true;
	case CAP_RCU_QUEUE:
	case CAP_RCU_BATCH:
	case CAP_RCU_DONE:
		if (!get(d, e, rec, ev->kind == CAP_RCU_DONE ? "callbacks_invoked" : "qlen", &v))
			return false;
		ev->callbacks = cap_callbacks(v);
		return true;
	case CAP_IRQ:
	case CAP_IPI:
	case CAP_LOST:
		return true;
	}
	return true;
}

static int read_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *priv)
{
	struct dat_reader *d = priv;
	struct tep_event *e = tep_find_event_by_record(d->tep, rec);
	struct cap_event ev = { .ts_ns = rec->ts, .where = rec->offset, .cpu = (unsigned int)cpu };

	(void)h;
	capture_saw_time(d->c, rec->ts);
	/* Lost events come before this record: mark the gap first. */
	if (rec->missed_events) {
		struct cap_event lost = ev;

		lost.kind = CAP_LOST;
		capture_add(d->c, &lost);
	}
	if (!e) {
		capture_warn(d->c, rec->offset, "a record of an event type the file does not "
			     "describe: skipped");
		return 0;
	}
	if (!cap_kind_of(e->name, &ev.kind)) {
		capture_ignore(d->c, e->name);
		return 0;
	}
	/* Non-zero stops the iteration: at the capture's limit on events. */
	return read_fields(d, e, rec, &ev) && !capture_add(d->c, &ev);
}

static void set_unreadable(const char *path, GError **error)
{
	g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_PARSE,
		    "%s: a trace-cmd .dat file by its first bytes, but libtracecmd cannot "
		    "read it (truncated, corrupt, or a newer file version)", path);
}

static bool read_dat(const char *path, struct capture *c, GError **error)
{
	struct dat_reader d = { .c = c };
	const char *real = input_path(path, error);
	struct tracecmd_input *h;
	int cpus;

	if (!real)
		return false;
	/* The library's own messages would not name the file; ours do. */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(real, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		set_unreadable(path, error);
		return false;
	}
	d.tep = tracecmd_get_tep(h);
	cpus = tep_get_cpus(d.tep);
	if (cpus > 0)
		c->nr_cpus = (unsigned int)MIN(cpus, CAP_CPUS_MAX);
	if (tracecmd_iterate_events(h, NULL, 0, read_record, &d) < 0)
		capture_warn(c, 0, "libtracecmd stopped reading the records early");
	tracecmd_close(h);
	return true;
}

/* How the child that reads first reports: anything else means it crashed. */
enum { CHILD_READ = 0, CHILD_REFUSED = 3 };

/* The child dies of a crash, whatever handler the program installed (cmocka, ASan). */
static void die_of_crashes(void)
{
	static const int crashes[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };

	for (size_t i = 0; i < G_N_ELEMENTS(crashes); i++)
		signal(crashes[i], SIG_DFL);
}

static void quiet_stderr(void)
{
	int null = open("/dev/null", O_WRONLY);

	if (null >= 0)
		dup2(null, STDERR_FILENO);
}

/*
 * libtracecmd 1.3 (Debian 12) crashes on some broken files, a .dat cut
 * short among them: tracecmd_open() frees a half-built handle on its way
 * out.  So the file is read first in a child process, whose death is then
 * reported as an error instead of taking teosim with it.
 */
static bool reading_survives(const char *path, struct capture *c, GError **error)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: fork: %s", path,
			    g_strerror(errno));
		return false;
	}
	if (pid == 0) {
		/* c is the child's own copy: what it reads is thrown away. */
		die_of_crashes();
		/* The C library's last words ("free(): invalid pointer") would not name the file. */
		quiet_stderr();
		_exit(read_dat(path, c, NULL) ? CHILD_READ : CHILD_REFUSED);
	}
	if (waitpid(pid, &status, 0) < 0) {
		g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_IO, "%s: waitpid: %s", path,
			    g_strerror(errno));
		return false;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_READ)
		return true;
	/*
	 * Not opened again here: libtracecmd 1.3 leaks the buffer of a
	 * file's options when it refuses the file.
	 */
	if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_REFUSED) {
		set_unreadable(path, error);
		return false;
	}
	g_set_error(error, TEOSIM_ERROR, TEOSIM_ERROR_PARSE,
		    "%s: a trace-cmd .dat file by its first bytes, but libtracecmd crashed reading "
		    "it (%s): the file is truncated or corrupt", path,
		    WIFSIGNALED(status) ? g_strsignal(WTERMSIG(status)) : "exit status not its own");
	return false;
}

bool capture_read_dat(const char *path, struct capture *c, GError **error)
{
	return reading_survives(path, c, error) && read_dat(path, c, error);
}
