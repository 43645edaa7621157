#!/bin/sh
# teosim import and capture-platform from the command line: exit status 0
# with a usable result, 1 when nothing usable remains (with the file and
# line or offset on stderr), 2 for a usage error; never a crash.
#
# usage: test-cli.sh TEOSIM TESTDATA
set -u
teosim=$1
data=$2

. "$(dirname "$0")/../tests/expect.sh"
# The importer writes some results on standard output.
expect_streams="err out"

expect 0 "note: CPUs idle when the capture started: 1" "$teosim" import "$data/basic.txt" -o "$work/basic.trace"
expect 0 "" grep -q "^# note: wakeups by the tick: 1" "$work/basic.trace"
expect 0 "" "$teosim" run --governor teo-6.12 --platform skx "$work/basic.trace"
expect 0 "^real *C6 *1 *0.100 *1 *0" "$teosim" import "$data/basic.txt" --report --platform skx --governors teo-6.12,menu-6.12
# basic.txt lasts less than the report's 100 ms of warm-up: nothing to compare.
expect 0 "^menu-6.12: no real period to compare after the warm-up" "$teosim" import "$data/basic.txt" --report --platform skx --governors teo-6.12,menu-6.12
expect 0 "truncated.txt:4: not an ftrace event line" "$teosim" import "$data/truncated.txt" -o "$work/t.trace"
expect 1 "not-a-trace.bin:1: byte offset 7: binary data" "$teosim" import "$data/not-a-trace.bin" -o "$work/x.trace"
expect 1 "fake.dat: a trace-cmd .dat file" "$teosim" import "$data/fake.dat" -o "$work/x.trace"
expect 1 "empty.txt: no power:cpu_idle events" "$teosim" import "$data/empty.txt" -o "$work/x.trace"
expect 1 "basic.txt:23: cpu 0 enters idle state 3, but platform juno has 3 states" "$teosim" import "$data/basic.txt" --report --platform juno
expect 2 "need one CAPTURE" "$teosim" import "$data/basic.txt"
expect 1 "idle states are unknown: give --platform P" "$teosim" import "$data/basic.txt" --report
expect 2 "it needs --report" "$teosim" import "$data/basic.txt" -o "$work/x.trace" --plot "$work/plots"
expect 2 "--name a b" "$teosim" import --name "a b" "$data/basic.txt" -o "$work/x.trace"

mkdir -p "$work/cpuidle/state0" "$work/cpuidle/state1"
printf 'POLL\n' > "$work/cpuidle/state0/name"; printf '0\n' > "$work/cpuidle/state0/latency"
printf '0\n' > "$work/cpuidle/state0/residency"
printf 'C1\n' > "$work/cpuidle/state1/name"; printf '2\n' > "$work/cpuidle/state1/latency"
printf '2\n' > "$work/cpuidle/state1/residency"
expect 0 "mybox.platform: platform mybox, 2 idle states" "$teosim" capture-platform --sysfs "$work/cpuidle" -o "$work/mybox.platform"
expect 0 "" "$teosim" run --governor menu-6.12 --platform "$work/mybox.platform" "$work/basic.trace"
expect 1 "no state0 directory" "$teosim" capture-platform --sysfs "$work/nothing" -o "$work/x.platform"
expect 2 "need -o FILE" "$teosim" capture-platform

# An imported trace names the captured machine (header 'platform',
# traces/trace-format.md), which run, compare and diff then use.
expect 0 "" "$teosim" import "$data/basic.txt" --platform skx -o "$work/named.trace"
expect 0 "" grep -qx "platform skx" "$work/named.trace"
expect 1 "" test -e "$work/named.platform"
expect 0 "platform skx," "$teosim" run --governor teo-6.12 "$work/named.trace"
# A machine from a file or from sysfs is written beside the trace, under the
# trace's name; kernel/capture-ftrace.sh's NAME.cpuidle/ copy is found alone.
mkdir "$work/cap" "$work/dest"
cp "$data/basic.txt" "$work/cap/box.trace.txt"
cp -r "$work/cpuidle" "$work/cap/box.cpuidle"
expect 0 "" "$teosim" import "$work/cap/box.trace.txt" -o "$work/dest/box2.trace"
expect 0 "" grep -qx "platform box2.platform" "$work/dest/box2.trace"
expect 0 "^name=box2$" cat "$work/dest/box2.platform"
expect 0 "" sh -c "cd / && '$(realpath "$teosim")' run --governor menu-6.12 '$work/dest/box2.trace' > '$work/named-run'"
"$teosim" run --governor menu-6.12 --platform "$work/mybox.platform" "$work/dest/box2.trace" > "$work/given-run"
expect 0 "platform box2," head -n 1 "$work/named-run"
# The same states as mybox.platform, from the same directory: the same scores.
tail -n +2 "$work/named-run" > "$work/named-scores"
tail -n +2 "$work/given-run" > "$work/given-scores"
expect 0 "" cmp "$work/named-scores" "$work/given-scores"
# basic.txt enters state 3: the report needs a machine with 4 states.
for s in 2:C1E:10:20 3:C6:133:600; do
	IFS=: read -r i name latency residency <<-EOF
	$s
	EOF
	mkdir "$work/cap/box.cpuidle/state$i"
	echo "$name" > "$work/cap/box.cpuidle/state$i/name"
	echo "$latency" > "$work/cap/box.cpuidle/state$i/latency"
	echo "$residency" > "$work/cap/box.cpuidle/state$i/residency"
done
expect 0 "^real *C6 *1" "$teosim" import "$work/cap/box.trace.txt" --report --governors menu-6.12
cp "$work/mybox.platform" "$work/cap/box.platform"
expect 0 "" "$teosim" import "$work/cap/box.trace.txt" -o "$work/cap/box.trace"
expect 0 "" cmp "$work/mybox.platform" "$work/cap/box.platform"
expect 1 "names no platform" "$teosim" run --governor teo-6.12 "$work/basic.trace"
expect 1 "names platform skx, trace .*box2.trace names .*box2.platform" \
	"$teosim" compare --governors teo-6.12,menu-6.12 "$work/named.trace" "$work/dest/box2.trace"
rm "$work/dest/box2.platform"
expect 2 "the platform that .*box2.trace names: .*box2.platform" \
	"$teosim" diff --governors teo-6.12,menu-6.12 "$work/dest/box2.trace"

# ---- Real captures: kernel/capture-ftrace.sh in the project's QEMU guest ----
# Each testdata/qemu-*.trace.txt is an unedited tracefs `trace` file from the
# guest, with the guest's idle states beside it as NAME.platform (written
# by `teosim capture-platform --sysfs` from a copy of the guest's
# cpu0/cpuidle) and how it was made in NAME.info.txt.  Every expectation
# below is derived from the capture text itself with awk and grep, not from
# teosim: the import must exit 0; --report's real rows must equal the
# complete cpu_idle entry/exit pairs per state counted here (usage, and time
# as the sum of exit - entry at the text's µs resolution), its kernel
# columns the cpu_idle_miss events per state and type, its tick line the
# tick_stop events; and the notes must name exactly the used event kinds
# the capture has none of.

# real_facts CAPTURE: what the capture says, one fact a line:
#   cpus N | state S USAGE TIME_US OPEN_AT_END ENTRIES | periods N | partial N
#   | miss S above|below N | complete_miss S above|below N
#   | tick_stop 1|0 N | started_idle N | odd N
#   | lost N | count EVENT N | bad N
# Pairs are per cpu_id, in file order (the `trace` file is merged by time):
# an entry (state != 4294967295) opens a period, the CPU's next exit closes
# it.  An exit with nothing open, or an entry while one is open, or one
# still open at the end, is a period cut by the capture (partial).
real_facts() {
	awk '
	# SECONDS.FRACTION: -> µs (the fraction cut or padded to 6 digits; the
	# "1" in front keeps leading zeros from being read as octal by busybox awk).
	function us(ts,   p) {
		sub(/:$/, "", ts); split(ts, p, ".")
		return p[1] * 1000000 + ("1" substr(p[2] "000000", 1, 6)) - 1000000
	}
	function field(name,   i) {
		for (i = ev + 1; i <= NF; i++) if (index($i, name "=") == 1) return substr($i, length(name) + 2)
		return ""
	}
	/^#/ { if (match($0, /#P:[0-9]+/)) cpus = substr($0, RSTART + 3, RLENGTH - 3); next }
	/^CPU:[0-9]+ \[LOST/ { lost++; next }
	{
		ev = 0
		for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { ev = i + 1; break }
		if (!ev || $ev !~ /^[a-z_0-9]+:$/) { bad++; next }
		t = us($i); name = substr($ev, 1, length($ev) - 1); count[name]++
		if (name == "cpu_idle") {
			s = field("state"); c = field("cpu_id")
			exit_ = (s == "4294967295" || s == "-1")
			if (!(c in seen)) { seen[c] = 1; if (exit_) started_idle++ }
			if (exit_) {
				closed[c] = ""
				if (c in open) {
					usage[open[c]]++; time[open[c]] += t - since[c]; periods++
					closed[c] = open[c]; delete open[c]
				} else { partial++; if (seen[c] > 1) odd++ }
			} else {
				entries[s]++; closed[c] = ""
				if (c in open) { partial++; odd++ }
				open[c] = s; since[c] = t
			}
			seen[c]++
		} else if (name == "cpu_idle_miss") {
			miss[field("state") " " field("type")]++
			# The kernel traces the miss right after the exit of the period
			# it judges: counted apart when that period is a complete one.
			c = field("cpu_id")
			if (closed[c] != "") kmiss[closed[c] " " field("type")]++
		} else if (name == "tick_stop") {
			ticks[field("success")]++
		}
	}
	END {
		for (c in open) { partial++; open_end[open[c]]++ }
		print "cpus", cpus + 0
		for (s = 0; s < 16; s++)
			print "state", s, usage[s] + 0, time[s] + 0, open_end[s] + 0, entries[s] + 0
		print "periods", periods + 0; print "partial", partial + 0
		for (k in miss) print "miss", k, miss[k]
		for (k in kmiss) print "complete_miss", k, kmiss[k]
		print "tick_stop 1", ticks[1] + 0; print "tick_stop 0", ticks[0] + 0
		print "started_idle", started_idle + 0; print "odd", odd + 0
		print "lost", lost + 0; print "bad", bad + 0
		for (n in count) print "count", n, count[n]
	}' "$1"
}

# fact KEY...: the value after KEY in $work/facts (0 when absent).
fact() {
	v=$(awk -v k="$*" 'index($0, k " ") == 1 { print substr($0, length(k) + 2); exit }' "$work/facts")
	echo "${v:-0}"
}

# check NAME GOT WANT
check() {
	if [ "$2" = "$3" ]; then
		echo "ok: $1: $2"
	else
		echo "FAIL: $1: got '$2', want '$3'"
		failures=$((failures + 1))
	fi
}

# has_note TEXT: whether the import's notes (its stderr) contain TEXT.
has_note() { grep -q -- "note: $1" "$work/import.err" && echo yes || echo no; }

real_capture() {
	cap=$1 plat=${1%.trace.txt}.platform
	[ -f "$plat" ] || { echo "FAIL: $cap has no platform $plat beside it"; failures=$((failures + 1)); return; }
	real_facts "$cap" > "$work/facts"
	check "$cap: lines that are not events" "$(fact bad)" 0

	# The import: exit 0, a trace with the same notes.
	"$teosim" import "$cap" -o "$work/real.trace" > /dev/null 2> "$work/import.err"
	check "$cap: teosim import exit status" $? 0
	cat "$work/import.err"

	# Notes: a used event kind is reported missing exactly when the capture has none.
	ipis=$(( $(fact count irq_handler_entry) + $(fact count ipi_entry) + $(fact count call_function_entry) +
		$(fact count call_function_single_entry) + $(fact count reschedule_entry) ))
	for kind in hrtimer_start hrtimer_expire_entry sched_wakeup tick_stop irq; do
		case $kind in
		irq) n=$ipis text="no irq_handler_entry or IPI events" ;;
		*) n=$(fact count $kind) text="no $kind events" ;;
		esac
		check "$cap: note '$text' ($n events)" "$(has_note "$text")" "$([ "$n" -eq 0 ] && echo yes || echo no)"
	done
	n=$(fact count hrtimer_cancel)
	check "$cap: note 'no hrtimer_cancel events' ($n events)" "$(has_note "no hrtimer_cancel events")" \
		"$([ "$n" -eq 0 ] && [ "$(fact count hrtimer_start)" -gt 0 ] && echo yes || echo no)"
	# Events outside the used set are listed with their counts, sorted.
	unused=$(awk '$1 == "count" && $2 !~ /^(cpu_idle|cpu_idle_miss|hrtimer_start|hrtimer_cancel|hrtimer_expire_entry|tick_stop|irq_handler_entry|ipi_entry|call_function_entry|call_function_single_entry|reschedule_entry|sched_wakeup)$/ { print $2 " (" $3 ")" }' \
		"$work/facts" | sort | paste -sd, - | sed 's/,/, /g')
	if [ -n "$unused" ]; then
		check "$cap: note 'events not used'" "$(has_note "events not used: $unused")" yes
	else
		check "$cap: no note 'events not used'" "$(has_note "events not used")" no
	fi
	n=$(fact started_idle)
	check "$cap: note 'CPUs idle when the capture started: $n'" \
		"$(has_note "CPUs idle when the capture started: $n")" "$([ "$n" -gt 0 ] && echo yes || echo no)"
	check "$cap: no note on lost events ($(fact lost) markers)" "$(has_note "lost-events markers")" \
		"$([ "$(fact lost)" -gt 0 ] && echo yes || echo no)"
	check "$cap: no note on entries while idle ($(fact odd) in the capture)" "$(has_note "idle entries while idle")" \
		"$([ "$(fact odd)" -gt 0 ] && echo yes || echo no)"
	check "$cap: no note on unreadable lines" "$(has_note "unreadable lines")" no
	check "$cap: the written trace carries the notes" \
		"$(grep -c '^# note: ' "$work/real.trace")" "$(grep -c 'note: ' "$work/import.err")"

	# The report: the real rows against the pairs counted above.
	"$teosim" import "$cap" --report --platform "$plat" --governors menu-6.1,teo-6.1 \
		> "$work/report" 2> /dev/null
	check "$cap: teosim import --report exit status" $? 0
	cat "$work/report"
	check "$cap: cpus" "$(sed -n 's/^capture .*: cpus \([0-9]*\),.*/\1/p' "$work/report")" "$(fact cpus)"
	check "$cap: complete idle periods and cut ones" \
		"$(sed -n 's/^real: complete idle periods: \([0-9]*\), left out .*: \([0-9]*\)$/\1 \2/p' "$work/report")" \
		"$(fact periods) $(fact partial)"
	miss=$(grep -c '^source .*miss_above' "$work/report")
	names=$(awk -F= '/^\[state[0-9]+\]/ { s = substr($0, 7) + 0 } $1 == "name" && s != "" { print s, $2 }' "$plat")
	echo "$names" | while read -r s name; do
		set -- $(fact state "$s")
		usage=$1 time_us=$2 open_end=$3 entries=$4
		want="$usage $((time_us / 1000)).$(printf %03d $((time_us % 1000)))"
		got=$(awk -v n="$name" '$1 == "real" && $2 == n { print $3, $4 }' "$work/report")
		check "$cap: real $name usage and time_ms (pairs counted with awk)" "$got" "$want"
		# Cross-check: every entry of the state is a complete period or is open at the end.
		check "$cap: $name: cpu_idle entries (grep -c) = usage + open at the end" \
			"$(grep -c "cpu_idle: state=$s cpu_id=" "$cap")" "$((usage + open_end))"
		if [ "$miss" = 1 ]; then
			check "$cap: real $name miss_above miss_below (cpu_idle_miss events)" \
				"$(awk -v n="$name" '$1 == "real" && $2 == n { print $7, $8 }' "$work/report")" \
				"$(fact miss "$s" above) $(fact miss "$s" below)"
			# Shown, not asserted: teosim's above/below (trace times and the
			# platform) next to the kernel's verdicts on the same complete
			# periods.  They agree on most periods but need not on all: the
			# kernel measures with local_clock(), which in this TCG guest
			# (TSC marked unstable) is sched_clock's per-CPU filtered clock,
			# while the trace clock is mono (HPET), and the trace events
			# bracket the kernel's two clock reads.
			echo "info: $cap: $name above below from the trace times:" \
				"$(awk -v n="$name" '$1 == "real" && $2 == n { print $5, $6 }' "$work/report");" \
				"the kernel's on the same periods: $(fact complete_miss "$s" above) $(fact complete_miss "$s" below)"
		fi
	done > "$work/state-checks"
	cat "$work/state-checks"
	failures=$((failures + $(grep -c '^FAIL' "$work/state-checks")))
	check "$cap: report has the kernel's miss columns" "$miss" \
		"$([ "$(fact count cpu_idle_miss)" -gt 0 ] && echo 1 || echo 0)"
	if [ "$(fact count tick_stop)" -gt 0 ]; then
		check "$cap: tick stops and failed attempts" \
			"$(sed -n 's/^real: tick stops: \([0-9]*\), failed attempts: \([0-9]*\)$/\1 \2/p' "$work/report")" \
			"$(fact tick_stop 1) $(fact tick_stop 0)"
	fi
	# The imported trace replays: every simulated governor ran on it.
	for g in menu-6.1 teo-6.1; do
		check "$cap: $g rows in the report (states and all)" "$(grep -c "^$g " "$work/report")" \
			"$(( $(echo "$names" | wc -l) + 1 ))"
		# Its fidelity line says what teosim fidelity does without a call log.
		"$teosim" fidelity -g "$g" -p "$plat" "$cap" > "$work/fidelity" 2> /dev/null
		check "$cap: $g fidelity in the report is teosim fidelity's" \
			"$(sed -n "s/^$g: tvd_periods \([0-9.]*\) tvd_time \([0-9.]*\) same_state \([0-9.]*\)% (\([0-9]*\) of \([0-9]*\) matched of \([0-9]*\) real periods) tvd_periods_outside_polling_runs \([0-9.]*\)$/\1 \2 \3 \4 \5 \6 \7/p" "$work/report")" \
			"$(awk '$1 == "tvd_periods" { tp = $2 } $1 == "tvd_time" { tt = $2 }
				$1 == "matched" { m = $2; r = $4 } $1 == "same_state" { s = $2 }
				$1 == "tvd_periods_outside_polling_runs" { to = $2 }
				END { printf "%s %s %.2f %d %d %d %s", tp, tt, 100 * s / m, s, m, r, to }' "$work/fidelity")"
	done
}

found=0
for cap in "$data"/qemu-*.trace.txt; do
	[ -f "$cap" ] || continue
	found=$((found + 1))
	real_capture "$cap"
done
check "real captures from the QEMU guest in $data" "$([ "$found" -gt 0 ] && echo present || echo none)" present

# teosim fidelity: errors, bounds, and an output file left as it was by a failed run.
kt=$data/kernel-timing.txt
expect 2 "need --governor NAME" "$teosim" fidelity -p qemu-tcg "$kt"
expect 1 "idle states are unknown: give --platform P" "$teosim" fidelity -g menu-6.1 "$kt"
expect 2 "need one CAPTURE" "$teosim" fidelity -g menu-6.1 -p qemu-tcg
expect 2 "--match-us -1: 0 to 1000000" "$teosim" fidelity -g menu-6.1 -p qemu-tcg --match-us -1 "$kt"
expect 2 "--warmup-ms -5: must be 0 or more" "$teosim" fidelity -g menu-6.1 -p qemu-tcg --warmup-ms -5 "$kt"
expect 2 "--warmup-periods -1: must be 0 or more" "$teosim" fidelity -g menu-6.1 -p qemu-tcg --warmup-periods -1 "$kt"
expect 1 "unknown governor 'nosuch'" "$teosim" fidelity -g nosuch -p qemu-tcg "$kt"
expect 1 "missing.txt" "$teosim" fidelity -g menu-6.1 -p qemu-tcg "$work/missing.txt"
echo keep > "$work/periods.csv"
expect 1 "missing.calls" "$teosim" fidelity -g menu-6.1 -p qemu-tcg --calls "$work/missing.calls" \
	--periods "$work/periods.csv" "$kt"
check "fidelity: a failed run leaves --periods as it was" "$(cat "$work/periods.csv")" keep
expect 0 "" "$teosim" fidelity -g menu-6.1 -p qemu-tcg --warmup-ms 0 --warmup-periods 0 --calls "$data/kernel-timing.calls" \
	--periods "$work/periods.csv" --max-tvd 1 "$kt"
check "fidelity: the real periods of kernel-timing.txt" \
	"$("$teosim" fidelity -g menu-6.1 -p qemu-tcg --warmup-ms 0 --warmup-periods 0 "$kt" 2>/dev/null | awk '$1 == "periods" && $2 ~ /^[0-9]+$/ { print $2 }')" 3
check "fidelity: --periods has the header and the real periods" \
	"$(awk -F, 'NR > 1 && $2 != "" { n++ } END { print n }' "$work/periods.csv")" 3
check "fidelity: the latency limit comes from the call log" \
	"$("$teosim" fidelity -g menu-6.1 -p qemu-tcg --calls "$data/kernel-timing.calls" "$kt" 2>/dev/null | head -n 1 | grep -c 'latency limit 20 us')" 1
expect 1 "below --min-same 101.00" "$teosim" fidelity -g menu-6.1 -p qemu-tcg --warmup-ms 0 --warmup-periods 0 --min-same 101 "$kt"

echo "$failures failures"
[ "$failures" -eq 0 ]
