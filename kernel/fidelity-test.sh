#!/bin/sh
# Fidelity test: the simulator, run on a workload captured from the real
# kernel, must choose idle states as that kernel did.
#
# usage: kernel/fidelity-test.sh TEOSIM GOVERNOR [BOUNDS]
#
#   TEOSIM    the teosim executable
#   GOVERNOR  teo-v8, teo-6.1, menu-6.1, ladder-6.1 (Linux 6.1 kernel) or
#             teo-6.12, menu-6.12, ladder-6.12 (Linux 6.12 kernel)
#   BOUNDS    what the governor must reach (default kernel/fidelity-bounds,
#             whose header explains it)
#
# One paired run: the guest (run-guest.sh -T global) runs each workload
# family below once, capturing it through tracefs with trace_clock global
# (the clock the recorder's local_clock() reads) while the recorder logs
# every governor call.  For each family, `teosim fidelity` imports the
# capture, simulates GOVERNOR on it on the bundled platform qemu-tcg (the
# guest's states with its measured costs) and compares with the kernel:
# the total variation distance (TVD) of the per-state shares of idle
# periods and of idle time, and the share of matched periods given the
# same state.  The medians of these over the families are checked against
# the governor's line in BOUNDS, and in every family the selects must have
# been told the count of tasks waiting for I/O the kernel's were (the
# importer's reading of the capture); a boot out of bounds is tried once
# more (see below).  The guest's own idle-state table must be qemu-tcg's.
#
# Prints one line per family (out_runs: the TVD of periods outside runs
# of 20 or more polling periods, which one decision on an edge makes
# under a held-up interrupt; for reading a miss, not checked), and keeps
# the run in
# $TEOSIM_CACHE/logs/fidelity-GOVERNOR/ (the captures, the call log, each
# family's report and period-by-period CSV) and a summary,
# fidelity-GOVERNOR.txt, beside it.  Exit status: 0 pass, 1 fail, 77 skip.
set -eu

. "$(dirname "$0")/governors.sh"
KERNEL_VERSION=${KERNEL_VERSION:-$(gov_kernel "${2:-}")}
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] || die "usage: fidelity-test.sh TEOSIM GOVERNOR [BOUNDS]"
teosim=$1 name=$2 bounds=${3:-$KDIR/fidelity-bounds}
kgov=$(gov_kernel_name "$name")
[ -n "$kgov" ] || die "unknown governor $name"
[ "$KERNEL_VERSION" = "$(gov_kernel "$name")" ] ||
	die "$name runs in the $(gov_kernel "$name") kernel, not in KERNEL_VERSION=$KERNEL_VERSION"
[ -f "$bounds" ] || die "no bounds file $bounds"
skip_without_guest
[ -x "$teosim" ] || die "no teosim executable at $teosim"

# The workload families, two seconds each on both vCPUs, as "NAME ITEM"
# (ITEM for guest/teosim-work): periodic timers below (200 us), around
# (4 ms) and above (20 ms) the tick at HZ 250, device interrupts (virtio
# reads), IPI ping-pong, remote wakeups of an idle (often polling) CPU,
# bursts followed by silence, a nearly idle system, and a PM QoS latency
# limit of 20 us.  The nearly idle system runs 20 s: a daemon's wakeup
# every 50 to 500 ms on each CPU beside the kernel's own timers (the
# timer wheel's, the do_timer CPU's limit), for the 50 periods a
# comparison needs (the kernel's timers alone gave a 6.1 guest 0 to 16).
FAMILIES="timers-200us timers:2:5000
timers-4ms timers:2:250
timers-20ms timers:2:50
io io:2
pingpong pingpong:2:20
remote remote:2:1
burst burst:2:1
idle idle:20:1
qos-20us qos:2:20"
work=$(echo "$FAMILIES" | awk '{ printf "%s%s", (NR > 1 ? "," : ""), $2 }')

guest_images

mkdir -p "$TEOSIM_CACHE/logs"
exec 8>"$TEOSIM_CACHE/logs/fidelity-$name.lock"
flock 8
run=$TEOSIM_CACHE/logs/fidelity-$name
summary=$run.txt

# The governor's bounds: "MAX_TVD MIN_SAME" from BOUNDS.
set -- $(awk -v g="$name" '!/^#/ && $1 == g { print $2, $3 }' "$bounds")
[ $# = 2 ] || die "$bounds has no line for $name"
max_tvd=$1 min_same=$2
# The share of selects given the kernel's count of tasks waiting for I/O,
# in every compared family: 98.4 % at the least over twelve sets' 706
# pairs of 50 periods or more (one select of 62), 100 % in 687 of them;
# without the count, io falls to about 68 %.
MIN_SAME_IOWAIT=97

# paired_run: boots the guest once, compares every family, appends the
# table to $summary; fails when the medians are out of the bounds, or when
# anything fails (set -e does not hold in a function called as a condition).
paired_run() {
	GUEST_MEM=1G "$KDIR/run-guest.sh" -k "$image" -i "$initrd" -g "$kgov" -w "$work" \
		-T global -m 400000 -t 600 -o "$run" || return 1

	# The guest must have run on the states the simulation uses.
	"$teosim" capture-platform --sysfs "$run/cpuidle" -o "$run/guest.platform" --name guest \
		>/dev/null || return 1
	guest_states=$(grep -E '^(name|exit_latency_us|target_residency_us|flags)=' \
		"$run/guest.platform" | sed 1d)
	tcg_states=$(grep -E '^(name|exit_latency_us|target_residency_us|flags)=' \
		"$REPO/traces/platforms/qemu-tcg.platform" | sed 1d)
	[ "$guest_states" = "$tcg_states" ] ||
		die "the guest's idle states ($run/guest.platform) are not those of traces/platforms/qemu-tcg.platform"

	{
		echo "fidelity of $name (Linux $KERNEL_VERSION, $(date -u +%Y-%m-%d)), platform qemu-tcg, HZ 250"
		printf '%-14s %9s %9s %9s %9s %8s %8s %7s %7s %8s %9s  %s\n' family periods simulated \
			tvd_per tvd_time matched same differ k_short iowait out_runs "target (0.05, 90 %)"
	} >> "$summary"
	no=0
	echo "$FAMILIES" | while read -r family item; do
		no=$((no + 1))
		grep -qx "$no $item" "$run/items.txt" || die "the guest did not run $item (see $run/items.txt)"
		report=$run/item-$no.fidelity
		"$teosim" fidelity -g "$name" -p qemu-tcg --calls "$run/calls" \
			--periods "$run/item-$no.csv" "$run/item-$no.trace" > "$report" 2> "$report.log" ||
			{ cat "$report.log" >&2; die "teosim fidelity failed on $item"; }
		awk -v fam="$family" '
			/^periods +[0-9]/ { real = $2; sim = $3 }
			/^tvd_periods / { tp = $2 }
			/^tvd_time / { tt = $2 }
			/^matched / { m = $2 }
			/^same_state / { s = $2 }
			# Differing decisions, and those where the kernel was told a much shorter sleep.
			/^differing / { d = $2; k = $4 }
			# Selects told the count of tasks waiting for I/O the kernel was told.
			/^inputs of / { io = $NF + 0 }
			# The TVD of periods outside runs of polling periods (sim/README.md).
			/^tvd_periods_outside_polling_runs / { out = $2 }
			END {
				same = m ? 100 * s / m : 0
				verdict = "short of the target"
				if (tp <= 0.05 && tt <= 0.05 && same >= 90)
					verdict = "target met"
				# Fewer periods than a polling episode has: nothing to compare.
				if (real < 50)
					verdict = "not compared (too few periods)"
				printf "%-14s %9d %9d %9.4f %9.4f %8d %7.2f%% %7d %7d %7.2f%% %9.4f  %s\n",
					fam, real, sim, tp, tt, m, same, d, k, io, out, verdict
			}' "$report"
	done > "$run/families"
	cat "$run/families" >> "$summary"
	[ "$(wc -l < "$run/families")" = "$(echo "$FAMILIES" | wc -l)" ] ||
		{ echo "not every family was compared" >> "$summary"; return 1; }
	# The medians over the compared families, against the governor's bounds;
	# the importer's count of tasks waiting for I/O, against the kernel's.
	awk -v max_tvd="$max_tvd" -v min_same="$min_same" -v min_iowait="$MIN_SAME_IOWAIT" '
		BEGIN { n = 0; io_ok = 1 }
		!/not compared/ {
			t[n] = $4 > $5 ? $4 : $5; s[n] = $7 + 0; n++
			if ($10 + 0 < min_iowait) {
				printf "%s: the tasks waiting for I/O differ from the kernel at %.2f%% of the selects (at most %.2f%%)\n",
					$1, 100 - $10, 100 - min_iowait
				io_ok = 0
			}
		}
		END {
			for (i = 0; i < n; i++)
				for (j = i + 1; j < n; j++) {
					if (t[j] < t[i]) { x = t[i]; t[i] = t[j]; t[j] = x }
					if (s[j] < s[i]) { x = s[i]; s[i] = s[j]; s[j] = x }
				}
			mt = n % 2 ? t[int(n / 2)] : (t[n / 2 - 1] + t[n / 2]) / 2
			ms = n % 2 ? s[int(n / 2)] : (s[n / 2 - 1] + s[n / 2]) / 2
			ok = n > 0 && mt <= max_tvd && ms >= min_same && io_ok
			printf "median over %d families: tvd %.4f (at most %s), same %.2f%% (at least %s%%): %s\n",
				n, mt, max_tvd, ms, min_same, ok ? "ok" : "FAIL"
			exit !ok
		}' "$run/families" >> "$summary"
}

# TCG's timing differs from one boot to the next, now and then far (an
# interrupt milliseconds late turns a small family's shares around): a run
# out of bounds is tried once more, and the second must pass.  A change
# that makes the simulation drift from the kernel fails both.
: > "$summary"
if ! paired_run; then
	echo "out of bounds on the first boot; booting once more" >> "$summary"
	if ! paired_run; then
		cat "$summary"
		echo "FAIL: $name strays from the kernel beyond $bounds, twice (reports in $run)"
		exit 1
	fi
fi
cat "$summary"
echo "PASS: $name"
