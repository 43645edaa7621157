#!/bin/sh
# How far the booted kernel strays from itself, beside how far the model
# strays from it.
#
# usage: kernel/boot-spread.sh LOGS LOGS...
#
#   LOGS  the logs directory of a run of the qemu suite's paired runs
#         ($TEOSIM_CACHE/logs, holding fidelity-GOVERNOR/ as
#         kernel/fidelity-test.sh leaves it), two or more of them
#
# Every boot runs the same seeded workloads, so two boots differ only in
# their timing, which under TCG follows the host.  For each governor and
# workload family this prints, over every pair of boots, the total
# variation distance (TVD) between the two kernels' per-state shares of
# idle periods and of idle time (their median, and how many pairs are
# within the 0.05 of issue #10 on both), and over the boots the same
# figures of the model against each boot's own kernel, read from the
# family's report (item-N.fidelity).  A family with fewer than 50 real
# periods on a boot is left out of that boot's pairs, as fidelity-test.sh
# leaves it out.  The last lines give each family over all governors.
set -eu

[ $# -ge 2 ] || { echo "usage: kernel/boot-spread.sh LOGS LOGS..." >&2; exit 2; }

# Every LOGS must hold paired runs, each with its families' reports.
for logs in "$@"; do
	found=
	for run in "$logs"/fidelity-*; do
		[ -f "$run/items.txt" ] && [ -f "$run/families" ] || continue
		found=1
		n=$(wc -l < "$run/families")
		for no in $(seq "$n"); do
			[ -f "$run/item-$no.fidelity" ] ||
				{ echo "boot-spread.sh: no $run/item-$no.fidelity" >&2; exit 1; }
		done
	done
	[ -n "$found" ] || { echo "boot-spread.sh: no paired runs in $logs" >&2; exit 1; }
done

# One line per boot, governor and family:
#   BOOT GOVERNOR FAMILY PERIODS TVD_PERIODS TVD_TIME STATE:PERIODS_PCT:TIME_PCT...
records() {
	boot=0
	for logs in "$@"; do
		boot=$((boot + 1))
		for run in "$logs"/fidelity-*; do
			[ -f "$run/items.txt" ] && [ -f "$run/families" ] || continue
			gov=$(basename "$run")
			gov=${gov#fidelity-}
			# families lists the families in the order of the items.
			no=0
			for family in $(awk '{ print $1 }' "$run/families"); do
				no=$((no + 1))
				awk -v boot="$boot" -v gov="$gov" -v fam="$family" '
					/^periods +[0-9]/ { n = $2 }
					/^tvd_periods / { tp = $2 }
					/^tvd_time / { tt = $2 }
					/^[^ ]+_periods_pct / { s = $1; sub(/_periods_pct$/, "", s); pp[s] = $2 }
					/^[^ ]+_time_pct / { s = $1; sub(/_time_pct$/, "", s); ts[s] = $2 }
					END {
						line = boot " " gov " " fam " " n " " tp " " tt
						for (s in pp)
							line = line " " s ":" pp[s] ":" ts[s]
						print line
					}' "$run/item-$no.fidelity"
			done
		done
	done
}

records "$@" | awk -v boots=$# '
	# Half the sum of the differences of the shares (in %) of every state.
	function tvd(a, b, kind,    s, d) {
		d = 0
		for (s in states)
			d += abs(share[a, s, kind] - share[b, s, kind])
		return d / 200
	}
	function abs(x) { return x < 0 ? -x : x }
	function median(v, n,    i, j, x) {
		for (i = 1; i <= n; i++)
			for (j = i + 1; j <= n; j++)
				if (v[j] < v[i]) { x = v[i]; v[i] = v[j]; v[j] = x }
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	{
		key = $1 SUBSEP $2 SUBSEP $3
		if (!(($2, $3) in pair_seen)) {
			pair_seen[$2, $3] = 1
			order[++nkeys] = $2 SUBSEP $3
		}
		if (!($3 in fam_seen)) { fam_seen[$3] = 1; fams[++nfams] = $3 }
		periods[key] = $4; model_p[key] = $5; model_t[key] = $6
		for (i = 7; i <= NF; i++) {
			split($i, f, ":")
			states[f[1]] = 1
			share[key, f[1], "p"] = f[2]; share[key, f[1], "t"] = f[3]
		}
	}
	END {
		printf "%-13s %-12s %5s %8s %8s %7s | %5s %8s %8s %7s\n", "family", "governor",
			"pairs", "k_tvd_p", "k_tvd_t", "within", "boots", "m_tvd_p", "m_tvd_t", "within"
		for (k = 1; k <= nkeys; k++) {
			split(order[k], gf, SUBSEP)
			gov = gf[1]; fam = gf[2]
			np = 0; nb = 0; k_in = 0; m_in = 0
			delete kp; delete kt; delete mp; delete mt
			for (a = 1; a <= boots; a++) {
				ka = a SUBSEP gov SUBSEP fam
				if (!(ka in periods) || periods[ka] < 50)
					continue
				nb++; mp[nb] = model_p[ka]; mt[nb] = model_t[ka]
				m_in += model_p[ka] <= 0.05 && model_t[ka] <= 0.05
				fm_n[fam]++; fm_in[fam] += model_p[ka] <= 0.05 && model_t[ka] <= 0.05
				fm[fam, fm_n[fam]] = model_p[ka] > model_t[ka] ? model_p[ka] : model_t[ka]
				for (b = a + 1; b <= boots; b++) {
					kb = b SUBSEP gov SUBSEP fam
					if (!(kb in periods) || periods[kb] < 50)
						continue
					np++
					kp[np] = tvd(ka, kb, "p"); kt[np] = tvd(ka, kb, "t")
					k_in += kp[np] <= 0.05 && kt[np] <= 0.05
					fk_n[fam]++; fk_in[fam] += kp[np] <= 0.05 && kt[np] <= 0.05
					fk[fam, fk_n[fam]] = kp[np] > kt[np] ? kp[np] : kt[np]
				}
			}
			if (!nb)
				continue
			if (np)
				printf "%-13s %-12s %5d %8.4f %8.4f %7s | ", fam, gov, np, median(kp, np),
					median(kt, np), k_in "/" np
			else
				printf "%-13s %-12s %5d %8s %8s %7s | ", fam, gov, 0, "-", "-", "-"
			printf "%5d %8.4f %8.4f %7s\n", nb, median(mp, nb), median(mt, nb), m_in "/" nb
		}
		print ""
		print "per family, the larger of the two TVDs, over every governor:"
		for (i = 1; i <= nfams; i++) {
			fam = fams[i]
			if (!fm_n[fam])
				continue
			delete v
			for (j = 1; j <= fk_n[fam]; j++)
				v[j] = fk[fam, j]
			kmed = fk_n[fam] ? sprintf("%.4f", median(v, fk_n[fam])) : "-"
			delete v
			for (j = 1; j <= fm_n[fam]; j++)
				v[j] = fm[fam, j]
			printf "%-13s kernel against kernel: median %s, %d of %d pairs within 0.05; ",
				fam, kmed, fk_in[fam], fk_n[fam]
			printf "model against kernel: median %.4f, %d of %d boots within 0.05\n",
				median(v, fm_n[fam]), fm_in[fam], fm_n[fam]
		}
	}'
