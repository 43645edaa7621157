#!/bin/sh
# Build (or reuse) the guest's initramfs; print its path.
#
# usage: kernel/build-initramfs.sh GEN_INIT_CPIO [INIT]
#
# GEN_INIT_CPIO is usr/gen_init_cpio of the kernel tree (it writes device
# nodes into the archive without root).  INIT is the guest's /init, by
# default kernel/guest/init (the ground truth); capture-ftrace.sh gives
# kernel/guest/capture-init.  The archive holds:
#   /init             INIT (busybox sh)
#   /bin/busybox      Debian's busybox-static
#   /bin/teosim-work  kernel/guest/teosim-work.c, linked statically
#   /bin/teosim-common.sh  kernel/guest/common.sh, sourced by the inits
#   /dev/console, /proc, /sys, /tmp
# and is cached as $TEOSIM_CACHE/guest-HASH/initramfs.cpio, or with another
# INIT as guest-NAME-HASH/initramfs.cpio (NAME: INIT's file name), so that
# each replaces only its own older archives.
set -eu
. "$(dirname "$0")/lib.sh"

gen_init_cpio=$1
init=${2:-$KDIR/guest/init}
busybox=${BUSYBOX:-/bin/busybox}
[ -x "$gen_init_cpio" ] || die "no gen_init_cpio at $gen_init_cpio"
[ -f "$init" ] || die "no guest init $init"
[ -x "$busybox" ] || die "no $busybox (apt-get install busybox-static)"
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	ldd "$busybox" 2>&1 | grep -q 'not a dynamic' ||
	die "$busybox is not statically linked (apt-get install busybox-static)"

hash=$( {
	cat "$init" "$KDIR/guest/teosim-work.c" "$KDIR/guest/common.sh" "$busybox"
	gcc --version | head -n 1
} | sha256sum | cut -c1-16)
prefix=$TEOSIM_CACHE/guest-
if [ "$(cd "$(dirname "$init")" && pwd)/$(basename "$init")" != "$KDIR/guest/init" ]; then
	variant=$(basename "$init")
	case $variant in *[!A-Za-z0-9_.-]*) die "guest init name $variant: use [A-Za-z0-9_.-] only" ;; esac
	prefix=$prefix$variant-
fi
dir=$prefix$hash
# Test processes start this script in parallel: one builds, the others wait
# and then reuse its archive.  The archive appears only by rename, so one
# that exists is whole; a run killed half-way leaves no archive, and the
# next one builds it again from scratch.
mkdir -p "$TEOSIM_CACHE"
exec 9>"$TEOSIM_CACHE/guest.lock"
flock 9
if [ -f "$dir/initramfs.cpio" ]; then
	echo "$dir/initramfs.cpio"
	exit 0
fi
# Only this init's older archives: prefix and a 16-digit hash.
for old in "$prefix"*; do
	h=${old#"$prefix"}
	[ -d "$old" ] && [ "$old" != "$dir" ] && [ ${#h} = 16 ] &&
		case $h in *[!0-9a-f]*) false ;; *) true ;; esac && rm -rf "$old"
done
rm -rf "$dir"
mkdir -p "$dir"
gcc -std=gnu11 -O2 -Wall -Wextra -static -pthread -o "$dir/teosim-work" "$KDIR/guest/teosim-work.c" ||
	die "cannot link teosim-work statically (needs libc6-dev)"
cat > "$dir/list" <<EOF
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
dir /sys 0755 0 0
dir /tmp 01777 0 0
dir /bin 0755 0 0
file /bin/busybox $busybox 0755 0 0
file /bin/teosim-work $dir/teosim-work 0755 0 0
file /bin/teosim-common.sh $KDIR/guest/common.sh 0644 0 0
file /init $init 0755 0 0
EOF
"$gen_init_cpio" "$dir/list" > "$dir/initramfs.cpio.tmp"
mv "$dir/initramfs.cpio.tmp" "$dir/initramfs.cpio"
echo "$dir/initramfs.cpio"
