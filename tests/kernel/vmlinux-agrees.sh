# vmlinux_agrees PREFIX DIR TARGET VMLINUX SYSTEM_MAP: what probecc reads
# from VMLINUX (symbols, __mcount_loc, the kprobe blacklist) agrees with
# TARGET, a capture of the same kernel booted (qemu-images/capture).
# Section 3 of tests/kernel/run.sh (Malta) and tests/kernel/x86.sh use it.
vmlinux_agrees() {
	local p=$1 d=$2 target=$3 vmlinux=$4 map=$5 n got
	# kallsyms and available_filter_functions of the running kernel
	sed -n '/^--- available_filter_functions ---$/,/^--- /p' "$target" |
		grep -v '^---' | awk '{ print $1 }' | sort -u > "$d/traceable"
	sed -n '/^--- kallsyms ---$/,/^--- /p' "$target" |
		awk '$2 ~ /^[tT]$/ && NF == 3 { print $3 }' | sort | uniq -u > "$d/text"
	# 300 traceable functions (unique names): no error against the vmlinux
	shuf -n 300 --random-source=<(yes) "$d/traceable" | while read -r f; do
		grep -qx "$f" "$d/text" && echo "function $f"
	done > "$d/traceable.probes"
	if ./probecc "$d/traceable.probes" --vmlinux "$vmlinux" -o "$d/traceable.bconf" \
		--plan "$d/traceable.plan" > /dev/null 2> "$d/traceable.err"; then
		t_pass "$p/vmlinux-mcount-agrees ($(wc -l < "$d/traceable.probes") traceable)"
	else
		t_fail "$p/vmlinux-mcount-agrees" "a function the kernel traces has no call site in the vmlinux" "$d/traceable.err"
	fi
	# text symbols the kernel does not trace (notrace, or freed __init):
	# each one reported against the vmlinux, none accepted
	awk -v s="$(awk '$3 == "_sinittext" { print $1 }' "$map")" \
	    -v e="$(awk '$3 == "_einittext" { print $1 }' "$map")" \
	    '$2 ~ /^[tT]$/ && $1 >= s && $1 < e { print $3 }' "$map" | sort -u > "$d/init"
	comm -23 "$d/text" "$d/traceable" | comm -23 - "$d/init" | grep -v '^__\|\.' |
		shuf -n 100 --random-source=<(yes) | sed 's/^/function /' > "$d/untraceable.probes"
	./probecc "$d/untraceable.probes" --error-limit 0 --vmlinux "$vmlinux" --plan "$d/untraceable.plan" \
		> /dev/null 2> "$d/untraceable.err"
	n=$(wc -l < "$d/untraceable.probes")
	got=$(grep -c 'has no mcount/fentry call site\|is an __init function' "$d/untraceable.err")
	if [ "$n" -gt 0 ] && [ "$got" = "$n" ]; then
		t_pass "$p/vmlinux-notrace-agrees ($n untraceable)"
	else
		t_fail "$p/vmlinux-notrace-agrees" "$got of $n untraceable functions reported" "$d/untraceable.err"
	fi
	# the blacklist the running kernel lists is the vmlinux's
	sed -n '/^--- kprobe_blacklist ---$/,/^--- /p' "$target" | grep -v '^---' |
		awk '{ print $2 }' | sort -u | shuf -n 50 --random-source=<(yes) |
		awk '{ printf "kprobe b%d %s\n", NR, $1 }' > "$d/black.probes"
	./probecc "$d/black.probes" --error-limit 0 --vmlinux "$vmlinux" --plan "$d/black.plan" > /dev/null 2> "$d/black.err"
	n=$(wc -l < "$d/black.probes")
	# (a static name several files define is refused as ambiguous first)
	got=$(grep -c "is on the kernel's kprobe blacklist\|names [0-9]* symbols" "$d/black.err")
	if [ "$n" -gt 0 ] && [ "$got" = "$n" ]; then
		t_pass "$p/vmlinux-blacklist-agrees ($n listed)"
	else
		t_fail "$p/vmlinux-blacklist-agrees" "$got of $n blacklisted functions reported" "$d/black.err"
	fi
}
