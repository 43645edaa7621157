#!/bin/sh
# Build (or reuse) the guest's initramfs; print its path.
#
# usage: kernel/build-initramfs.sh GEN_INIT_CPIO
#
# GEN_INIT_CPIO is usr/gen_init_cpio of the kernel tree (it writes device
# nodes into the archive without root).  The archive holds:
#   /init             kernel/guest/init (busybox sh)
#   /bin/busybox      Debian's busybox-static
#   /bin/teosim-work  kernel/guest/teosim-work.c, linked statically
#   /dev/console, /proc, /sys, /tmp
# and is cached as $TEOSIM_CACHE/guest-HASH/initramfs.cpio.
set -eu
. "$(dirname "$0")/lib.sh"

gen_init_cpio=$1
busybox=${BUSYBOX:-/bin/busybox}
[ -x "$gen_init_cpio" ] || die "no gen_init_cpio at $gen_init_cpio"
[ -x "$busybox" ] || die "no $busybox (apt-get install busybox-static)"
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	ldd "$busybox" 2>&1 | grep -q 'not a dynamic' ||
	die "$busybox is not statically linked (apt-get install busybox-static)"

hash=$( { cat "$KDIR/guest/init" "$KDIR/guest/teosim-work.c" "$busybox"; gcc --version | head -n 1; } |
	sha256sum | cut -c1-16)
dir=$TEOSIM_CACHE/guest-$hash
if [ -f "$dir/initramfs.cpio" ]; then
	echo "$dir/initramfs.cpio"
	exit 0
fi
for old in "$TEOSIM_CACHE"/guest-*; do
	[ -d "$old" ] && [ "$old" != "$dir" ] && rm -rf "$old"
done
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
file /init $KDIR/guest/init 0755 0 0
EOF
"$gen_init_cpio" "$dir/list" > "$dir/initramfs.cpio.tmp"
mv "$dir/initramfs.cpio.tmp" "$dir/initramfs.cpio"
echo "$dir/initramfs.cpio"
