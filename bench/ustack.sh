#!/bin/bash
# bench/ustack.sh: unwinding 10,000 user-stack samples on the host
# (bench/README.md, "User stacks: 10,000 samples").  The inputs are two
# real boots of tests/ustack.test.sh (bench/ustack/: the window dump
# "dump2" as the agent wrote it, the program /bin/chain it sampled,
# xz-compressed, and the boot's run.log): one "perf-user" sample (user
# registers and 8 KiB of user stack) joined to one trace hit.  The script
# repeats that sample line and its hit N times, bytes unchanged (the
# report pairs the Nth sample of a task with its Nth hit), and times with
# farm-bench, side by side:
#   NEW report --sysroot  against  OLD report --sysroot  (the unwinding)
#   NEW report --sysroot  against  NEW report without --sysroot (the
#                                    dump's parsing alone: the difference
#                                    is the unwinding's cost)
# Both reports' user callers are compared first: a faster wrong stack is
# no result.
#
# usage: bench/ustack.sh [ARCH...]   (default: x86_64 mipsel)
# Environment: N=10000 samples, RUNS=5, OLD=path of the probecc to
# compare (default: BASE, the commit before the one that gave
# report/ustack.c its per-file cache, built in a temporary git worktree),
# OUT=dir (default: a new directory under /tmp).
set -eu -o pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
n=${N:-10000}
runs=${RUNS:-5}
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/probecc-bench-ustack.XXXXXX")}
mkdir -p "$out"
[ $# -gt 0 ] || set -- x86_64 mipsel
cp ./probecc "$out/probecc-new"
if [ -z "${OLD:-}" ]; then
	base=${BASE:-$(git log --format=%H -S'struct ufile {' -- report/ustack.c facts/ustack.c | tail -1)^}
	git worktree add -f --detach "$out/old-tree" "$base" > /dev/null 2>&1
	make -s -C "$out/old-tree" probecc > "$out/old-build.log" 2>&1
	cp "$out/old-tree/probecc" "$out/probecc-old"
	git worktree remove --force "$out/old-tree"
else
	cp "$OLD" "$out/probecc-old"
fi
echo "bench/ustack.sh: $(date -u '+%F %T') UTC, $(git describe --always --dirty), N=$n, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for arch in "$@"; do
	d=$out/$arch
	mkdir -p "$d/sysroot/bin"
	xz -dc "bench/ustack/$arch-chain.xz" > "$d/sysroot/bin/chain"
	# the sample line N times; the hit line and its user stack lines N
	# times, and the ring buffer's entries (one CPU in these dumps) as
	# many more: the report checks its event lines against them
	awk -v n="$n" '
	NR == FNR { add += (/: probe_me: / || /<user stack trace>/) * (n - 1); next }
	/^cpu\t0\tentries\t/ { split($0, f, "\t"); sub("\tentries\t" f[4] "\t", "\tentries\t" (f[4] + add) "\t") }
	/^# entries-in-buffer\/entries-written: / {
		split($3, e, "/")
		sub(e[1] "/" e[2], (e[1] + add) "/" (e[2] + add))
	}
	/^perf-user\t/ { for (i = 0; i < n; i++) print; next }
	/: probe_me: / {
		hit = $0
		rest = ""
		while ((getline l) > 0 && (l ~ /<user stack trace>/ || l ~ /^ => /))
			rest = rest "\n" l
		for (i = 0; i < n; i++)
			print hit rest
		print l
		next
	}
	{ print }' "bench/ustack/$arch.dump2" "bench/ustack/$arch.dump2" > "$d/dump"
	got=$(grep -c '^perf-user' "$d/dump")
	[ "$got" = "$n" ] || { echo "bench/ustack.sh: $arch: $got samples, not $n" >&2; exit 1; }
	for v in new old; do
		"$out/probecc-$v" report --sysroot "$d/sysroot" --probes bench/ustack/chain.probes \
			"$d/dump" > "$d/$v.txt" 2>&1 || true
		sed -n '/user callers/,/expectations/p' "$d/$v.txt" > "$d/$v.callers"
	done
	if ! grep -q "^      $n probe_me+0x0 \[/bin/chain\] (pc)$" "$d/new.callers" ||
	   ! cmp -s "$d/new.callers" "$d/old.callers"; then
		echo "bench/ustack.sh: $arch: the reports' user callers differ or are not $n: $d" >&2
		exit 1
	fi
	echo "## $arch: $n samples, $(wc -c < "$d/dump") bytes of dump, $(grep -c '(cfi)$' "$d/new.callers") callers from CFI each"
	echo "### new against old"
	farm-bench -n "$runs" --timeout 1200 \
		--vs "$out/probecc-old report --sysroot $d/sysroot --probes bench/ustack/chain.probes $d/dump" \
		-- "$out/probecc-new" report --sysroot "$d/sysroot" --probes bench/ustack/chain.probes "$d/dump"
	echo "### new against new without --sysroot (parsing only)"
	farm-bench -n "$runs" --timeout 600 \
		--vs "$out/probecc-new report --probes bench/ustack/chain.probes $d/dump" \
		-- "$out/probecc-new" report --sysroot "$d/sysroot" --probes bench/ustack/chain.probes "$d/dump"
done
echo "bench/ustack.sh: inputs and reports in $out" >&2
