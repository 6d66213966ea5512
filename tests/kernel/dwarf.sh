# C names from DWARF on the kernel, sourced at the end of
# tests/kernel/run.sh ($d, $VMLINUX, $SYSTEM_MAP set there).  The test
# kernel's vmlinux has DWARF 4 and no CFI perf can use: perf probe -D
# stops with "Failed to get call frame", probecc translates.
#  1. dev->name of register_netdevice from the vmlinux's DWARF, and the
#     errors (no such member with did-you-mean, not a pointer); a
#     'stack has' function that exists only inlined, named as such.
#  2. One boot: the kprobe by C name on the command line shows built-in
#     bonding's "bond%d" (and "lo"); a uprobe by C names on the -g -O2
#     tests/dwarf/prog.c shows struct members, bitfields and strings.

dd=$d/dwarf && mkdir -p "$dd/root/bin"
cat > "$dd/k.probes" <<'PROBES'
kprobe netdev register_netdevice {
	name = dev->name
	ifindex = dev->ifindex
}
uprobe item /bin/dw:dw_item {
	name = it->name
	id = it->id
	kind = it->kind
	level = it->level
	y = it->pos.y
	label = it->label
	next = it->next->name
	scale = scale
	tag = tag
}
dump /dev/ttyS1
window 4s
expect netdev.name == "bond%d"
expect item hits == 4 after init
PROBES

# 1. the translation, and what perf makes of the same vmlinux
mipsel-linux-gnu-gcc -static -no-pie -g -O2 -o "$dd/root/bin/dw" tests/dwarf/prog.c 2> "$dd/cc.err" ||
	t_fail kernel/dwarf-build-prog "mipsel-linux-gnu-gcc failed" "$dd/cc.err"
# the Malta YAMON argument is 256 bytes (docs/language.md): keep room
rd="rd_start=0xffffffff80000000 rd_size=123456789 "
user="console=ttyS0 rdinit=/init"
if ./probecc "$dd/k.probes" --vmlinux "$VMLINUX" --sysroot "$dd/root" \
	--cmdline-max $((255 - ${#rd} - ${#user} - 1)) --plan "$dd/k.plan" --cmdline \
	> "$dd/k.cmdline" 2> "$dd/k.err" &&
   grep -q 'p:netdev,register_netdevice,name=+0(%r4):string,ifindex=+[0-9]*(%r4):s32' "$dd/k.cmdline"; then
	t_pass kernel/dwarf-dev-name
	sed 's/^/    /' "$dd/k.cmdline"
else
	t_fail kernel/dwarf-dev-name "" "$dd/k.err" "$dd/k.cmdline"
fi
printf 'kprobe n register_netdevice { a = dev->nmae; b = dev->ifindex->x }\n' > "$dd/bad.probes"
./probecc "$dd/bad.probes" --vmlinux "$VMLINUX" > /dev/null 2> "$dd/bad.err"
if grep -q "struct net_device has no member 'nmae'; did you mean name" "$dd/bad.err" &&
   grep -q "'dev->ifindex' is int, not a pointer" "$dd/bad.err"; then
	t_pass kernel/dwarf-errors
else
	t_fail kernel/dwarf-errors "" "$dd/bad.err"
fi
# 'stack has' a function the kernel has no symbol of: netdev_priv exists
# only inlined (DWARF: an abstract instance), and says so; a misspelt one
# gets its did-you-mean
printf 'kprobe n register_netdevice { stack }\nexpect n stack has netdev_priv\nexpect n stack has register_netdevce\n' \
	> "$dd/inl.probes"
./probecc "$dd/inl.probes" --vmlinux "$VMLINUX" > /dev/null 2> "$dd/inl.err"
rc=$?
if [ $rc = 1 ] &&
   grep -q "'netdev_priv' has no symbol of its own: it exists only inlined (DWARF of .*: declared at include/linux/netdevice.h:[0-9]*)" "$dd/inl.err" &&
   grep -q "no function 'register_netdevce'; did you mean register_netdevice" "$dd/inl.err"; then
	t_pass kernel/dwarf-stack-has-inlined
else
	t_fail kernel/dwarf-stack-has-inlined "exit $rc" "$dd/inl.err"
fi
if command -v perf > /dev/null; then
	perf probe -k "$VMLINUX" -D 'register_netdevice dev->name:string' > "$dd/perf.out" 2>&1
	if grep -q 'Failed to get call frame' "$dd/perf.out"; then
		t_pass kernel/dwarf-perf-fails-on-mips
		sed 's/^/    perf: /' "$dd/perf.out" | head -2
	else
		t_fail kernel/dwarf-perf-fails-on-mips "perf probe said something else" "$dd/perf.out"
	fi
fi

# 2. the boot
if qemu-images/mkimage mipsel -o "$dd/k.gz" --plan "$dd/k.plan" --module none \
	--rc tests/dwarf/rc --add "$dd/root/bin/dw:/bin/dw" 2> "$dd/mkimage.err" &&
   qemu-images/boot mipsel --kernel "$VMLINUX" --initrd "$dd/k.gz" --quiet \
	--append "$user $(cat "$dd/k.cmdline")" --dump "$dd/k.raw" \
	--console-log "$dd/k.log" --timeout 180 2> "$dd/k.boot.err"; then
	last=$(qemu-images/extract-dump --list "$dd/k.raw" | tail -1)
	qemu-images/extract-dump "$dd/k.raw" "$last" > "$dd/k.dump"
	if grep -q 'netdev: ([^)]*) name="bond%d"' "$dd/k.dump"; then
		t_pass kernel/dwarf-boot-bond
		grep -m3 ' netdev: ' "$dd/k.dump" | sed 's/^ */    /'
	else
		t_fail kernel/dwarf-boot-bond "no name=\"bond%d\" in the trace" "$dd/k.dump"
	fi
	# prog.c: head "boot" (argv[1]) id 41..43, kind 5, level 300, pos.y -3,
	# label "first", next "tail"; then tail itself: id 7, kind 1, level 2
	{ for i in 1 2 3; do
		echo "name=\"boot\" id=$((40 + i)) kind=5 level=300 y=-3 label=\"first\" next=\"tail\" scale=$i tag=\"x\""
	  done
	  echo 'name="tail" id=7 kind=1 level=2 y=2 label="last" next=(fault) scale=1 tag="tail"'
	} > "$dd/want-item"
	sed -n 's/^.* item: ([^)]*) //p' "$dd/k.dump" > "$dd/got-item"
	t_check kernel/dwarf-boot-uprobe-members "$dd/want-item" "$dd/got-item"
	./probecc report "$dd/k.raw" --probes "$dd/k.probes" > "$dd/report.txt" 2>&1 &&
		t_pass kernel/dwarf-report || t_fail kernel/dwarf-report "expectations failed" "$dd/report.txt"
else
	t_fail kernel/dwarf-boot "boot failed" "$dd/mkimage.err" "$dd/k.boot.err"
fi
