#!/bin/bash
# bench/check.sh: how long probecc takes to check (and place) probe files
# of N kprobes against real target kernels.  Prints Markdown tables of
# medians; the raw per-run figures stay in $OUT.  See bench/README.md.
#
# usage: bench/check.sh            (run from anywhere; builds nothing)
#
# Environment (all optional):
#   PROBECC=path        the binary to time (default: the clone's ./probecc,
#                       copied first so a rebuild during the run is harmless)
#   REPS=5              runs per case; the median is reported
#   SIZES="10 100 1000 5000"         kprobes per file
#   MISSPELT="10 100"                misspelt kprobes per file (did-you-mean)
#   SCALE_KPROBES="10000 50000"      kprobes per file against the mipsel
#                       capture (names reused past the 28k it has), both
#                       placements: is compile time linear?
#   SCALE_FUNCTIONS="10000 25000 50000 100000"  function names per file
#                       (made-up names, no target, --via bootconfig)
#   SCALE_REPS=3        runs per scale case
#   An empty value ("SIZES=") skips those cases.
#   CMDLINE_SIZES="10 100 1000 2000" kprobes per file, default placement
#                       (--via cmdline): the slow path, see README.md;
#                       2000 takes ~20 s and 1.7 GB per run, so 1 run
#   CMDLINE_REPS_BIG=1  runs for the CMDLINE_SIZES above 1000
#   OUT=dir             where the probe files and raw timings go
#                       (default: a new directory under /tmp)
#   MIPSEL_TARGET, X86_64_TARGET, X86_64_MODULES, MALTA_VMLINUX, MALTA_SYSTEM_MAP
#                       inputs, else asked of qemu-images/ (cached there)
#
# Cases (the same probe files for each, names taken from that target):
#   none         no target: parse and place only
#   mipsel       --target (Debian 6.1 Malta capture, ~35k symbols)
#   x86_64       --target (Debian 6.1 amd64 capture, ~94k symbols)
#   vmlinux      --vmlinux (the 6.1 Malta kernel built by qemu-images/build-kernel)
#   x86_64+mods  --target x86_64 --modules DIR, warm page cache, and cold-ish:
#                the *.ko files evicted (posix_fadvise DONTNEED) before each run
# Every timed run uses --via bootconfig --explain (stdout to /dev/null):
# checks and placement run in full, every kprobe goes to bootconfig keys,
# and no file is written (-o would stop at XBC_DATA_MAX, 32 KiB, past
# ~330 kprobes).  No --kconfig: Debian's configs lack CONFIG_BOOT_CONFIG,
# and probecc rightly refuses --via bootconfig for them.
set -eu -o pipefail
# Every failure says where: a command that stops the script under set -e
# prints its line, status and text (never a silent non-zero exit).
trap 'echo "${0##*/}: line $LINENO: exit $?: $BASH_COMMAND" >&2' ERR

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
REPS=${REPS:-5}
SIZES=${SIZES-10 100 1000 5000}
MISSPELT=${MISSPELT-10 100}
CMDLINE_SIZES=${CMDLINE_SIZES-10 100 1000 2000}
SCALE_KPROBES=${SCALE_KPROBES-10000 50000}
SCALE_FUNCTIONS=${SCALE_FUNCTIONS-10000 25000 50000 100000}
SCALE_REPS=${SCALE_REPS:-3}
CMDLINE_REPS_BIG=${CMDLINE_REPS_BIG:-1}
OUT=${OUT:-$(mktemp -d /tmp/probecc-bench.XXXXXX)}
mkdir -p "$OUT"

log() { echo "bench: $*" >&2; }
die() { echo "bench: $*" >&2; exit 1; }

# --- inputs --------------------------------------------------------------
src_probecc=${PROBECC:-$top/probecc}
[ -x "$src_probecc" ] || die "no $src_probecc: run 'make probecc' first"
cp "$src_probecc" "$OUT/probecc"
PCC=$OUT/probecc

MIPSEL_TARGET=${MIPSEL_TARGET:-$("$top/qemu-images/target" mipsel)}
X86_64_TARGET=${X86_64_TARGET:-$("$top/qemu-images/target" x86_64)}
if [ -z "${X86_64_MODULES-}" ]; then
	X86_64_MODULES=$(eval "$("$top/qemu-images/fetch" x86_64)"; echo "$MODULES")
fi
if [ -z "${MALTA_VMLINUX-}" ] || [ -z "${MALTA_SYSTEM_MAP-}" ]; then
	bk=$("$top/qemu-images/build-kernel" mipsel)
	MALTA_VMLINUX=${MALTA_VMLINUX:-$(sed -n 's/^VMLINUX=//p' <<<"$bk")}
	MALTA_SYSTEM_MAP=${MALTA_SYSTEM_MAP:-$(sed -n 's/^SYSTEM_MAP=//p' <<<"$bk")}
fi
for f in "$MIPSEL_TARGET" "$X86_64_TARGET" "$MALTA_VMLINUX" "$MALTA_SYSTEM_MAP"; do
	[ -s "$f" ] || die "missing input $f"
done
[ -d "$X86_64_MODULES" ] || die "missing modules directory $X86_64_MODULES"

# --- names ---------------------------------------------------------------
# Candidates: text symbols (T/t) whose name is unique in the kernel and a
# word of the language; from a capture also only those in
# available_filter_functions and not on the blacklist.  Then probecc
# itself weeds out whatever it rejects (notrace, blacklisted by address,
# __init, ...), so every timed "good" file passes its checks.
candidates_capture() {
	awk '/^--- /{s=$2; next}
	     s=="kallsyms" && NF==3 {n[$3]++; if ($2=="T"||$2=="t") t[$3]=1}
	     s=="available_filter_functions" {f[$1]=1}
	     s=="kprobe_blacklist" {b[$2]=1}
	     END {for (x in t) if (n[x]==1 && f[x] && !b[x] &&
				   x ~ /^[A-Za-z_][A-Za-z0-9_.]*$/) print x}' "$1" | LC_ALL=C sort
}
candidates_sysmap() {
	awk '{n[$3]++; if ($2=="T"||$2=="t") t[$3]=1}
	     END {for (x in t) if (n[x]==1 && x ~ /^[A-Za-z_][A-Za-z0-9_.]*$/) print x}' "$1" |
		LC_ALL=C sort
}
all_names_capture() { awk '/^--- /{s=$2; next} s=="kallsyms" && NF>=3 {print $3}' "$1"; }
all_names_sysmap() { awk '{print $3}' "$1"; }

# weed LIST ARGS...: keep the names of LIST that probecc ARGS accepts both
# as a kprobe and in a function list.
weed() {
	local list=$1 cand=$OUT/cand.probes n
	shift
	n=$(wc -l <"$list")
	awk '{printf "kprobe c%06d %s\n", NR, $1}' "$list" >"$cand"
	awk '{printf "function %s\n", $1}' "$list" >>"$cand"
	"$PCC" "$cand" "$@" --via bootconfig --explain >/dev/null 2>"$OUT/cand.err" || true
	{ grep -o "^$cand:[0-9]*:[0-9]*: error" "$OUT/cand.err" || true; } |
		awk -F: -v n="$n" '{l=$2; if (l>n) l-=n; print l}' | sort -un >"$OUT/cand.bad"
	awk -v bf="$OUT/cand.bad" 'FILENAME==bf {bad[$1]=1; next} !bad[FNR]' "$OUT/cand.bad" "$list"
}

# pick LIST N OFFSET: N names spread evenly over LIST
pick() {
	awk -v n="$2" -v off="$3" '{a[NR]=$1}
		END {if (n>NR) {print "bench: only " NR " names, " n " wanted" >"/dev/stderr"; exit 1}
		     for (i=0; i<n; i++) print a[int((i+off)*NR/n)+1]}' "$1"
}

# goodfile LIST N [nofunc]: N kprobes, and function lines with N/10 other
# names (10 a line) unless nofunc
goodfile() {
	local nf=$(( $2 / 10 > 0 ? $2 / 10 : 1 ))
	pick "$1" "$2" 0 | awk '{printf "kprobe k%05d %s\n", NR, $1}'
	[ "${3-}" != nofunc ] || return 0
	pick "$1" "$nf" 0.5 | awk '{printf "%s%s", (NR%10==1 ? "function" : ""), " " $1}
				  NR%10==0 {print ""} END {if (NR%10) print ""}'
}

# badfile LIST ALLNAMES M: M kprobes on names with their middle letter
# dropped, none of them a symbol of the kernel
badfile() {
	awk -v m="$3" -v af="$2" 'FILENAME==af {all[$1]=1; next}
		length($1)>=8 {c[++n]=$1}
		END {k=0
		     for (i=1; i<=n && k<m; i+=int(n/(2*m))+1) {
			x=c[i]; h=int(length(x)/2)
			y=substr(x,1,h) substr(x,h+2)
			if (y in all || y !~ /^[A-Za-z_][A-Za-z0-9_.]*$/) continue
			printf "kprobe m%05d %s\n", ++k, y
		     }
		     if (k<m) {print "bench: only " k " misspellings" >"/dev/stderr"; exit 1}}' \
		"$2" "$1"
}

declare -A ARGS WEED
ARGS[mipsel]="--target $MIPSEL_TARGET"
ARGS[x86_64]="--target $X86_64_TARGET"
ARGS[vmlinux]="--vmlinux $MALTA_VMLINUX"
ARGS[mods]="--target $X86_64_TARGET --modules $X86_64_MODULES"

log "names (out: $OUT)"
candidates_capture "$MIPSEL_TARGET" >"$OUT/mipsel.cand"
candidates_capture "$X86_64_TARGET" >"$OUT/x86_64.cand"
candidates_sysmap "$MALTA_SYSTEM_MAP" >"$OUT/vmlinux.cand"
all_names_capture "$MIPSEL_TARGET" >"$OUT/mipsel.all"
all_names_capture "$X86_64_TARGET" >"$OUT/x86_64.all"
all_names_sysmap "$MALTA_SYSTEM_MAP" >"$OUT/vmlinux.all"
# x86_64's names serve the --modules case too: weed them with the modules
# (a name a module shares is ambiguous there)
WEED[mipsel]=mipsel WEED[x86_64]=mods WEED[vmlinux]=vmlinux
for t in mipsel x86_64 vmlinux; do
	# shellcheck disable=SC2086
	weed "$OUT/$t.cand" ${ARGS[${WEED[$t]}]} >"$OUT/$t.names"
	log "$t: $(wc -l <"$OUT/$t.cand") candidates, $(wc -l <"$OUT/$t.names") accepted"
done

for t in mipsel x86_64 vmlinux; do
	for n in $SIZES; do
		goodfile "$OUT/$t.names" "$n" >"$OUT/$t-$n.probes"
	done
	for m in $MISSPELT; do
		badfile "$OUT/$t.names" "$OUT/$t.all" "$m" >"$OUT/$t-bad$m.probes"
	done
done
for n in $CMDLINE_SIZES; do
	# kprobes only: ftrace_filter= cannot move to the agent, and N/10
	# function names would not fit the command line by themselves
	goodfile "$OUT/mipsel.names" "$n" nofunc >"$OUT/cmdline-$n.probes"
done

# scale: N kprobes cycling over the accepted names (distinct probe names,
# a symbol probed several times past 28k), and N made-up function names
for n in $SCALE_KPROBES; do
	awk -v n="$n" '{a[++m]=$1} END {for (i = 0; i < n; i++) printf "kprobe k%06d %s\n", i, a[i % m + 1]}' \
		"$OUT/mipsel.names" >"$OUT/scale-k$n.probes"
done
for n in $SCALE_FUNCTIONS; do
	awk -v n="$n" 'BEGIN {for (i = 0; i < n; i += 10) {printf "function"
		for (j = i; j < i + 10 && j < n; j++) printf " fn%06d", j; print ""}}' >"$OUT/scale-f$n.probes"
done

# --- timing --------------------------------------------------------------
evict_modules() {
	python3 - "$X86_64_MODULES" <<'EOF'
import os, sys
for d, _, fs in os.walk(sys.argv[1]):
    for f in fs:
        if f.endswith('.ko'):
            fd = os.open(os.path.join(d, f), os.O_RDONLY)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            os.close(fd)
EOF
}

# measure KEY REPS WANT_RC PREP ARGS...: run probecc REPS times (PREP, not
# timed, before each); append "KEY wall cpu" medians to $OUT/medians
measure() {
	local key=$1 reps=$2 want=$3 prep=$4 i rc t
	shift 4
	: >"$OUT/runs-$key"
	for ((i = 0; i < reps; i++)); do
		[ "$prep" = - ] || $prep
		TIMEFORMAT='%3R %3U %3S'
		t=$( { time "$PCC" "$@" >/dev/null 2>"$OUT/stderr-$key"; echo "rc=$?" >"$OUT/rc-$key"; } 2>&1 ) || true
		rc=$(sed 's/rc=//' "$OUT/rc-$key")
		if [ "$rc" != "$want" ]; then
			cat "$OUT/stderr-$key" >&2
			die "$key: exit $rc, wanted $want: $PCC $*"
		fi
		awk '{printf "%.3f %.3f\n", $1, $2 + $3}' <<<"$t" >>"$OUT/runs-$key"
	done
	awk -v k="$key" '{w[NR]=$1; c[NR]=$2}
		function med(a, n,   i, j, x) {
			for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] > x; j--) a[j+1] = a[j]; a[j+1] = x }
			return a[int((n + 1) / 2)]
		}
		END {printf "%s %.3f %.3f\n", k, med(w, NR), med(c, NR)}' \
		"$OUT/runs-$key" >>"$OUT/medians"
	log "$(tail -1 "$OUT/medians")"
}

: >"$OUT/medians"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
BC=(--via bootconfig --explain)
for n in $SIZES; do
	measure "none-$n" "$REPS" 0 - "$OUT/mipsel-$n.probes" "${BC[@]}"
	for t in mipsel x86_64 vmlinux; do
		# shellcheck disable=SC2086
		measure "$t-$n" "$REPS" 0 - "$OUT/$t-$n.probes" ${ARGS[$t]} "${BC[@]}"
	done
	# shellcheck disable=SC2086
	measure "mods-warm-$n" "$REPS" 0 - "$OUT/x86_64-$n.probes" ${ARGS[mods]} "${BC[@]}"
	# shellcheck disable=SC2086
	measure "mods-cold-$n" "$REPS" 0 evict_modules "$OUT/x86_64-$n.probes" ${ARGS[mods]} "${BC[@]}"
done
# did-you-mean: every misspelt name scans the whole symbol table; probecc
# reports them all and exits 1 (before placement)
for m in $MISSPELT; do
	for t in mipsel x86_64 vmlinux; do
		# shellcheck disable=SC2086
		measure "$t-bad$m" "$REPS" 1 - "$OUT/$t-bad$m.probes" ${ARGS[$t]} "${BC[@]}"
	done
	# shellcheck disable=SC2086
	measure "mods-warm-bad$m" "$REPS" 1 - "$OUT/x86_64-bad$m.probes" ${ARGS[mods]} "${BC[@]}"
done
# the default placement: kprobes on the command line (kprobe_event=) while
# they fit in the budget, the rest to the agent's plan
for n in $CMDLINE_SIZES; do
	r=$REPS
	[ "$n" -le 1000 ] || r=$CMDLINE_REPS_BIG
	# shellcheck disable=SC2086
	measure "cmdline-$n" "$r" 0 - "$OUT/cmdline-$n.probes" ${ARGS[mipsel]} \
		--via cmdline --plan "$OUT/cmdline.plan"
done
for n in $SCALE_KPROBES; do
	# shellcheck disable=SC2086
	measure "scale-kbc-$n" "$SCALE_REPS" 0 - "$OUT/scale-k$n.probes" ${ARGS[mipsel]} "${BC[@]}"
	# the default placement: past the budget, to the plan (--explain
	# only: 10,000 kprobes make more plan than the agent reads)
	# shellcheck disable=SC2086
	measure "scale-kcmd-$n" "$SCALE_REPS" 0 - "$OUT/scale-k$n.probes" ${ARGS[mipsel]} --explain
done
for n in $SCALE_FUNCTIONS; do
	measure "scale-f-$n" "$SCALE_REPS" 0 - "$OUT/scale-f$n.probes" "${BC[@]}"
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# --- report --------------------------------------------------------------
cell() { awk -v k="$1" '$1==k {printf "%s / %s", $2, $3; f=1} END {if (!f) printf "-"}' "$OUT/medians"; }

echo "## probecc $(git -C "$top" describe --always --dirty 2>/dev/null || echo '?'), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
	"load average $load_before before, $load_after after; $REPS runs per case (median)"
echo
echo "Median wall / user+sys seconds, --via bootconfig --explain, no --kconfig:"
echo
printf '| case |'; for n in $SIZES; do printf ' %s kprobes |' "$n"; done; echo
printf '|---|'; for n in $SIZES; do printf -- '---|'; done; echo
for row in "none:no target" "mipsel:--target mipsel" "x86_64:--target x86_64" \
	   "vmlinux:--vmlinux Malta" "mods-warm:--target x86_64 --modules (warm)" \
	   "mods-cold:--target x86_64 --modules (cold-ish)"; do
	printf '| %s |' "${row#*:}"
	for n in $SIZES; do printf ' %s |' "$(cell "${row%%:*}-$n")"; done
	echo
done
echo
echo "Misspelt kprobes only (did-you-mean; exit 1, no placement):"
echo
printf '| case |'; for m in $MISSPELT; do printf ' %s misspelt |' "$m"; done; echo
printf '|---|'; for m in $MISSPELT; do printf -- '---|'; done; echo
for row in "mipsel:--target mipsel" "x86_64:--target x86_64" "vmlinux:--vmlinux Malta" \
	   "mods-warm:--target x86_64 --modules (warm)"; do
	printf '| %s |' "${row#*:}"
	for m in $MISSPELT; do printf ' %s |' "$(cell "${row%%:*}-bad$m")"; done
	echo
done
echo
echo "Default placement (--via cmdline --plan, --target mipsel; runs above 1000: $CMDLINE_REPS_BIG):"
echo
printf '| case |'; for n in $CMDLINE_SIZES; do printf ' %s kprobes |' "$n"; done; echo
printf '|---|'; for n in $CMDLINE_SIZES; do printf -- '---|'; done; echo
printf '| --via cmdline |'
for n in $CMDLINE_SIZES; do printf ' %s |' "$(cell "cmdline-$n")"; done
echo
echo
if [ -n "$SCALE_KPROBES$SCALE_FUNCTIONS" ]; then
	echo "Scale (linear compile time; $SCALE_REPS runs per case):"
	echo
	echo "| case | N | wall / user+sys |"
	echo "|---|---|---|"
	for n in $SCALE_KPROBES; do
		echo "| kprobes, --target mipsel --via bootconfig --explain | $n | $(cell "scale-kbc-$n") |"
		echo "| kprobes, --target mipsel --explain (default placement) | $n | $(cell "scale-kcmd-$n") |"
	done
	for n in $SCALE_FUNCTIONS; do
		echo "| function names, no target, --via bootconfig --explain | $n | $(cell "scale-f-$n") |"
	done
	echo
fi
echo "raw runs: $OUT/runs-*"
