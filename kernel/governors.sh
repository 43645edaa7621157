# Sourced by the kernel/ test scripts before lib.sh (POSIX sh): which kernel
# runs a teosim governor, and its name on cpuidle.governor=.  teo-v8 is
# built into the 6.1 kernel only (patches/0003).

# gov_kernel NAME: 6.1 or 6.12.
gov_kernel() {
	case $1 in
	*-6.12) echo 6.12 ;;
	*) echo 6.1 ;;
	esac
}

# gov_kernel_name NAME: the name the kernel knows it by, or nothing.
gov_kernel_name() {
	case $1 in
	teo-v8) echo teo-v8 ;;
	teo-6.1 | teo-6.12) echo teo ;;
	menu-6.1 | menu-6.12) echo menu ;;
	ladder-6.1 | ladder-6.12) echo ladder ;;
	esac
}
