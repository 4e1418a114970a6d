# SPDX-License-Identifier: BSD-3-Clause
# Differential checks of pinrun's plans against hwloc's own tools on the same
# topology file: hwloc-distrib for --spread, hwloc-calc for the domains.

# Sorted comma list of the PUs in some hwloc locations (their union), or
# "hwloc-calc failed": a failure never equals an empty answer.
ref_pus() {
	local f=$1 out
	shift
	out=$(hwloc-calc --input "$f" --physical-output --intersect PU "$@" 2>/dev/null) ||
		{ echo "hwloc-calc failed"; return 0; }
	tr ',' '\n' <<<"$out" | grep -v '^$' | sort -n | paste -sd, -
}

# pinrun's dry run on f, as a sorted comma list, or "pinrun failed".
our_pus() {
	local f=$1 out
	shift
	out=$("$PINRUN" --topology "$f" --dry-run "$@" 2>/dev/null) ||
		{ echo "pinrun failed"; return 0; }
	expand "$out"
}

# The number of objects of a type, memory-only ones included.
count_objects() {
	lstopo-no-graphics --input "$1" --only "$2" 2>/dev/null | wc -l
}

# --spread=N is hwloc-distrib --single N: on the one-PU-per-core view by
# default, on the full view (N counting PUs) with --smt.
check_spread() {
	local f=$1 cores pus first want got n
	cores=$(hwloc-calc --input "$f" --number-of core machine:0)
	pus=$(hwloc-calc --input "$f" --number-of pu machine:0)
	first=$(hwloc-calc --input "$f" core:all.pu:0)
	for n in 1 2 4 "$cores"; do
		[ "$n" -le "$cores" ] || continue
		# shellcheck disable=SC2046
		want=$(ref_pus "$f" $(hwloc-distrib --input "$f" --restrict "$first" --single "$n"))
		got=$(our_pus "$f" --spread="$n")
		[ "$want" = "$got" ] || fail "--spread=$n: hwloc-distrib gives $want, pinrun $got"
		[ "$(tr ',' '\n' <<<"$got" | wc -l)" -eq "$n" ] || fail "--spread=$n: not $n PUs: $got"
	done
	got=$(our_pus "$f" --spread)
	[ "$got" = "$(ref_pus "$f" "$first")" ] || fail "--spread (all cores): $got"
	for n in 2 4 "$pus"; do
		[ "$n" -le "$pus" ] || continue
		# shellcheck disable=SC2046
		want=$(ref_pus "$f" $(hwloc-distrib --input "$f" --single "$n"))
		got=$(our_pus "$f" --spread="$n" --smt)
		[ "$want" = "$got" ] || fail "--spread=$n --smt: hwloc-distrib gives $want, pinrun $got"
	done
}

# --same-X=i is the PUs of TYPE:i as hwloc has them (lstopo prints every
# object's cpuset in one run, as hwloc-calc --intersect PU TYPE:i would),
# and with --no-smt, those that are their core's first PU (hwloc-calc
# --no-smt keeps the same); an object without CPUs is an error (exit 125).
# The references, one line per object: "full-list nosmt-list".
domain_refs() {
	local f=$1 type=$2
	{
		ref_pus "$f" core:all.pu:0
		lstopo-no-graphics --input "$f" --only "$type" --cpuset 2>/dev/null | sed 's/.*cpuset=//'
	} | awk '
		NR == 1 { n = split($0, c, ","); for (i = 1; i <= n; i++) first[c[i]] = 1; next }
		{
			sub(/^0x/, ""); nw = split($0, w, ","); full = ""; nosmt = ""
			for (i = nw; i >= 1; i--) {
				x = w[i]; sub(/^0x/, "", x); v = 0
				for (k = 1; k <= length(x); k++)
					v = v * 16 + index("0123456789abcdef", substr(tolower(x), k, 1)) - 1
				for (b = 0; b < 32; b++) {
					if (int(v / 2 ^ b) % 2) {
						cpu = (nw - i) * 32 + b
						full = full (full == "" ? "" : ",") cpu
						if (cpu in first) nosmt = nosmt (nosmt == "" ? "" : ",") cpu
					}
				}
			}
			print (full == "" ? "-" : full) " " (nosmt == "" ? "-" : nosmt)
		}'
}

check_domain() {
	local f=$1 policy=$2 type=$3 i=0 full nosmt got first=""
	while read -r full nosmt; do
		i=$((i + 1))
		if [ "$full" = - ]; then
			# An object without CPUs: pinrun refuses it.
			run "$PINRUN" --topology "$f" --dry-run --"$policy=$((i - 1))"
			assert_failure 125
			continue
		fi
		got=$(our_pus "$f" --"$policy=$((i - 1))")
		[ "$full" = "$got" ] || fail "--$policy=$((i - 1)): hwloc gives '$full', pinrun '$got'"
		[ -n "$first" ] || first=$full
		got=$(our_pus "$f" --"$policy=$((i - 1))" --no-smt)
		[ "$nosmt" = "$got" ] || fail "--$policy=$((i - 1)) --no-smt: hwloc gives '$nosmt', pinrun '$got'"
	done < <(domain_refs "$f" "$type")
	if [ "$i" -eq 0 ]; then
		run "$PINRUN" --topology "$f" --dry-run --"$policy"=0
		assert_failure 125
		return
	fi
	# The default on another machine is the first object with CPUs.
	[ "$(our_pus "$f" --"$policy")" = "$first" ] || fail "--$policy default is not the first object with CPUs"
}

# Every prefix of a slot order is balanced over packages, then over the NUMA
# nodes inside each package, then over the L3 caches inside each of those:
# no object gets another slot while a sibling with slots left has fewer.
check_slot_balance() {
	local f=$1 policy=${2:---spread} type i n cpu slots
	declare -A key
	for type in package numanode l3cache; do
		n=$(count_objects "$f" "$type")
		for ((i = 0; i < n; i++)); do
			for cpu in $(ref_pus "$f" "$type:$i" | tr ',' ' '); do
				[ -n "${key[$cpu,$type]:-}" ] || key[$cpu,$type]=$i
			done
		done
	done
	# shellcheck disable=SC2086
	# The first CPU of each slot (a slot may be a whole core: "24,72").
	slots=$("$PINRUN" --topology "$f" --json $policy | sed 's/.*"slots":\[\([^]]*\)\].*/\1/' |
		grep -o '"[0-9][^"]*"' | tr -d '"' | sed 's/[,-].*//')
	for cpu in $slots; do
		echo "${key[$cpu,package]:--} ${key[$cpu,numanode]:--} ${key[$cpu,l3cache]:--}"
	done | awk '
		{ for (l = 1; l <= 3; l++) { g = (l == 1 ? "" : l == 2 ? $1 : $1 " " $2)
			if (!cap[l, g, $l]++) members[l, g] = members[l, g] " " $l }; k[NR] = $0 }
		END {
			for (i = 1; i <= NR; i++) {
				split(k[i], f, " ")
				for (l = 1; l <= 3; l++) {
					g = (l == 1 ? "" : l == 2 ? f[1] : f[1] " " f[2])
					n[l, g, f[l]]++
					split(members[l, g], m, " ")
					for (a in m) for (b in m)
						if (n[l, g, m[a]] > n[l, g, m[b]] + 1 && n[l, g, m[b]] < cap[l, g, m[b]]) {
							printf "slot %d: level %d object %s has %d, %s %d\n", i, l, m[a], n[l, g, m[a]], m[b], n[l, g, m[b]]
							exit 1
						}
				}
			}
		}' || fail "unbalanced slot order on $(basename "$f") $policy"
}

# --share i/n for every i: disjoint parts that cover the allowed set, with
# core counts (PU counts with --smt) that differ by at most one, and (without
# --smt) no core split between two parts: each part names whole cores.
check_shares() {
	local f=$1 n=$2 smt=${3:-} i all part objects sizes="" seen="" cores=1
	all=$(our_pus "$f" --cpus all)
	[ "$(hwloc-calc --input "$f" --number-of core machine:0)" -gt 0 ] || cores=0
	for ((i = 1; i <= n; i++)); do
		if [ -n "$smt" ]; then
			part=$(our_pus "$f" --share "$i/$n" --smt --spread)
			sizes="$sizes $(tr ',' '\n' <<<"$part" | wc -l)"
		else
			part=$(our_pus "$f" --share "$i/$n" --cpus all)
			sizes="$sizes $(our_pus "$f" --share "$i/$n" --spread | tr ',' '\n' | wc -l)"
		fi
		if [ -z "$part" ] || [ "$part" = "pinrun failed" ]; then
			fail "share $i/$n of $(basename "$f") is empty or refused"
		fi
		seen="$seen${seen:+,}$part"
		objects=$("$PINRUN" --topology "$f" --cpus "$part" --json | sed 's/.*"objects":\[\([^]]*\)\].*/\1/')
		if [ -z "$smt" ] && [ "$cores" = 1 ] && [[ "$objects" == *'"pu:'* ]]; then
			fail "share $i/$n of $(basename "$f") splits a core: $objects"
		fi
	done
	[ "$(tr ',' '\n' <<<"$seen" | sort -n | paste -sd, -)" = "$all" ] ||
		fail "the $n shares of $(basename "$f") overlap or miss CPUs"
	# shellcheck disable=SC2086
	[ $(($(printf '%s\n' $sizes | sort -n | tail -1) - $(printf '%s\n' $sizes | sort -n | head -1))) -le 1 ] ||
		fail "share sizes of $(basename "$f") differ by more than one: $sizes"
}
