# Common settings and helpers of the kernel/ scripts (sourced, POSIX sh).
#
# Environment (all optional):
#   TEOSIM_CACHE   cache directory (default ${XDG_CACHE_HOME:-~/.cache}/teosim);
#                  kernel trees, images and logs live there, never in the repo
#   LINUX_TARBALL  kernel source tarball (default /usr/src/linux-source-6.1.tar.xz,
#                  Debian package linux-source-6.1)
#   SEED_PATCH     the TEO v8 posting (default ../shared/seeds/001-patch-...
#                  relative to the repository, as the root meson_options.txt)
#   JOBS           make -j for the kernel build (default: number of CPUs)
#   KERNEL_FRAGMENT an extra config fragment merged after teosim.config (for
#                  instance kernel/capture.config, as capture-ftrace.sh does).
#                  Unset or empty: the ground-truth kernel, as always.  Set:
#                  another kernel, in its own tree $TEOSIM_CACHE/linux-6.1-NAME-HASH
#                  (NAME the fragment's file name without .config, HASH
#                  covering the fragment too) under its own lock, so that
#                  neither kernel replaces or waits for the other.

KDIR=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$KDIR/.." && pwd)
TEOSIM_CACHE=${TEOSIM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/teosim}
LINUX_TARBALL=${LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
SEED_PATCH=${SEED_PATCH:-$REPO/../shared/seeds/001-patch-cpuidle-new-timer-events-oriented-governor-for-tickless.patch}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# Bump when the way the inputs are turned into a kernel changes (steps in
# build-kernel.sh or prepare-tree.sh), so that cached kernels are rebuilt.
TEOSIM_KERNEL_RECIPE=1

say() { echo "teosim-kernel: $*" >&2; }
die() { say "error: $*"; exit 1; }

# The kernel variant: tree prefix and lock (see KERNEL_FRAGMENT above).
KERNEL_FRAGMENT=${KERNEL_FRAGMENT:-}
if [ -n "$KERNEL_FRAGMENT" ]; then
	[ -f "$KERNEL_FRAGMENT" ] || die "no config fragment $KERNEL_FRAGMENT (KERNEL_FRAGMENT)"
	KERNEL_FRAGMENT=$(cd "$(dirname "$KERNEL_FRAGMENT")" && pwd)/$(basename "$KERNEL_FRAGMENT")
	KERNEL_VARIANT=$(basename "$KERNEL_FRAGMENT" .config)
	case $KERNEL_VARIANT in
	'' | *[!a-z0-9_]*) die "fragment name $KERNEL_VARIANT: use [a-z0-9_] only" ;;
	esac
	KERNEL_TREE_PREFIX=$TEOSIM_CACHE/linux-6.1-$KERNEL_VARIANT-
	KERNEL_LOCK=$TEOSIM_CACHE/kernel-$KERNEL_VARIANT.lock
else
	KERNEL_VARIANT=
	KERNEL_TREE_PREFIX=$TEOSIM_CACHE/linux-6.1-
	KERNEL_LOCK=$TEOSIM_CACHE/kernel.lock
fi

# is_own_tree DIR: DIR is a tree of this variant ($KERNEL_TREE_PREFIX and a
# 16-digit hash), so not another variant's (linux-6.1-capture-HASH is not a
# ground-truth tree, nor the other way round).
is_own_tree() {
	h=${1#"$KERNEL_TREE_PREFIX"}
	[ "$h" != "$1" ] && [ ${#h} = 16 ] && case $h in *[!0-9a-f]*) false ;; *) true ;; esac
}

# The patches listed in patches/series, one per line, comments skipped.
series_patches() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$KDIR/patches/series"
}

# extract_v8 OUT: the TEO v8 source, as teo/extract-from-patch.sh writes it.
extract_v8() {
	[ -f "$SEED_PATCH" ] || die "no seed patch at $SEED_PATCH (set SEED_PATCH)"
	sh "$REPO/teo/extract-from-patch.sh" "$SEED_PATCH" \
		drivers/cpuidle/governors/teo.c "$1" || die "cannot extract teo.c from $SEED_PATCH"
}

# kernel_hash V8FILE: hash of everything the kernel image is made from:
# the tarball (name, size, mtime, Debian version), the compiler, the patch
# series, the config fragment, the TEO v8 source and the recipe version,
# and KERNEL_FRAGMENT's name and content when it is set.
kernel_hash() {
	{
		echo "teosim-kernel recipe $TEOSIM_KERNEL_RECIPE"
		echo "tarball $(basename "$LINUX_TARBALL") $(stat -L -c '%s %Y' "$LINUX_TARBALL")" \
			"$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || true)"
		gcc --version 2>/dev/null | head -n 1
		echo "== series"
		cat "$KDIR/patches/series"
		for p in $(series_patches); do
			echo "== $p"
			cat "$KDIR/patches/$p"
		done
		echo "== teosim.config"
		cat "$KDIR/teosim.config"
		echo "== teo-v8.c"
		cat "$1"
		# Only with a fragment, so that the ground-truth hash stays the same.
		if [ -n "$KERNEL_FRAGMENT" ]; then
			echo "== extra fragment $KERNEL_VARIANT"
			cat "$KERNEL_FRAGMENT"
		fi
	} | sha256sum | cut -c1-16
}

# boot_guest KERNEL INITRD DISK TIMEOUT CONSOLE TAG APPEND: boots the guest
# (qemu-system-x86_64 -smp 2 under TCG) with DISK as its virtio disk and
# its serial console written to CONSOLE.  The guest's init reports
# "TEOSIM-STATUS ok" and "TAG N", N the bytes it left at the start of
# DISK.  Prints N; dies when the guest times out or fails.
boot_guest() {
	say "booting: $7"
	start=$(date +%s)
	rc=0
	timeout "$4" qemu-system-x86_64 -accel tcg -machine pc -smp 2 -m 256M \
		-nographic -no-reboot \
		-kernel "$1" -initrd "$2" -append "$7" \
		-drive file="$3",format=raw,if=virtio,cache=unsafe \
		< /dev/null > "$5" 2>&1 || rc=$?
	say "guest ran $(( $(date +%s) - start )) s (qemu exit status $rc)"
	status=$(sed -n 's/^TEOSIM-STATUS \([^\r]*\).*/\1/p' "$5" | tail -n 1)
	bytes=$(sed -n "s/^$6 \\([0-9]*\\).*/\\1/p" "$5" | tail -n 1)
	if [ "$rc" = 124 ]; then
		tail -n 20 "$5" >&2
		die "guest timed out after $4 s (console: $5)"
	fi
	if [ "$status" != ok ] || [ -z "$bytes" ]; then
		tail -n 20 "$5" >&2
		die "guest did not deliver its output: ${status:-no status} (console: $5)"
	fi
	echo "$bytes"
}
