#!/bin/sh
# Boot the ground-truth guest once and bring its governor-call log back.
#
# usage: kernel/run-guest.sh -k BZIMAGE -i INITRAMFS -g GOVERNOR -w WORK -o LOG
#                            [-s STATES] [-m MAX] [-n MIN_RECORDS] [-t TIMEOUT] [-c CONSOLE]
#                            [-T CLOCK]
#
#   -g  kernel governor name for cpuidle.governor= (teo-v8, teo, menu, ladder)
#   -w  workloads for the guest's /init, e.g. timers:3:1000,pingpong:3:20
#   -s  idle states for teosim_idle.states= (default C1:2:2,C1E:10:20,C6:133:600)
#   -m  records per CPU for teosim_rec.max= (default 131072)
#   -n  teosim.min_records= for the guest's /init: repeat the workloads (up to
#       4 passes) until the recorder holds this many records (default 0)
#   -t  seconds before the guest is killed (default 300)
#   -c  where the serial console goes (default LOG.console)
#   -T  paired run: the guest also captures each workload item through
#       tracefs with trace_clock CLOCK; LOG is then a directory that gets
#       calls (the log), item-N.trace (item N's capture, from 1), items.txt,
#       info.txt and cpuidle/ (guest/init says what each holds)
#
# QEMU: TCG (never KVM), 2 CPUs, 256 MiB, no display, -no-reboot (the guest
# resets itself when done, which ends QEMU).  The guest writes the log raw
# at the start of a scratch virtio disk and prints its length on the console
# ("TEOSIM-LOG-BYTES N"); this script copies that many bytes to LOG.
set -eu
. "$(dirname "$0")/lib.sh"

kernel= initrd= gov= work= out= console= max=131072 timeout=300 min_records=0 trace=
states=C1:2:2,C1E:10:20,C6:133:600
while getopts k:i:g:w:o:s:m:n:t:c:T: opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	i) initrd=$OPTARG ;;
	g) gov=$OPTARG ;;
	w) work=$OPTARG ;;
	o) out=$OPTARG ;;
	s) states=$OPTARG ;;
	m) max=$OPTARG ;;
	n) min_records=$OPTARG ;;
	t) timeout=$OPTARG ;;
	c) console=$OPTARG ;;
	T) trace=$OPTARG ;;
	*) die "bad option" ;;
	esac
done
[ -n "$kernel" ] && [ -n "$initrd" ] && [ -n "$gov" ] && [ -n "$work" ] && [ -n "$out" ] ||
	die "usage: run-guest.sh -k BZIMAGE -i INITRAMFS -g GOVERNOR -w WORK -o LOG [-s STATES] [-m MAX] [-t TIMEOUT] [-c CONSOLE]"
console=${console:-$out.console}
disk=$out.disk

# The disk must hold the log: about 130 bytes a record (the traces of a
# paired run come compressed, and so does its log).
rm -f "$disk"
truncate -s $(( (max * 2 * 160 / 1048576 + 16) ))M "$disk"

append="console=ttyS0 panic=-1 cpuidle.governor=$gov teosim_idle.states=$states"
append="$append teosim_rec.max=$max teosim.min_records=$min_records teosim.work=$work"
[ -z "$trace" ] || append="$append teosim.trace=$trace"
bytes=$(boot_guest "$kernel" "$initrd" "$disk" "$timeout" "$console" TEOSIM-LOG-BYTES "$append") || exit 1
if [ -z "$trace" ]; then
	head -c "$bytes" "$disk" > "$out"
else
	rm -rf "$out"
	mkdir -p "$out"
	head -c "$bytes" "$disk" | tar -xf - -C "$out" || die "cannot unpack the guest's archive"
	for z in "$out"/*.gz; do gunzip -f "$z" || die "cannot uncompress $z"; done
fi
rm -f "$disk"
say "log: $out ($bytes bytes)"
