# make check-hang: Debian's Linux 6.12 for amd64 (target x86_64-6.12,
# bookworm-security; qemu-images/fetch pins the version) and the hang
# path of run-probes.  Not in make check: its cold cost (the 6.12 kernel,
# 107 MB, 22.6 s; its headers, 16.6 MB, 49 s; a module build; three
# boots) would add more than 3 minutes to the cold CI run.
#   x86_64-6.12/bond0   examples/bond0.probes through run-probes and the
#                       agent on 6.12: both dumps, the kprobe's hit by
#                       insmod bonding (the window dump)
hg=$T_OUT/hang
mkdir -p "$hg"

# x86_64-6.12/bond0: the target boots with the agent; 6.12's modules are
# .ko.xz, which mkimage unpacks for busybox's insmod.
hang_bond0() {
	local n=x86_64-6.12/bond0 d=$hg/bond0 rc=0
	rm -rf "$d"
	qemu-images/run-probes --arch x86_64-6.12 --out "$d" --timeout 120 \
		examples/bond0.probes > "$d.log" 2>&1 || rc=$?
	if [ $rc -ne 0 ]; then
		t_fail "$n" "run-probes exited $rc" "$d.log"
	elif ! grep -q '^stage	window' "$d/dump2" 2>/dev/null; then
		t_fail "$n" "no window dump" "$d.log"
	elif ! grep -q 'insmod-.*netdev: (register_netdevice+0x4/' "$d/dump2"; then
		# +0x4: past the endbr64 (IBT).  The name field reads "": 6.12's
		# struct net_device no longer starts with name[] (the 6.8
		# cacheline groups), so bond0.probes' +0(arg1) misses it here
		t_fail "$n" "no kprobe hit of insmod's register_netdevice in the window dump" "$d/dump2"
	elif ! grep -q '^cmdline	.*6\.12\|Linux version 6\.12' "$d/dump1" "$d/console.log"; then
		t_fail "$n" "not a 6.12 kernel" "$d/console.log"
	else
		t_pass "$n"
	fi
}
hang_bond0
