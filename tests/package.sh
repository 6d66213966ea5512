# make check-package: the Debian packages (debian/), as a distribution
# builds and checks them.  The tree's tracked files (with their working
# changes) are copied into a scratch source tree with a VERSION file (the
# tree's version: a release tarball's form, no .git), then:
#   build      dpkg-buildpackage -us -uc -b there (every arch's agent
#              through the cross compilers of Build-Depends-Indep)
#   version    each .deb's Version is debian/version.sh of the tree's
#              version, and the packaged probecc --version says the tree's
#   lintian    no E: tag; each override has its reason in the file
#   contents   dpkg -c: probecc has the host tools, man pages and QEMU
#              helpers and no agent; probecc-agents (Architecture: all)
#              has /usr/lib/probecc/ARCH/agent for every arch of
#              common/arch.def and nothing else but its docs
#   root       both unpacked into a scratch root: the packaged probecc
#              finds the packaged agents (--agent-path) and compiles an
#              initrd with one
#   autopkgtest  debian/tests with "autopkgtest ... -- null": the testbed
#              is this machine, so the two packages are installed into
#              it by apt and purged after (not run when a probecc package
#              was already installed: that would be replaced)
# Cold: 312-431 s on the shared 2-core host at loads of 6-11 (the build
# 48-191 s, lintian 11-32 s, autopkgtest 81-249 s; bench/README.md, "Cold and warm packaging checks");
# it installs Debian packages into the machine, so it is not part of make
# check (make check-package).
pk=$T_OUT/package
rm -rf "$pk" && mkdir -p "$pk"
tree_version=$(make -s --no-print-directory print-version)
deb_version=$(debian/version.sh "$tree_version")
src=$pk/src/probecc
mkdir -p "$src"
# tracked files, deleted ones left out (the working tree as it is)
git ls-files -z | xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
	cpio -0 -pdm --quiet "$src"
printf '%s\n' "$tree_version" > "$src/VERSION"

start=$(date +%s)
(cd "$src" && nice -n 10 dpkg-buildpackage -us -uc -b) > "$pk/build.log" 2>&1
rc=$?
echo "package: dpkg-buildpackage took $(( $(date +%s) - start )) s" >&2
debs="$pk/src/probecc_${deb_version}_$(dpkg --print-architecture).deb $pk/src/probecc-agents_${deb_version}_all.deb"
if [ $rc = 0 ] && ls $debs > /dev/null 2>&1; then
	t_pass package/build
else
	t_fail package/build "dpkg-buildpackage exit $rc, or not $debs" "$pk/build.log"
fi
grep 'without zlib' "$pk/build.log" | sed 's/^/package: /' >&2

for d in $debs; do
	v=$(dpkg-deb -f "$d" Version 2> /dev/null)
	if [ "$v" = "$deb_version" ]; then
		t_pass "package/version-$(dpkg-deb -f "$d" Package)"
	else
		t_fail "package/version-${d##*/}" "Version '$v', expected '$deb_version' (tree: $tree_version)"
	fi
done

changes=$(ls "$pk"/src/probecc_*.changes 2> /dev/null | head -1)
start=$(date +%s)
# lintian's exit status counts: 0 is no error (its --fail-on default),
# anything else an error found, a crash, or lintian missing (127).  No
# --show-overrides: lintian 2.116 counts the overridden tags it shows
# toward --fail-on and exits 2 for them (lib/Lintian/Pool.pm)
lrc=0
lintian --info "$changes" > "$pk/lintian.log" 2>&1 || lrc=$?
echo "package: lintian took $(( $(date +%s) - start )) s (exit $lrc)" >&2
grep -E '^E: ' "$pk/lintian.log" > "$pk/lintian.errors"
if [ -n "$changes" ] && [ $lrc = 0 ] && [ ! -s "$pk/lintian.errors" ] &&
   ! grep -q 'internal error\|^lintian: ' "$pk/lintian.log"; then
	t_pass package/lintian-no-error
else
	t_fail package/lintian-no-error "lintian exit $lrc (127: not installed, qemu-images/deps.sh package)" \
		"$pk/lintian.errors" "$pk/lintian.log"
fi
# an override without a comment above it (its block of overrides) that says
# why is an error here
for o in debian/*.lintian-overrides; do
	[ -f "$o" ] || continue
	if awk '/^#/ { why = 1; next } /^[a-z]/ { if (!why) { print FILENAME ":" NR ": no reason: " $0; bad = 1 } next } /^$/ { why = 0 } END { exit bad }' "$o" > "$pk/why" 2>&1; then
		t_pass "package/override-reasons-${o##*/}"
	else
		t_fail "package/override-reasons-${o##*/}" "an override without its reason" "$pk/why"
	fi
done
sed -n 's/^W: /&/p' "$pk/lintian.log" | sed 's/^/package: lintian: /' >&2

# contents
main_deb=${debs%% *} agents_deb=${debs##* }
dpkg -c "$main_deb" | awk '{ print $6 }' | sed 's,^\./,/,' > "$pk/main.list" 2> /dev/null
dpkg -c "$agents_deb" | awk '{ print $6 }' | sed 's,^\./,/,' > "$pk/agents.list" 2> /dev/null
missing=
for f in /usr/bin/probecc /usr/bin/probecc-bootconfig /usr/bin/probecc-run-probes \
	 /usr/bin/probecc-capture /usr/bin/probecc-extract-dump \
	 /usr/share/man/man1/probecc.1.gz /usr/share/man/man1/probecc-bootconfig.1.gz \
	 /usr/share/man/man5/probecc.probes.5.gz /usr/lib/probecc/qemu-images/run-probes \
	 /usr/lib/probecc/qemu-images/paths.sh /usr/lib/probecc/common/arch.def \
	 /usr/lib/probecc/initramfs/mkinitramfs /usr/share/doc/probecc/copyright \
	 /usr/share/doc/probecc/examples/bond0.probes; do
	grep -qx -- "$f" "$pk/main.list" || missing="$missing $f"
done
if [ -z "$missing" ] && ! grep -q '/agent$' "$pk/main.list"; then
	t_pass package/contents-probecc
else
	t_fail package/contents-probecc "missing:${missing:- none}, or an agent in probecc" "$pk/main.list"
fi
archs=$(common/arch-rows make | sed -n 's/^ARCH_AGENTS += //p')
missing=
for a in $archs; do
	grep -qx "/usr/lib/probecc/$a/agent" "$pk/agents.list" || missing="$missing $a"
done
extra=$(grep -v -e '/$' -e '^/usr/lib/probecc/[^/]*/agent$' -e '^/usr/share/doc/probecc-agents/' \
	-e '^/usr/share/lintian/overrides/probecc-agents$' "$pk/agents.list")
arch_all=$(dpkg-deb -f "$agents_deb" Architecture 2> /dev/null)
if [ -z "$missing" ] && [ -z "$extra" ] && [ "$arch_all" = all ]; then
	t_pass package/contents-agents
else
	t_fail package/contents-agents "Architecture '$arch_all'; agents missing:${missing:- none}; extra: ${extra:-none}" "$pk/agents.list"
fi

# unpacked into a scratch root
root=$pk/root
mkdir -p "$root"
dpkg-deb -x "$main_deb" "$root" && dpkg-deb -x "$agents_deb" "$root"
got=$("$root/usr/bin/probecc" --version 2>&1)
if [ "$got" = "probecc $tree_version" ]; then
	t_pass package/root-version
else
	t_fail package/root-version "the packaged probecc --version: '$got', expected 'probecc $tree_version'"
fi
ok=1
for a in $archs; do
	want=$(cd "$root/usr/lib/probecc/$a" 2> /dev/null && pwd -P)/agent
	got=$("$root/usr/bin/probecc" --agent-path "$a" 2>&1)
	[ "$got" = "$want" ] || { echo "$a: '$got', expected '$want'" >> "$pk/agent-path"; ok=0; }
done
"$root/usr/bin/probecc" examples/bond0.probes --arch arm64 --initrd "$pk/arm64.img" > "$pk/arm64.out" 2>&1 &&
	mkdir -p "$pk/x" && (cd "$pk/x" && cpio -id --quiet < ../arm64.img) &&
	cmp -s "$pk/x/probecc/init" "$root/usr/lib/probecc/arm64/agent" || ok=0
if [ $ok = 1 ]; then
	t_pass package/root-agents
else
	t_fail package/root-agents "the packaged probecc does not find or use the packaged agents" \
		"$pk/agent-path" "$pk/arm64.out"
fi

# autopkgtest on this machine (null): installs the two packages, purged after
if dpkg-query -W -f='${db:Status-Abbrev}\n' probecc probecc-agents 2> /dev/null | grep -q '^ii'; then
	t_skip package/autopkgtest "a probecc package is installed on this machine; autopkgtest -- null would replace it"
else
	start=$(date +%s)
	autopkgtest --output-dir "$pk/autopkgtest" $debs "$src" -- null > "$pk/autopkgtest.log" 2>&1
	rc=$?
	echo "package: autopkgtest took $(( $(date +%s) - start )) s" >&2
	dpkg --purge probecc probecc-agents > "$pk/purge.log" 2>&1
	if [ $rc = 0 ] && grep -Eq '^compile-examples +PASS' "$pk/autopkgtest.log" &&
	   grep -Eq '^report-dump +PASS' "$pk/autopkgtest.log"; then
		t_pass package/autopkgtest
	else
		t_fail package/autopkgtest "autopkgtest exit $rc" "$pk/autopkgtest.log"
	fi
	if dpkg-query -W -f='${db:Status-Abbrev}\n' probecc probecc-agents 2> /dev/null | grep -q '^ii'; then
		t_fail package/autopkgtest-purged "probecc is still installed after the test" "$pk/purge.log"
	fi
fi
