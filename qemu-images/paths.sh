# paths.sh: what every QEMU helper starts with, and where probecc and
# its agents are, run from a checkout or from an installed tree (make
# install puts them in PREFIX/lib/probecc/qemu-images/, beside
# PREFIX/lib/probecc/ARCH/agent, with probecc in PREFIX/bin).  Sourced
# first, as
#     . "$(dirname "$(readlink -f "$0")")/paths.sh"
# (uboot/'s helpers: ../paths.sh; readlink: PREFIX/bin/probecc-NAME is a
# link).  It turns on set -eu and pipefail, with an ERR trap that names
# the failing line, and sets:
#   prog       the helper's name, for its messages
#   here       the helper's own directory
#   P_CACHE    what the helpers fetch and build: $PROBECC_CACHE, else
#              ~/.cache/probecc
#   P_TOP      the checkout, or PREFIX/lib/probecc
#   P_PROBECC  the probecc to run: the checkout's, else PREFIX/bin's,
#              else the one on $PATH
#   P_CHECKOUT 1 in a checkout (a Makefile beside), else 0
# `die MSG...` prints "prog: MSG" and exits 1; `p_usage` prints the
# helper's "# usage:" comment (up to the first empty comment line) and
# exits 2; `p_agent ARCH` prints the agent for ARCH: probecc
# --agent-path, the one lookup (compiler/initrd.c agent_find()).
set -eu -o pipefail
trap 'echo "${0##*/}: line $LINENO: exit $?: $BASH_COMMAND" >&2' ERR
prog=${0##*/}
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
P_CACHE=${PROBECC_CACHE:-$HOME/.cache/probecc}
die() { echo "$prog: $*" >&2; exit 1; }
p_usage() {
	sed -n '/^# usage: /,/^#$/{/^#$/d; s/^# usage: /usage: /; s/^#//; p}' "$0" >&2
	exit 2
}
P_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
P_CHECKOUT=0
[ -f "$P_TOP/Makefile" ] && [ -d "$P_TOP/compiler" ] && P_CHECKOUT=1
if [ -x "$P_TOP/probecc" ]; then
	P_PROBECC=$P_TOP/probecc
elif [ -x "$P_TOP/../../bin/probecc" ]; then
	P_PROBECC=$(cd "$P_TOP/../../bin" && pwd)/probecc
else
	P_PROBECC=$(command -v probecc || echo "$P_TOP/probecc")
fi
p_agent() {
	"$P_PROBECC" --agent-path "$1"
}
