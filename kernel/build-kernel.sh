#!/bin/sh
# Build (or reuse) the teosim ground-truth kernel; print the bzImage path.
#
# usage: kernel/build-kernel.sh      (KERNEL_VERSION=6.1 or 6.12, see lib.sh)
#
# Holds the version's lock ($TEOSIM_CACHE/kernel.lock for 6.1,
# kernel-6.12.lock for 6.12) while it works, so that tests started in
# parallel build once and then share the image, and the two versions build
# independently.  The image is reused while the hash of its inputs is
# unchanged (the tree directory is named after it, see prepare-tree.sh);
# otherwise:
#   make tinyconfig; merge the version's fragment (kernel/teosim.config for
#   6.1, kernel/teosim-6.12.config for 6.12; KERNEL_FRAGMENT, if set, after
#   it); make olddefconfig; check that every line of the fragments is in
#   .config; make bzImage.
# After a 6.1 build, it writes teosim-v8-overflow.txt in the tree: the
# per-CPU variable that TEO v8's one-past-the-end write into intervals[]
# hits in this build (from vmlinux's symbol table).
set -eu
. "$(dirname "$0")/lib.sh"

lock_kernel

tree=$("$KDIR/prepare-tree.sh")
image=$tree/arch/x86/boot/bzImage
if [ -f "$tree/.teosim-built" ] && [ -f "$image" ]; then
	say "reusing $image"
	echo "$image"
	exit 0
fi

start=$(date +%s)
say "configuring $tree"
make -C "$tree" -s tinyconfig >/dev/null
"$tree/scripts/kconfig/merge_config.sh" -m -O "$tree" "$tree/.config" "$KERNEL_CONFIG" $KERNEL_FRAGMENT >/dev/null
make -C "$tree" -s olddefconfig >/dev/null
missing=0
for frag in "$KERNEL_CONFIG" $KERNEL_FRAGMENT; do
	for line in $(grep '^CONFIG_' "$frag"); do
		grep -qx "$line" "$tree/.config" || { say "not in .config: $line"; missing=1; }
	done
	[ "$missing" = 0 ] || die "$frag does not survive olddefconfig (dependencies?)"
	for sym in $(sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p' "$frag"); do
		grep -q "^$sym=" "$tree/.config" && say "warning: $sym is set although $(basename "$frag") leaves it out"
	done
done

say "building bzImage with make -j$JOBS (a few minutes)"
make -C "$tree" -j"$JOBS" bzImage > "$tree/teosim-build.log" 2>&1 ||
	{ tail -n 30 "$tree/teosim-build.log" >&2; die "kernel build failed, see $tree/teosim-build.log"; }
[ -x "$tree/usr/gen_init_cpio" ] || make -C "$tree" -s usr/gen_init_cpio >/dev/null

# Where TEO v8's write to intervals[INTERVALS] lands: the 4 bytes after the
# teo_cpus of teo-v8.o (matched by its size, 6.1's teo has its own teo_cpus).
# Only the 6.1 kernel has teo-v8.
v8='' addr=''
if [ "$KERNEL_HAS_V8" = 1 ]; then
	v8=$(nm -S "$tree/drivers/cpuidle/governors/teo-v8.o" | awk '$NF == "teo_cpus" { print $2 }')
	addr=$(nm -S "$tree/vmlinux" | awk -v size="$v8" '$NF == "teo_cpus" && $2 == size { print $1 }')
fi
if [ "$KERNEL_HAS_V8" = 0 ]; then
	echo "no teo-v8 in the $KERNEL_VERSION kernel" > "$tree/teosim-v8-overflow.txt"
elif [ -n "$v8" ] && [ -n "$addr" ]; then
	end=$(printf '%016x' $(( 0x$addr + 0x$v8 )))
	# nm prints fixed-width hex, so string order is address order.
	nm -S "$tree/vmlinux" | sort | awk -v end="$end" -v start="$addr" -v size="$v8" '
		$1 >= end && !found { found = 1
			where = ($1 == end) ? "the first 4 bytes of " $NF : "padding before " $NF
			printf "teo-v8 teo_cpus is per-CPU 0x%s size 0x%s; intervals[INTERVALS] at 0x%s is %s\n", start, size, end, where }
		END { if (!found) print "teo-v8: nothing follows teo_cpus" }' > "$tree/teosim-v8-overflow.txt"
else
	echo "teo-v8 teo_cpus not found in vmlinux" > "$tree/teosim-v8-overflow.txt"
fi
say "$(cat "$tree/teosim-v8-overflow.txt")"

touch "$tree/.teosim-built"
say "kernel built in $(( $(date +%s) - start )) s"
echo "$image"
