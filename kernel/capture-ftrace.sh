#!/bin/sh
# Record a real ftrace capture in the QEMU guest, for `teosim import`.
#
# usage: kernel/capture-ftrace.sh -o OUTDIR [-g GOVERNOR] [-w WORK] [-d DELAY_MS]
#                                 [-r RECORD_MS] [-b BUFFER_KB] [-c CLOCK]
#                                 [-s STATES] [-n NAME] [-T TEOSIM] [-t TIMEOUT]
#
#   -o  where the results go (created if missing)
#   -g  kernel governor for cpuidle.governor= (menu, teo, ladder, teo-v8;
#       default menu)
#   -w  guest workloads, as for ground-truth-test.sh (default mixed:3:1)
#   -d  start recording this many ms after the workloads start (default 500)
#   -r  record for this many ms (default 500)
#   -b  tracefs buffer_size_kb per CPU (default 8192; the guest has 256 MiB)
#   -c  tracefs trace_clock (default mono)
#   -s  idle states for teosim_idle.states= (default C1:2:2,C1E:10:20,C6:133:600)
#   -n  base name of the results (default qemu-VERSION-GOVERNOR, VERSION
#       the kernel's: KERNEL_VERSION=6.1, the default, or 6.12)
#   -T  the teosim executable: also write NAME.platform with
#       `teosim capture-platform --sysfs` from the guest's cpuidle copy
#   -t  seconds before the guest is killed (default 300)
#
# Steps:
#   1. build or reuse the ground-truth kernel of KERNEL_VERSION
#      (build-kernel.sh), which has the ftrace events;
#   2. build or reuse the initramfs with kernel/guest/capture-init as /init
#      ($TEOSIM_CACHE/guest-capture-init-HASH);
#   3. boot it once: QEMU TCG (never KVM), -smp 2 -m 256M, as run-guest.sh.
#      The guest starts the workloads in the background, enables through
#      tracefs the events of traces/import-format.md that this kernel has,
#      records RECORD_MS from DELAY_MS on, and returns a tar archive on a
#      scratch virtio disk (see guest/capture-init);
#   4. unpack it into OUTDIR:
#        NAME.trace.txt   the tracefs `trace` file, unedited
#        NAME.info.txt    kernel, command line, governor, events enabled and
#                         missing, ring-buffer stats, sysfs counters
#                         before and after the window
#        NAME.cpuidle/    copy of the guest's /sys/devices/system/cpu/cpu0/cpuidle
#        NAME.platform    (with -T) the guest's idle states as a platform file
#        NAME.console     the serial console
#
# The captures in import/testdata were made with (on a 2-CPU host, TCG):
#   kernel/capture-ftrace.sh -T build/cli/teosim -o import/testdata \
#       -g menu -w io:4 -d 500 -r 200          # qemu-6.1-menu.*
#   kernel/capture-ftrace.sh -T build/cli/teosim -o import/testdata \
#       -g teo -w mixed:3:2 -d 500 -r 400      # qemu-6.1-teo.*
# keeping NAME.trace.txt, NAME.platform and NAME.info.txt (the .console and
# the .cpuidle copy were deleted; NAME.info.txt records the command line).
# TCG timing differs from run to run, so a new capture is not
# byte-identical; the import test (import/test-cli.sh) derives its
# expectations from whatever capture is there.
#
# Environment: those of lib.sh.  Exit status 0, or 1 with a message.
set -eu
. "$(dirname "$0")/lib.sh"

out= gov=menu work=mixed:3:1 delay_ms=500 record_ms=500 buffer_kb=8192 clock=mono
states=C1:2:2,C1E:10:20,C6:133:600 name= teosim= timeout=300
while getopts o:g:w:d:r:b:c:s:n:T:t: opt; do
	case $opt in
	o) out=$OPTARG ;;
	g) gov=$OPTARG ;;
	w) work=$OPTARG ;;
	d) delay_ms=$OPTARG ;;
	r) record_ms=$OPTARG ;;
	b) buffer_kb=$OPTARG ;;
	c) clock=$OPTARG ;;
	s) states=$OPTARG ;;
	n) name=$OPTARG ;;
	T) teosim=$OPTARG ;;
	t) timeout=$OPTARG ;;
	*) die "bad option (see the usage at the top of $0)" ;;
	esac
done
[ -n "$out" ] || die "usage: capture-ftrace.sh -o OUTDIR [-g GOVERNOR] [-w WORK] [-d DELAY_MS] [-r RECORD_MS] [-b KB] [-c CLOCK] [-s STATES] [-n NAME] [-T TEOSIM] [-t TIMEOUT]"
name=${name:-qemu-$KERNEL_VERSION-$gov}
for n in "$delay_ms" "$record_ms" "$buffer_kb"; do
	case $n in '' | *[!0-9]*) die "not a number: $n" ;; esac
done
command -v qemu-system-x86_64 >/dev/null 2>&1 || die "qemu-system-x86_64 not found (apt-get install qemu-system-x86)"
[ -z "$teosim" ] || [ -x "$teosim" ] || die "no teosim executable at $teosim"

guest_images "$KDIR/guest/capture-init"

mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
disk=$scratch/disk
console=$out/$name.console
# The archive is a few MB at most (the trace text of one recording);
# io: workloads read this disk too.
truncate -s 64M "$disk"

append="console=ttyS0 panic=-1 cpuidle.governor=$gov teosim_idle.states=$states"
append="$append teosim.work=$work teosim.trace_delay_ms=$delay_ms teosim.trace_ms=$record_ms"
append="$append teosim.trace_kb=$buffer_kb teosim.trace_clock=$clock"
say "kernel: $image"
bytes=$(boot_guest "$image" "$initrd" "$disk" "$timeout" "$console" TEOSIM-CAPTURE-BYTES "$append") || exit 1
mkdir "$scratch/x"
head -c "$bytes" "$disk" | tar -xf - -C "$scratch/x" || die "cannot unpack the guest's archive"
[ -s "$scratch/x/trace.txt" ] || die "the guest's archive has no trace.txt"

! grep -q '(____ptrval____)' "$scratch/x/trace.txt" ||
	die "the capture has unhashed-pointer placeholders (____ptrval____): the guest's crng was not ready"
mv "$scratch/x/trace.txt" "$out/$name.trace.txt"
mv "$scratch/x/info.txt" "$out/$name.info.txt"
rm -rf "$out/$name.cpuidle"
mv "$scratch/x/cpuidle" "$out/$name.cpuidle"
say "capture: $out/$name.trace.txt ($(wc -c < "$out/$name.trace.txt") bytes," \
	"$(grep -c ' cpu_idle: ' "$out/$name.trace.txt" || true) cpu_idle events)"
grep '^events not in this kernel:' "$out/$name.info.txt" | sed 's/^/teosim-kernel: /' >&2
grep -q 'LOST' "$out/$name.trace.txt" && say "warning: the capture has lost-events markers (-b larger, or -r shorter)"

if [ -n "$teosim" ]; then
	"$teosim" capture-platform --sysfs "$out/$name.cpuidle" -o "$out/$name.platform" --name "$name" >&2 ||
		die "teosim capture-platform failed on $out/$name.cpuidle"
	say "platform: $out/$name.platform"
fi
