# The agents' size, held: every agent this build makes with musl
# (make -s agent-list: "ARCH LIBC ZLIB", initramfs/Makefile.initramfs)
# is at most 200 KiB (204,800 bytes), with zlib where the build has it
# (make check runs make agent-zlib first).  An agent built with static
# glibc (0.5-0.9 MB: no musl for it here) is skipped with the reason,
# which CI counts as a failure.  The agents are rebuilt first if their
# sources or command line changed.
# Run alone: bash tests/agentsize.test.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

AS_MAX=204800
AS=$T_OUT/agentsize
rm -rf "$AS" && mkdir -p "$AS"

if ! make -s agent-list > "$AS/list" 2> "$AS/list.err" || [ ! -s "$AS/list" ]; then
	t_fail agentsize/list "make -s agent-list listed no agent" "$AS/list.err"
fi
while read -r as_arch as_libc as_zlib; do
	as_agent=initramfs/agent-$as_arch
	if ! make -s "$as_agent" > "$AS/$as_arch.log" 2>&1; then
		t_fail "agentsize/$as_arch" "make $as_agent failed" "$AS/$as_arch.log"
		continue
	fi
	as_size=$(stat -c %s "$as_agent")
	if [ "$as_libc" != musl ]; then
		t_skip "agentsize/$as_arch" "$as_agent is static glibc ($as_size bytes): make agent-zlib, then make"
	elif [ "$as_size" -gt "$AS_MAX" ]; then
		t_fail "agentsize/$as_arch" "$as_agent ($as_libc, $as_zlib) is $as_size bytes, over 200 KiB ($AS_MAX)"
	else
		t_pass "agentsize/$as_arch"
	fi
done < "$AS/list"
