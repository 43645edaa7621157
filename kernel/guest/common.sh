# Sourced by the guests' /init (busybox sh): tracefs set-up for the events
# `teosim import` reads (traces/import-format.md), and the copy of the
# idle-state table.  Installed in the initramfs as /bin/teosim-common.sh.

T=/sys/kernel/tracing

# trace_setup CLOCK KB: tracing off and empty, trace_clock CLOCK, KB of ring
# buffer per CPU, and every event of the import format that this kernel has
# enabled.  Sets $trace_enabled and $trace_missing (lists of events); returns
# non-zero with $trace_error set when tracefs or cpu_idle is not there.
trace_setup() {
	mountpoint -q $T || mount -t tracefs tracefs $T 2>/dev/null
	[ -w $T/tracing_on ] || { trace_error="no tracefs at $T (a kernel without CONFIG_FTRACE?)"; return 1; }
	echo 0 > $T/tracing_on
	echo "$1" > $T/trace_clock || { trace_error="trace_clock $1 refused"; return 1; }
	echo "$2" > $T/buffer_size_kb || { trace_error="buffer_size_kb $2 refused"; return 1; }
	echo > $T/trace
	trace_enabled= trace_missing=
	for e in power/cpu_idle power/cpu_idle_miss timer/hrtimer_start \
		 timer/hrtimer_cancel timer/hrtimer_expire_entry timer/tick_stop \
		 timer/timer_start timer/timer_cancel timer/timer_expire_entry \
		 irq/irq_handler_entry ipi sched/sched_wakeup sched/sched_switch \
		 irq_vectors/call_function_entry irq_vectors/call_function_single_entry \
		 irq_vectors/reschedule_entry rcu/rcu_callback rcu/rcu_kvfree_callback \
		 rcu/rcu_batch_start rcu/rcu_batch_end; do
		if [ -e $T/events/$e/enable ] && echo 1 > $T/events/$e/enable; then
			trace_enabled="$trace_enabled $e"
		else
			trace_missing="$trace_missing $e"
		fi
	done
	[ "$(cat $T/events/power/cpu_idle/enable 2>/dev/null)" = 1 ] ||
		{ trace_error="cannot enable power/cpu_idle"; return 1; }
}

# Events print hrtimer pointers with %p, "(____ptrval____)" until the
# kernel's pointer-hashing key is set; that waits for the crng, which an
# idle TCG guest seeds only slowly.  A blocking read of /dev/random makes
# the kernel generate entropy until the crng is ready; the key is set by a
# work item that checks every 2 s.
trace_wait_ptr_hashing() {
	dd if=/dev/random of=/dev/null bs=16 count=1 2>/dev/null || return 1
	sleep 3
}

# copy_cpuidle DIR: /sys/devices/system/cpu/cpu0/cpuidle's readable files
# into DIR/stateN/, for `teosim capture-platform --sysfs`.
copy_cpuidle() {
	for s in /sys/devices/system/cpu/cpu0/cpuidle/state*; do
		mkdir -p "$1/${s##*/}"
		for f in $s/*; do
			[ -f "$f" ] && [ -r "$f" ] && cat "$f" > "$1/${s##*/}/${f##*/}" 2>/dev/null
		done
	done
}
