#!/bin/bash
# ustack-sysroot.sh DIR: the sysroots tests/fuzz/fuzz-ustack unwinds in,
# made once per process from the stored real programs of bench/ustack/
# (tests/ustack/chain.c, static, the boots of bench/ustack/*.dump2):
#   DIR/x86_64, DIR/mipsel                  /bin/chain as it was booted
#   DIR/x86_64-stripped, DIR/mipsel-stripped  /bin/chain stripped, its
#       debug file where Debian's -dbgsym puts it: by build-id on x86_64,
#       by .gnu_debuglink on mipsel (tests/ustack/check.sh strip_into)
#   DIR/x86_64-baddebug, DIR/mipsel-baddebug  the stripped /bin/chain, its
#       debug file's place holding a link to /dev/zero (x86_64) or a
#       FIFO (mipsel)
# and in each what a hostile dump may name: /bin/fifo (a FIFO),
# /bin/abs (an absolute link to /bin/chain: inside the root),
# /bin/out (a relative link out of the root), /bin/zero (a link to
# /dev/zero).  Exit 1 with the reason on stderr when a tool fails.
set -eu -o pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$1
# strip_into, ustack_tools (and nothing run at source time)
. "$top/tests/ustack/check.sh"
for arch in x86_64 mipsel; do
	mkdir -p "$dir/$arch/bin"
	xz -dc "$top/bench/ustack/$arch-chain.xz" > "$dir/$arch/bin/chain"
	how=build-id && [ $arch = x86_64 ] || how=debuglink
	strip_into "$dir/$arch/bin/chain" "$dir/$arch-stripped" $arch chain $how ||
		{ echo "${0##*/}: cannot strip $arch's chain ($how)" >&2; exit 1; }
	bad=$dir/$arch-baddebug
	mkdir -p "$bad/bin"
	cp "$dir/$arch-stripped/bin/chain" "$bad/bin/chain"
	(cd "$dir/$arch-stripped" && find usr -name '*.debug') | while read -r f; do
		mkdir -p "$bad/$(dirname "$f")"
		case $arch in
		x86_64) ln -s /dev/zero "$bad/$f" ;;
		*) mkfifo "$bad/$f" ;;
		esac
	done
	for root in "$dir/$arch" "$dir/$arch-stripped" "$bad"; do
		mkfifo "$root/bin/fifo"
		ln -s /bin/chain "$root/bin/abs"
		ln -s ../../../../../../../../etc/hostname "$root/bin/out"
		ln -s /dev/zero "$root/bin/zero"
	done
done
