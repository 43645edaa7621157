#!/bin/sh
# Ground-truth test: the real governor in a QEMU guest against its userspace
# build, on the same recorded inputs.
#
# usage: kernel/ground-truth-test.sh TEOSIM GOVERNOR [WORK]
#
#   TEOSIM    the teosim executable
#   GOVERNOR  teosim's governor name: teo-v8, teo-6.1, menu-6.1, ladder-6.1
#             (Linux 6.1 kernel) or teo-6.12, menu-6.12, ladder-6.12 (Linux
#             6.12 kernel); the suffix picks KERNEL_VERSION (lib.sh)
#   WORK      guest workloads (default: a per-governor mix, see below)
#
# Steps: build or reuse the kernel (build-kernel.sh) and the initramfs
# (build-initramfs.sh); boot the guest with cpuidle.governor= set to the
# governor, run the workloads, and bring the log back (run-guest.sh); check
# that it holds at least $MIN_SELECTS decisions; run
#   teosim replay --governor GOVERNOR --check --quiet --usage USAGE LOG
# which exits 0 only if every recorded decision (state and stop_tick) is
# the one the userspace build makes on the same inputs; print the number of
# decisions compared, and the idle-state counters per state, summed over
# the CPUs, from the guest (snapshot at the moment recording stopped) next
# to the replay's.  Exit status: 0 pass, 1 fail, 77 skip (no QEMU, no
# kernel source, no seed patch for the 6.1 kernel's teo-v8).
#
# Environment: MIN_SELECTS (10000), STATES (the idle-state table), and those
# of lib.sh.  KERNEL_VERSION may be set (kernel/meson.build does), but must
# be the governor's.  Logs and consoles are kept in $TEOSIM_CACHE/logs/.
set -eu

# The kernel a governor runs in, from its name.  Decided before lib.sh is
# read, because lib.sh derives the tree, lock and tarball from it.
. "$(dirname "$0")/governors.sh"
gov_kernel=$(gov_kernel "${2:-}")
KERNEL_VERSION=${KERNEL_VERSION:-$gov_kernel}
. "$(dirname "$0")/lib.sh"

MIN_SELECTS=${MIN_SELECTS:-10000}
# The guest's idle states (teosim_idle.states=); e.g. C1:2:2,C1E:10:20:unusable,C6:133:600
# to exercise a state disabled by the driver.
STATES=${STATES:-C1:2:2,C1E:10:20,C6:133:600}

[ $# -ge 2 ] || die "usage: ground-truth-test.sh TEOSIM GOVERNOR [WORK]"
teosim=$1 name=$2
kgov=$(gov_kernel_name "$name")
case $name in
teo-v8) work=timers:2:2000,pingpong:2:20,mixed:2:1 ;;
teo-6.1 | teo-6.12) work=timers:2:2000,pingpong:2:20,mixed:2:2 ;;
# 6.12's menu no longer reads nr_iowait_cpu(); io still brings virtio
# interrupts, a wakeup source the other workloads lack.
menu-6.1 | menu-6.12) work=timers:2:2000,pingpong:2:20,io:2 ;;
ladder-6.1 | ladder-6.12) work=timers:2:2000,pingpong:2:20,mixed:2:3 ;;
*) die "unknown governor $name" ;;
esac
work=${3:-$work}
[ "$KERNEL_VERSION" = "$gov_kernel" ] ||
	die "$name runs in the $gov_kernel kernel, not in KERNEL_VERSION=$KERNEL_VERSION"

skip_without_guest
[ -x "$teosim" ] || die "no teosim executable at $teosim"

guest_images

mkdir -p "$TEOSIM_CACHE/logs"
# The logs are kept under the governor's name: two runs of the same test
# (two build directories, two users of one cache) take turns.
exec 8>"$TEOSIM_CACHE/logs/$name.lock"
flock 8
log=$TEOSIM_CACHE/logs/$name.calls
usage=$TEOSIM_CACHE/logs/$name.usage
rm -f "$log" "$usage"
# Ask the guest for 10 % more records than two per select needed, so that
# one pass of the workloads usually suffices and a slow host gets more.
"$KDIR/run-guest.sh" -k "$image" -i "$initrd" -g "$kgov" -w "$work" -s "$STATES" -o "$log" \
	-n $(( MIN_SELECTS * 22 / 10 ))

selects=$(grep -c '^select ' "$log" || true)
reflects=$(grep -c '^reflect ' "$log" || true)
echo "guest log: $log"
echo "  Linux $KERNEL_VERSION, governor $kgov, states $STATES, work $work"
echo "  $selects selects, $reflects reflects"
grep '^# cpu ' "$log" | sed 's/^# /  /'
[ "$selects" -ge "$MIN_SELECTS" ] || { echo "FAIL: fewer than $MIN_SELECTS selects recorded"; exit 1; }

rc=0
"$teosim" replay --governor "$name" --check --quiet --usage "$usage" "$log" 2> "$log.replay" || rc=$?
cat "$log.replay"
if [ "$rc" != 0 ]; then
	echo "FAIL: teosim replay --check exited $rc (first mismatch above)"
	exit 1
fi
compared=$(sed -n 's/.*: \([0-9]*\) of [0-9]* decisions compared.*/\1/p' "$log.replay")
echo "decisions compared: ${compared:-?} (governor $name, all identical)"

# Counters per state summed over the CPUs: guest (the recorder's snapshot of
# dev->states_usage[], what sysfs shows) and replay (teosim's accounting).
# teo-v8 is replayed on kshim's 4.20 core, which counts usage and time in
# us only (no above/below, no ns); the guest runs it on the 6.1 core.  So
# for teo-v8 only usage is expected to match.
usage_only=0
[ "$name" = teo-v8 ] && usage_only=1
echo "idle-state counters, summed over CPUs (guest = kernel at stop, replay = teosim):"
[ "$usage_only" = 1 ] && echo "  (teo-v8: the replay's 4.20 core keeps time in us and no above/below; only usage is compared)"
{
	sed -n 's/^# guest-usage /guest /p' "$log"
	sed -n 's/^usage /replay /p' "$usage"
} | awk -v usage_only="$usage_only" '
	{
		src = $1
		for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
		s = f["state"]; if (s > max) max = s
		u[src, s] += f["usage"]; t[src, s] += f["time_ns"]
		a[src, s] += f["above"]; b[src, s] += f["below"]; r[src, s] += f["rejected"]
	}
	END {
		printf "  %-6s %5s %10s %16s %8s %8s %8s\n", "", "state", "usage", "time_ns", "above", "below", "rejected"
		bad = 0
		for (s = 0; s <= max; s++) {
			for (k = 0; k < 2; k++) {
				src = k ? "replay" : "guest"
				printf "  %-6s %5d %10d %16.0f %8d %8d %8d\n", src, s, u[src, s], t[src, s], a[src, s], b[src, s], r[src, s]
			}
			if (u["guest", s] != u["replay", s] || (!usage_only &&
			    (t["guest", s] != t["replay", s] || a["guest", s] != a["replay", s] ||
			     b["guest", s] != b["replay", s] || r["guest", s] != r["replay", s])))
				{ printf "  state %d: counters differ\n", s; bad = 1 }
		}
		if (!bad) print usage_only ? "  usage identical" : "  counters identical"
		exit bad
	}' || { echo "FAIL: the replay's idle-state counters differ from the kernel's"; exit 1; }
echo "PASS: $name"
