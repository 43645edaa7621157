# Common settings and helpers of the kernel/ scripts (sourced, POSIX sh).
#
# Environment (all optional):
#   TEOSIM_CACHE   cache directory (default ${XDG_CACHE_HOME:-~/.cache}/teosim);
#                  kernel trees, images and logs live there, never in the repo
#   KERNEL_VERSION the kernel to build: 6.1 (default) or 6.12.  Each version
#                  has its own tarball default, patch directory, config
#                  fragment, tree prefix and lock (see below), so the two
#                  kernels are cached side by side and built in parallel.
#   LINUX_TARBALL  kernel source tarball (default
#                  /usr/src/linux-source-$KERNEL_VERSION.tar.xz, Debian
#                  package linux-source-$KERNEL_VERSION)
#   SEED_PATCH     the TEO v8 posting (default ../shared/seeds/001-patch-...
#                  relative to the repository, as the root meson_options.txt);
#                  only the 6.1 kernel uses it
#   JOBS           make -j for the kernel build (default: number of CPUs)
#   KERNEL_FRAGMENT an extra config fragment merged after the version's own
#                  (teosim.config for 6.1), for a kernel of one's own (a
#                  debug option, say).
#                  Unset or empty: the ground-truth kernel, as always.  Set:
#                  another kernel, in its own tree $TEOSIM_CACHE/linux-VERSION-NAME-HASH
#                  (NAME the fragment's file name without .config, HASH
#                  covering the fragment too) under its own lock, so that
#                  neither kernel replaces or waits for the other.

KDIR=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$KDIR/.." && pwd)
TEOSIM_CACHE=${TEOSIM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/teosim}
KERNEL_VERSION=${KERNEL_VERSION:-6.1}
# The scripts call each other (ground-truth-test.sh runs build-kernel.sh,
# which runs prepare-tree.sh); all of them must build the same version.
export KERNEL_VERSION
LINUX_TARBALL=${LINUX_TARBALL:-/usr/src/linux-source-$KERNEL_VERSION.tar.xz}
SEED_PATCH=${SEED_PATCH:-$REPO/../shared/seeds/001-patch-cpuidle-new-timer-events-oriented-governor-for-tickless.patch}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# Bump when the way the inputs are turned into a kernel changes (steps in
# build-kernel.sh or prepare-tree.sh), so that cached kernels are rebuilt.
TEOSIM_KERNEL_RECIPE=1

say() { echo "teosim-kernel: $*" >&2; }
die() { say "error: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

# For the tests: exit 77 (meson's skip) when a guest cannot be built or run here.
skip_without_guest() {
	command -v qemu-system-x86_64 >/dev/null 2>&1 ||
		skip "qemu-system-x86_64 not found (apt-get install qemu-system-x86)"
	[ -f "$LINUX_TARBALL" ] || skip "no $LINUX_TARBALL (apt-get install linux-source-$KERNEL_VERSION)"
	[ "$KERNEL_HAS_V8" = 0 ] || [ -f "$SEED_PATCH" ] ||
		skip "no TEO v8 posting at $SEED_PATCH (needed for the 6.1 kernel's teo-v8)"
	[ -x /bin/busybox ] || skip "no /bin/busybox (apt-get install busybox-static)"
}

# Per kernel version: the patch series, the config fragment, whether TEO v8
# is built in, and the lock.  6.1 keeps the names it had before 6.12 was
# added (patches/, teosim.config, kernel.lock), so that its input hash, and
# with it the cached 6.1 kernel, stays the same.  6.12 has no teo-v8: the
# posting targets 4.20, and one kernel carrying it is enough.
case $KERNEL_VERSION in
6.1)
	PATCH_DIR=$KDIR/patches
	KERNEL_CONFIG=$KDIR/teosim.config
	KERNEL_HAS_V8=1
	lock_base=$TEOSIM_CACHE/kernel
	;;
6.12)
	PATCH_DIR=$KDIR/patches-6.12
	KERNEL_CONFIG=$KDIR/teosim-6.12.config
	KERNEL_HAS_V8=0
	lock_base=$TEOSIM_CACHE/kernel-6.12
	;;
*) die "KERNEL_VERSION=$KERNEL_VERSION: only 6.1 and 6.12 have a patch series" ;;
esac

# The kernel variant: tree prefix and lock (see KERNEL_FRAGMENT above).
KERNEL_FRAGMENT=${KERNEL_FRAGMENT:-}
if [ -n "$KERNEL_FRAGMENT" ]; then
	[ -f "$KERNEL_FRAGMENT" ] || die "no config fragment $KERNEL_FRAGMENT (KERNEL_FRAGMENT)"
	KERNEL_FRAGMENT=$(cd "$(dirname "$KERNEL_FRAGMENT")" && pwd)/$(basename "$KERNEL_FRAGMENT")
	KERNEL_VARIANT=$(basename "$KERNEL_FRAGMENT" .config)
	case $KERNEL_VARIANT in
	'' | *[!a-z0-9_]*) die "fragment name $KERNEL_VARIANT: use [a-z0-9_] only" ;;
	esac
	KERNEL_TREE_PREFIX=$TEOSIM_CACHE/linux-$KERNEL_VERSION-$KERNEL_VARIANT-
	KERNEL_LOCK=$lock_base-$KERNEL_VARIANT.lock
else
	KERNEL_VARIANT=
	KERNEL_TREE_PREFIX=$TEOSIM_CACHE/linux-$KERNEL_VERSION-
	KERNEL_LOCK=$lock_base.lock
fi

# is_own_tree DIR: DIR is a tree of this variant ($KERNEL_TREE_PREFIX and a
# 16-digit hash), so not another variant's (linux-6.1-capture-HASH is not a
# ground-truth tree, nor the other way round; linux-6.12-HASH does not even
# start with linux-6.1-).
is_own_tree() {
	h=${1#"$KERNEL_TREE_PREFIX"}
	[ "$h" != "$1" ] && [ ${#h} = 16 ] && case $h in *[!0-9a-f]*) false ;; *) true ;; esac
}

# lock_kernel: takes the variant's lock on file descriptor 9, held until the
# script ends or runs `flock -u 9`; whoever builds or prepares the tree holds it.
lock_kernel() {
	mkdir -p "$TEOSIM_CACHE"
	exec 9>"$KERNEL_LOCK"
	flock 9
}

# The patches listed in $PATCH_DIR/series, one per line, comments skipped.
series_patches() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PATCH_DIR/series"
}

# extract_v8 OUT: the TEO v8 source, as teo/extract-from-patch.sh writes it.
extract_v8() {
	[ -f "$SEED_PATCH" ] || die "no seed patch at $SEED_PATCH (set SEED_PATCH)"
	sh "$REPO/teo/extract-from-patch.sh" "$SEED_PATCH" \
		drivers/cpuidle/governors/teo.c "$1" || die "cannot extract teo.c from $SEED_PATCH"
}

# kernel_hash [V8FILE]: hash of everything the kernel image is made from:
# the tarball (name, size, mtime, Debian version), the compiler, the patch
# series, the config fragment, the TEO v8 source (6.1 only: V8FILE) and the
# recipe version, and KERNEL_FRAGMENT's name and content when it is set.
# For 6.1 the text hashed is exactly what it was before 6.12 was added
# (fragment still called teosim.config, no version line), so that the
# cached 6.1 kernel stays valid.
kernel_hash() {
	{
		echo "teosim-kernel recipe $TEOSIM_KERNEL_RECIPE"
		echo "tarball $(basename "$LINUX_TARBALL") $(stat -L -c '%s %Y' "$LINUX_TARBALL")" \
			"$(dpkg-query -W -f='${Version}' "linux-source-$KERNEL_VERSION" 2>/dev/null || true)"
		gcc --version 2>/dev/null | head -n 1
		echo "== series"
		cat "$PATCH_DIR/series"
		for p in $(series_patches); do
			echo "== $p"
			cat "$PATCH_DIR/$p"
		done
		echo "== $(basename "$KERNEL_CONFIG")"
		cat "$KERNEL_CONFIG"
		if [ "$KERNEL_HAS_V8" = 1 ]; then
			echo "== teo-v8.c"
			cat "$1"
		fi
		# Only with a fragment, so that the ground-truth hash stays the same.
		if [ -n "$KERNEL_FRAGMENT" ]; then
			echo "== extra fragment $KERNEL_VARIANT"
			cat "$KERNEL_FRAGMENT"
		fi
	} | sha256sum | cut -c1-16
}

# guest_images [INIT]: builds or reuses the kernel (build-kernel.sh) and
# the initramfs with INIT as /init (build-initramfs.sh; default the
# ground-truth init); sets $image and $initrd.
guest_images() {
	image=$("$KDIR/build-kernel.sh")
	initrd=$("$KDIR/build-initramfs.sh" \
		"$(dirname "$(dirname "$(dirname "$(dirname "$image")")")")/usr/gen_init_cpio" "$@")
}

# raise_main_loop PIDFILE JOB: once QEMU (its pid in PIDFILE, run by the
# background JOB) has made its two vCPU threads, gives its main thread
# nice -20.  Under TCG that thread runs the guest's timers, the local
# APICs' among them, and raises their interrupts; at nice 0 it waited
# behind the vCPU threads whenever they spun (a guest CPU polling or
# busy) on a two-core host, and the guest took its timers' interrupts
# milliseconds late (kernel/README.md, "The host's part").  The vCPU
# threads stay at nice 0: setpriority() of a thread id moves that thread
# only, and threads made before it keep their own.  Raising a priority
# takes root or CAP_SYS_NICE; without it the guest runs at nice 0, and
# says so.
raise_main_loop() {
	n=0
	while [ $n -lt 200 ] && kill -0 "$2" 2>/dev/null; do
		qemu=$(cat "$1" 2>/dev/null) || qemu=
		if [ -n "$qemu" ] && grep -qx 'CPU 1/TCG' /proc/"$qemu"/task/*/comm 2>/dev/null; then
			renice -n -20 -p "$qemu" >/dev/null 2>&1 || true
			# Field 19 of stat is the nice value the thread has now.
			nice=$(awk '{ print $19 }' /proc/"$qemu"/stat 2>/dev/null) || nice=
			if [ "$nice" = -20 ]; then
				say "QEMU's main loop (thread $qemu) at nice -20"
			else
				say "warning: QEMU's main loop is at nice ${nice:-?}, not -20 (raising it needs root or CAP_SYS_NICE): the guest's timer interrupts will come later"
			fi
			return 0
		fi
		n=$((n + 1))
		sleep 0.05
	done
	if kill -0 "$2" 2>/dev/null; then
		say "warning: QEMU's vCPU threads did not show up within 10 s: its main loop stays at nice 0"
	fi
}

# boot_guest KERNEL INITRD DISK TIMEOUT CONSOLE TAG APPEND: boots the guest
# (qemu-system-x86_64 -smp 2 under TCG, GUEST_MEM of memory, 256M unless
# set) with DISK as its virtio disk, its main loop raised (raise_main_loop)
# and its serial console written to CONSOLE.  The guest's init reports
# "TEOSIM-STATUS ok" and "TAG N", N the bytes it left at the start of
# DISK.  Prints N; dies when the guest times out or fails.
boot_guest() {
	say "booting: $7"
	start=$(date +%s)
	rc=0
	pidfile=$5.pid
	rm -f "$pidfile"
	# debug-threads names the vCPU threads ("CPU 1/TCG") for raise_main_loop.
	timeout "$4" qemu-system-x86_64 -accel tcg -machine pc -smp 2 -m "${GUEST_MEM:-256M}" \
		-name teosim,debug-threads=on -pidfile "$pidfile" -nographic -no-reboot \
		-kernel "$1" -initrd "$2" -append "$7" \
		-drive file="$3",format=raw,if=virtio,cache=unsafe \
		< /dev/null > "$5" 2>&1 &
	guest=$!
	raise_main_loop "$pidfile" "$guest"
	wait "$guest" || rc=$?
	rm -f "$pidfile"
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
