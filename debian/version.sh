#!/bin/sh
# version.sh: the Debian version of the tree's version (make -s
# print-version: git describe --always --dirty, VERSION outside git),
# which debian/rules gives dh_gencontrol: the packages carry the version
# of the tree they were built from, as probecc --version says it.
#   v1.2 / 1.2            -> 1.2
#   v1.2-5-gabc1234       -> 1.2+git5.gabc1234
#   abc1234 (no tag yet)  -> 0~gitN.abc1234, N the commit count (ordering)
#   unknown               -> 0~unknown
#   ...-dirty             -> ...+dirty
# usage: debian/version.sh [TREE_VERSION]   (default: make -s print-version)
set -eu
cd "$(dirname "$0")/.."
v=${1:-$(make -s --no-print-directory print-version)}
dirty=
case $v in *-dirty) dirty=+dirty; v=${v%-dirty} ;; esac
# a bare abbreviated hash (no tag yet) may start with a digit too
if printf '%s\n' "$v" | grep -Eqx '[0-9a-f]{7,40}'; then
	n=$(git rev-list --count HEAD 2>/dev/null || echo 0)
	v=git$n.$v
fi
case $v in
git*) deb=0~$v ;;
v[0-9]*|[0-9]*)
	v=${v#v}
	case $v in
	*-*-g*) tag=${v%-*-g*}; rest=${v#"$tag"-}; n=${rest%%-*}; h=${rest#*-}
		deb="$tag+git$n.$h" ;;
	*) deb=$v ;;
	esac ;;
unknown|'') deb=0~unknown ;;
*) deb=0~$v ;;
esac
deb=$deb$dirty
# a Debian version: digits first, then [A-Za-z0-9.+~] (no revision: native)
printf '%s\n' "$deb" | grep -Eqx '[0-9][A-Za-z0-9.+~]*' || {
	echo "version.sh: '$v' gives no Debian version ('$deb')" >&2
	exit 1
}
printf '%s\n' "$deb"
