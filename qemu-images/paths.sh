# paths.sh: where probecc and its agents are, for the QEMU helpers, run
# from a checkout or from an installed tree (make install puts them in
# PREFIX/lib/probecc/qemu-images/, beside PREFIX/lib/probecc/ARCH/agent,
# with probecc in PREFIX/bin).  Sourced after $here is set (the script's
# own directory).  Sets:
#   P_TOP      the checkout, or PREFIX/lib/probecc
#   P_PROBECC  the probecc to run: the checkout's, else PREFIX/bin's,
#              else the one on $PATH
#   P_CHECKOUT 1 in a checkout (a Makefile beside), else 0
# `p_agent ARCH` prints the agent for ARCH: probecc --agent-path, the one
# lookup (compiler/initrd.c agent_find()).
P_TOP=$(dirname "$here")
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
