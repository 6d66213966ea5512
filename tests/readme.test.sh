# The front door, README.md, as a test: its marked command blocks run as
# written, its demo output is what `make demo` prints, its map of the
# docs points at files that exist, and no tracked file cites a tracker
# that is not in the repository.
# Run alone: bash tests/readme.test.sh (through tests/run-tests.sh).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run-tests.sh" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
fi

rm_dir=$T_OUT/readme
rm -rf "$rm_dir" && mkdir -p "$rm_dir"

# rm_block NAME: the fenced block after "<!-- test: NAME -->" in README.md
# (the marking docs/your-board.md's blocks use, tests/yourboot.test.sh)
rm_block() {
	awk -v n="<!-- test: $1 -->" '
		$0 == n { want = 1; next }
		want == 1 && /^```/ { want = 2; next }
		want == 2 && /^```/ { exit }
		want == 2 { print }' README.md
}
# rm_after NAME: the next fenced block after NAME's (what the README says
# the block prints)
rm_after() {
	awk -v n="<!-- test: $1 -->" '
		$0 == n { want = 1; next }
		want && /^```/ { fence++; next }
		want && fence == 3 { print }
		want && fence == 4 { exit }' README.md
}
# rm_norm: runs of digits as one '#', QEMU's run directory as X (what
# differs between two boots of one image)
rm_norm() { sed -E 's/probecc-run\.[A-Za-z0-9]+/probecc-run.X/g; s/[0-9]+/#/g'; }

# --- the shape of the front door ---
n=$(wc -l < README.md)
if [ "$n" -le 250 ]; then
	t_pass readme/short
else
	t_fail readme/short "README.md has $n lines: the front door is about 200; the rest goes to docs/ (docs/developing.md, bench/README.md)"
fi
missing=
for b in setup compile boot report; do
	[ -n "$(rm_block $b)" ] || missing="$missing $b"
done
if [ -z "$missing" ]; then
	t_pass readme/blocks-marked
else
	t_fail readme/blocks-marked "README.md has no block marked <!-- test: NAME --> for:$missing"
fi

# --- the map of the docs: each link is a tracked file; each doc is on the map ---
bad=
for l in $(grep -o '](\([^)#]*\))' README.md | sed 's/^](//; s/)$//'); do
	git ls-files --error-unmatch "$l" > /dev/null 2>&1 || bad="$bad $l"
done
[ -z "$bad" ] && t_pass readme/links || t_fail readme/links "links to no tracked file:$bad"
bad=
for f in docs/*.md docs/man/*; do
	grep -qF "$f" README.md || bad="$bad $f"
done
[ -z "$bad" ] && t_pass readme/map-complete || t_fail readme/map-complete "not on README.md's map:$bad"
# a doc named on the map without a link is one not written yet: once it
# exists, it is linked
bad=
for f in $(grep -o '^| docs/[a-z0-9./-]*\.md |' README.md | sed 's/^| //; s/ |$//'); do
	[ -e "$f" ] && bad="$bad $f"
done
[ -z "$bad" ] && t_pass readme/map-linked || t_fail readme/map-linked "on the map without a link, though it exists:$bad"

# --- every section reference to the old long README went with its text ---
bad=$(git grep -nE '(^|[^/A-Za-z])README(\.md)?[, ]+\(?"(Install|Layout|Usage|Exit status|Boot targets|Fuzzing|Reliability|Baselines|Your own boot|Set-up|Test kernels|A fresh machine|How the boot ended|Time in|The boot trace|Checking against|C names on|Packages|Boot loaders)' \
	-- ':!tests/readme.test.sh' | head -5)
[ -z "$bad" ] && t_pass readme/no-stale-sections || t_fail readme/no-stale-sections "cites a README section that moved: $bad"

# --- no tracker outside the repository is cited (say the fact instead) ---
git grep -nE '(^|[^_A-Za-z])([Ii]ssues?|[Ss]eeds?|[Ss]cenarios?|[Ss]tory) [0-9]|seed story' \
	-- ':!tests/readme.test.sh' > "$rm_dir/tracker" 2>&1
if [ -s "$rm_dir/tracker" ]; then
	t_fail readme/no-tracker "$(wc -l < "$rm_dir/tracker") line(s) cite an issue, seed, scenario or story number" "$rm_dir/tracker"
else
	t_pass readme/no-tracker
fi

# --- long table cells made prose ---
bad=$(awk 'length > 700 { print FILENAME ":" FNR ": " length " characters" }' docs/plan.md qemu-images/README.md | head -3)
[ -z "$bad" ] && t_pass readme/prose || t_fail readme/prose "lines no one reads: $bad"

# --- the blocks, run as written ---
# The tree as a fresh clone has it after `make`: in a git checkout a
# `git clone` of the commit under test (HEAD, with the tracked files'
# uncommitted changes applied, so that what is tested is the working
# tree), then what `make` built (probecc, probecc-bootconfig, the
# agents); no untracked or ignored file of the checkout is there to make
# a block pass.  Outside git (a make dist tarball) there is no telling
# tracked from ignored: the tree's files as they are, tests/out aside.
# The blocks run in it with bash -e, so a command the README shows that
# fails fails the case.
rm_tree=$rm_dir/tree
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	rm_head=$(git rev-parse HEAD)
	if git clone -q --shared --no-checkout "$(git rev-parse --show-toplevel)" "$rm_tree" &&
	   git -C "$rm_tree" checkout -q --detach "$rm_head" &&
	   { git diff --quiet HEAD || git diff --binary HEAD | git -C "$rm_tree" apply --index; }; then
		# what is there beyond the commit: the working tree's changes
		# to tracked files, nothing untracked or ignored
		(cd "$rm_tree" && git status --porcelain --ignored --untracked-files=all) > "$rm_dir/clone.status"
		git status --porcelain --untracked-files=no > "$rm_dir/tree.status"
		# its own repository at the commit (a copy inside tests/out had
		# the checkout's: git there saw the checkout's files)
		if [ "$(git -C "$rm_tree" rev-parse --show-toplevel)" = "$(cd "$rm_tree" && pwd -P)" ] &&
		   [ "$(git -C "$rm_tree" rev-parse HEAD)" = "$rm_head" ] &&
		   ! grep -q '^[?!]' "$rm_dir/clone.status" &&
		   [ "$(cut -c4- "$rm_dir/clone.status" | sort)" = "$(cut -c4- "$rm_dir/tree.status" | sort)" ]; then
			t_pass readme/fresh-clone
		else
			t_fail readme/fresh-clone "the clone of $rm_head is not HEAD plus the tracked files' changes" \
				"$rm_dir/clone.status" "$rm_dir/tree.status"
		fi
	else
		t_fail readme/fresh-clone "git clone of $rm_head into $rm_tree failed"
	fi
else
	mkdir -p "$rm_tree"
	tar -C . --exclude=./tests/out -cf - . | tar -C "$rm_tree" -xf -
	t_skip readme/fresh-clone "not a git checkout (a tarball): the blocks run in a copy of its files"
fi
for f in probecc bootconfig/probecc-bootconfig initramfs/agent-*; do
	[ -e "$f" ] && cp --parents -a "$f" "$rm_tree/"
done
rm_run() {
	(cd "$rm_tree" && bash -e -o pipefail -c "$2") > "$rm_dir/$1.log" 2>&1
}
if rm_run compile "$(rm_block compile)"; then
	# what the README says the first line prints
	if [ "$(head -1 "$rm_dir/compile.log")" = "$(rm_after compile | head -1)" ]; then
		t_pass readme/compile
	else
		t_fail readme/compile "the fragment is not the one README.md shows: $(head -1 "$rm_dir/compile.log")"
	fi
else
	t_fail readme/compile "the compile block failed" "$rm_dir/compile.log"
fi

if [ "$T_HOST" = 1 ]; then
	t_host_skip readme/boot
	t_host_skip readme/demo
elif ! command -v qemu-system-mipsel > /dev/null; then
	t_skip readme/boot "needs qemu-system-mipsel (qemu-images/deps.sh boot)"
	t_skip readme/demo "needs qemu-system-mipsel (qemu-images/deps.sh boot)"
else
	# The boot block, again on the MIPS kprobe single-step crash of
	# Debian's kernel (tests/lib.sh), as every Malta boot of the tests
	for try in $(seq $KPROBE_OOPS_TRIES); do
		rm -rf "$rm_tree/out"
		rm_run boot "$(rm_block boot)" && rc=0 || rc=$?
		[ $rc = 0 ] && break
		kprobe_oops "$rm_tree/out/console.log" "$rm_tree/out/ttyS1.raw" || break
	done
	# exit 0: a clean boot and every expectation of the file held
	if [ $rc = 0 ]; then
		t_pass readme/boot
	else
		t_fail readme/boot "the boot block exited $rc" "$rm_dir/boot.log"
	fi
	# the report block, and every file the README says --report leaves
	if rm_run report "$(rm_block report)"; then
		left=
		for f in report.txt report.json junit.xml stacks.folded timeline.svg console.log again.json again.svg; do
			[ -s "$rm_tree/out/$f" ] || left="$left $f"
		done
		[ -z "$left" ] && t_pass readme/report || t_fail readme/report "not left in out/:$left" "$rm_dir/report.log"
	else
		t_fail readme/report "the report block failed" "$rm_dir/report.log"
	fi
	# The setup block's first command, the main job (the second, make
	# check, is the harness running this).  Each line of the output the
	# README shows is in what it printed, numbers aside.
	demo=$(rm_block setup | grep -m1 '^make demo' | sed 's/ *#.*//')
	for try in $(seq $KPROBE_OOPS_TRIES); do
		$demo > "$rm_dir/demo.log" 2>&1 && break
		grep -q 'Break instruction in kernel code\|kprobe-oops' "$rm_dir/demo.log" || break
	done
	rm_norm < "$rm_dir/demo.log" > "$rm_dir/demo.norm"
	: > "$rm_dir/demo.missing"
	awk '/^## The answer it gives/ { s = 1 } s && /^```/ { f++; next } s && f == 3 { print } f == 4 { exit }' \
		README.md | rm_norm | while IFS= read -r l; do
		grep -qxF -- "$l" "$rm_dir/demo.norm" || printf '%s\n' "$l" >> "$rm_dir/demo.missing"
	done
	if [ "$demo" = "make demo" ] && [ -s "$rm_dir/demo.norm" ] && [ ! -s "$rm_dir/demo.missing" ]; then
		t_pass readme/demo
	else
		t_fail readme/demo "'$demo' did not print what README.md shows (digits aside); missing:" \
			"$rm_dir/demo.missing" "$rm_dir/demo.log"
	fi
fi

# --- every documented make target installs its packages first ---
# (as root; else the one apt-get line and exit 1: qemu-images/deps.sh),
# so a fresh machine stops with what fixes it, not at a missing header.
bad=
for t in $(cat README.md docs/developing.md 2> /dev/null | grep -oE '(^|[^a-z-])make (demo|fuzz|check[a-z0-9.-]*)' | sed 's/^.*make //; s/[.]$//' | sort -u); do
	first=$(make -n "$t" 2> /dev/null | grep -v '^make\[' | head -1)
	case $first in
	"qemu-images/deps.sh"*) ;;
	*) bad="$bad $t ($first)" ;;
	esac
done
[ -z "$bad" ] && t_pass readme/entry-deps || t_fail readme/entry-deps "not deps.sh first:$bad"
