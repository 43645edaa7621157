#!/bin/sh
# A one-node Slurm cluster on this machine, for tests: munged, slurmctld
# and slurmd as root, every file they write (config, munge key and socket,
# state, spool, logs, pid files) inside one state directory, no cgroups,
# no systemd, no accounting database.
#
# usage: slurm-one-node.sh start DIR
#        slurm-one-node.sh stop DIR
#        (slurm-one-node.sh guard DIR is what start leaves running, below)
#
# start makes DIR (it must be empty or absent, and short: Unix socket
# paths are limited to 107 bytes, so use a directory under /tmp, not a
# deep build directory), starts the three daemons, waits until sinfo shows
# the node idle and prints on standard output the environment a client
# needs, as shell assignments for eval:
#
#     eval "$(tests/engines/slurm-one-node.sh start /tmp/s1)"
#     sbatch --wait --wrap true
#     tests/engines/slurm-one-node.sh stop /tmp/s1
#
# That is only SLURM_CONF: munged listens on DIR/run/munge.socket.2, not
# on Debian's default /run/munge/munge.socket.2, and Slurm's client
# commands, slurmctld, slurmd and slurmstepd find it through
# 'AuthInfo=socket=...' in DIR/slurm.conf (the auth/munge and cred/munge
# plugins both read it).  munge(1) and unmunge(1) need --socket.
#
# The daemons are not daemonized: start runs them in the foreground in
# the background (munged -F, slurmctld -D, slurmd -D), so they stay in
# the caller's process group, and a test runner that kills a timed-out
# test's group (meson sends TERM, then KILL half a second later) kills
# them too.  start also leaves a guardian, in a session of its own, that
# waits for one of them to end without a stop and then stops the rest and
# kills the job steps (slurmstepd ignores TERM and keeps retrying to reach
# slurmctld for minutes): nothing is left running even when the caller's
# trap never ran.  Only a runner that itself dies without ending the
# test's group leaves the daemons up (meson did, on a full disk): stop
# them with 'stop DIR', for the next start on the same ports fails.
#
# If a daemon ends during start, or the node is not idle within
# SLURM_ONE_NODE_TIMEOUT seconds (60), start prints the daemons' logs on
# standard error, stops what it started and exits 1.  stop cancels every
# job, waits for the job steps to end, ends the daemons named by the pid
# files in DIR and waits for them, kills any step left, and ends the
# guardian.  It does nothing for what is already gone, so it may be run
# twice, or after a start that failed.  Neither removes DIR.  Start takes
# about a second here, stop about four (each daemon saves its state).
#
# The node is this host's 'hostname -s', reached at 127.0.0.1, so no name
# lookup is needed.  The ports are 6817 (slurmctld) and 6818 (slurmd), or
# SLURM_ONE_NODE_PORT and SLURM_ONE_NODE_PORT + 1 to run beside another
# Slurm.  Everything runs as root (SlurmUser=root, jobs as root).  Debian
# 12 packages: slurmctld slurmd slurm-client munge.
set -u

me=slurm-one-node

die() {
	echo "$me: $*" >&2
	exit 1
}

usage() {
	echo "usage: $0 start DIR | stop DIR" >&2
	exit 2
}

[ $# -eq 2 ] || usage
cmd=$1
dir=$2

case $dir in
/*) ;;
*) dir=$(pwd)/$dir ;;
esac
case $dir in
*[!A-Za-z0-9_./-]*) die "DIR may hold only letters, digits and _ . / - (slurm.conf has no quoting): $dir" ;;
esac

# pid_of PIDFILE NAME: prints the pid in PIDFILE if it names a live
# process called NAME (a pid file left behind must not make us signal someone else).
pid_of() {
	[ -s "$1" ] || return 1
	pid=$(head -n 1 "$1" | tr -cd 0-9)
	[ -n "$pid" ] || return 1
	[ -r "/proc/$pid/comm" ] || return 1
	case $(cat "/proc/$pid/comm" 2>/dev/null) in
	"$2"*) echo "$pid" ;;
	*) return 1 ;;
	esac
}

# end_daemons NAME...: sends TERM to each daemon NAME of DIR/run/NAME.pid
# that runs, waits for them all up to 15 s (each takes about 2 s to save
# its state and go), then sends KILL to any left and waits 5 s more.
end_daemons() {
	pids=
	for name; do
		pid=$(pid_of "$dir/run/$name.pid" "$name") || continue
		kill -TERM "$pid" 2>/dev/null
		pids="$pids $pid"
	done
	i=0
	while :; do
		alive=
		for pid in $pids; do
			! kill -0 "$pid" 2>/dev/null || alive="$alive $pid"
		done
		[ -n "$alive" ] || break
		i=$((i + 1))
		if [ "$i" -eq 150 ]; then
			echo "$me: still running after 15 s, killing:$alive" >&2
			# shellcheck disable=SC2086 # one word per pid
			kill -KILL $alive 2>/dev/null
		elif [ "$i" -gt 200 ]; then
			echo "$me: these do not end:$alive" >&2
			return 1
		fi
		sleep 0.1
	done
	for name; do
		rm -f "$dir/run/$name.pid"
	done
}

show_logs() {
	# In the foreground the daemons write to standard error all they log
	# (and more: what comes before their log file is open).
	for log in munged.out slurmctld.out slurmd.out; do
		[ -s "$dir/log/$log" ] || continue
		echo "---- $dir/log/$log (last 40 lines)" >&2
		tail -n 40 "$dir/log/$log" >&2
	done
	if pid_of "$dir/run/slurmctld.pid" slurmctld >/dev/null; then
		echo "---- sinfo" >&2
		SLURM_CONF=$dir/slurm.conf sinfo -N -l >&2 2>&1
	fi
}

# steps: the pids of this cluster's slurmstepd processes (those that have
# DIR/log/slurmd.log open: slurmd hands its log on to them) and of every
# process under them, the jobs.
steps() {
	roots=
	# shellcheck disable=SC2013 # the names are /proc/PID/comm
	for comm in $(grep -lx slurmstepd /proc/[0-9]*/comm 2>/dev/null); do
		p=${comm%/comm}
		for fd in "$p"/fd/*; do
			if [ "$(readlink "$fd" 2>/dev/null)" = "$dir/log/slurmd.log" ]; then
				roots="$roots ${p#/proc/}"
				break
			fi
		done
	done
	[ -n "$roots" ] || return 0
	for stat in /proc/[0-9]*/stat; do
		cat "$stat" 2>/dev/null
		echo
	done | awk -v roots="$roots" '
		NF { pid = $1; sub(/.*\) /, ""); parent[pid] = $2 }
		END {
			n = split(roots, r, " ")
			for (i = 1; i <= n; i++) keep[r[i]] = 1
			do {
				more = 0
				for (p in parent)
					if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; more = 1 }
			} while (more)
			for (p in keep) print p
		}'
}

# stop [guard]: see the top of this file.  The guardian (below) runs it
# with 'guard' when the daemons died without one.
stop() {
	status=0
	[ -d "$dir/run" ] || return 0
	[ "${1:-}" = guard ] || echo $$ >"$dir/run/stopping"
	if [ -f "$dir/slurm.conf" ] && pid_of "$dir/run/slurmctld.pid" slurmctld >/dev/null; then
		# Cancel every job (the cluster is ours alone), then wait until
		# slurmd has no step left: a slurmstepd outlives slurmd.
		SLURM_CONF=$dir/slurm.conf
		export SLURM_CONF
		jobs=$(squeue -h -o %A 2>/dev/null | sort -u)
		# shellcheck disable=SC2086 # one word per job id
		[ -z "$jobs" ] || scancel $jobs 2>/dev/null
		i=0
		while [ "$i" -lt 300 ]; do
			left=$(squeue -h -o %A 2>/dev/null | head -n 1)
			sockets=$(find "$dir/spool" -type s 2>/dev/null | head -n 1)
			[ -z "$left$sockets" ] && break
			i=$((i + 1))
			sleep 0.1
		done
		[ "$i" -lt 300 ] || echo "$me: jobs or steps still there after 30 s: $left $sockets" >&2
	fi
	# All three together: each takes about 2 s to go.
	end_daemons slurmd slurmctld munged || status=1
	# Steps whose slurmctld was gone could not be cancelled: a slurmstepd
	# ignores TERM and retries for minutes to report to slurmctld.
	left=$(steps)
	if [ -n "$left" ]; then
		echo "$me: killing the steps left: $(echo "$left" | tr '\n' ' ')" >&2
		# shellcheck disable=SC2086 # one word per pid
		kill -KILL $left 2>/dev/null
	fi
	if [ "${1:-}" != guard ] && [ -s "$dir/run/guard.pid" ]; then
		pid=$(tr -cd 0-9 <"$dir/run/guard.pid")
		if [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF " guard $dir"; then
			kill -TERM "$pid" 2>/dev/null
			while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
		fi
		rm -f "$dir/run/guard.pid"
	fi
	rm -f "$dir/run/stopping"
	return $status
}

# guard: the guardian, in a session of its own, that start leaves
# running.  When a daemon ends and no stop is running (or the stop was
# killed), as when a test runner kills a timed-out test's process group,
# it stops the rest and kills the job steps, which would otherwise stay.
guard() {
	echo $$ >"$dir/run/guard.pid"
	sleeper=
	trap 'kill $sleeper 2>/dev/null; exit 0' TERM
	nap() { # a TERM ends wait at once, where it would wait for a sleep
		sleep 1 &
		sleeper=$!
		wait $sleeper
	}
	while pid_of "$dir/run/munged.pid" munged >/dev/null &&
		pid_of "$dir/run/slurmctld.pid" slurmctld >/dev/null &&
		pid_of "$dir/run/slurmd.pid" slurmd >/dev/null; do
		nap
	done
	while [ -s "$dir/run/stopping" ] && kill -0 "$(tr -cd 0-9 <"$dir/run/stopping")" 2>/dev/null; do
		nap
	done
	echo "$me: a daemon ended without a stop: stopping" >&2
	stop guard
	rm -f "$dir/run/guard.pid"
}

# launch NAME COMMAND...: runs COMMAND (a daemon in the foreground) in
# the background, its output in DIR/log/NAME.out, its pid in
# DIR/run/NAME.pid.  Not daemonized, it stays in the caller's process
# group: a test runner that kills the group of a test that timed out (as
# meson does) kills the daemons with it.
launch() {
	name=$1
	shift
	"$@" </dev/null >>"$dir/log/$name.out" 2>&1 &
	echo $! >"$dir/run/$name.pid"
}

# alive NAME: the process launched as NAME runs (it is not a zombie, as
# it is when it ended before start does).
alive() {
	pid=$(head -n 1 "$dir/run/$1.pid" 2>/dev/null | tr -cd 0-9)
	[ -n "$pid" ] && [ -r "/proc/$pid/stat" ] || return 1
	case $(cut -d ' ' -f 3 "/proc/$pid/stat" 2>/dev/null) in
	Z | X | '') return 1 ;;
	esac
}

# fail MESSAGE: the daemons' logs, then stop what was started.
fail() {
	echo "$me: $*" >&2
	show_logs
	stop
	exit 1
}

start() {
	for prog in munged slurmctld slurmd sinfo squeue scancel; do
		command -v "$prog" >/dev/null 2>&1 || die "$prog is not installed (Debian: slurmctld slurmd slurm-client munge)"
	done
	if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
		die "$dir is not empty"
	fi
	# slurmd's step sockets are SPOOL/NODE_JOB.STEP: keep room for them.
	[ ${#dir} -le 60 ] || die "DIR is ${#dir} bytes long; Unix socket paths must stay under 108 bytes, use a short one (mktemp -d /tmp/slurm.XXXXXX)"

	mkdir -p "$dir" || exit 1
	# munged wants its socket's directory, and every one above it, open
	# to all (a+x: mktemp -d makes a 700 directory), and its key readable
	# by its owner only.
	chmod 755 "$dir" || exit 1
	mkdir -m 700 "$dir/munge" && mkdir -m 755 "$dir/state" "$dir/spool" "$dir/log" "$dir/run" || exit 1

	node=$(hostname -s) || die "hostname -s failed"
	[ -n "$node" ] || die "hostname -s printed nothing"
	cpus=$(nproc)
	port=${SLURM_ONE_NODE_PORT:-6817}

	# The munge key: 128 random bytes, the size mungekey makes.
	(umask 077 && dd if=/dev/urandom of="$dir/munge/munge.key" bs=128 count=1 2>/dev/null) ||
		die "cannot write the munge key"

	cat > "$dir/slurm.conf" <<EOF
# Written by tests/engines/slurm-one-node.sh: one node, everything in
# $dir.
ClusterName=onenode
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/run/munge.socket.2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups, no systemd: plain process tracking, no task binding.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdParameters=config_overrides
SlurmdTimeout=60
KillWait=5
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=256 State=UNKNOWN
PartitionName=one Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

	SLURM_CONF=$dir/slurm.conf
	export SLURM_CONF
	timeout=${SLURM_ONE_NODE_TIMEOUT:-60}
	ticks=$((timeout * 5))

	launch munged munged --foreground --socket="$dir/run/munge.socket.2" \
		--key-file="$dir/munge/munge.key" --log-file="$dir/log/munged.log" \
		--pid-file="$dir/run/munged.pid" --seed-file="$dir/munge/munged.seed"
	i=0
	until [ -S "$dir/run/munge.socket.2" ]; do
		alive munged || fail "munged ended"
		i=$((i + 1))
		[ "$i" -le "$ticks" ] || fail "no munge socket after $timeout s"
		sleep 0.2
	done
	launch slurmctld slurmctld -D -f "$SLURM_CONF"
	launch slurmd slurmd -D -f "$SLURM_CONF" -N "$node"

	i=0
	while :; do
		for name in munged slurmctld slurmd; do
			alive "$name" || fail "$name ended"
		done
		state=$(sinfo -h -N -n "$node" -o %T 2>/dev/null)
		[ "$state" = idle ] && break
		i=$((i + 1))
		[ "$i" -le "$ticks" ] || fail "node $node not idle after $timeout s (state: ${state:-none})"
		sleep 0.2
	done
	self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
	setsid sh "$self" guard "$dir" </dev/null >>"$dir/log/guard.out" 2>&1 &
	echo "SLURM_CONF=$SLURM_CONF; export SLURM_CONF"
	echo "# munge socket: $dir/run/munge.socket.2 (Slurm reads it from AuthInfo in slurm.conf)"
}

case $cmd in
start) start ;;
stop) stop ;;
guard) guard ;;
*) usage ;;
esac
