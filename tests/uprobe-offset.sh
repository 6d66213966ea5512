#!/bin/bash
# uprobe-offset ELF: the file offset of ELF's entry point (the uprobe
# address: uprobetracer.rst wants a file offset, not the address nm or
# readelf print), from the PT_LOAD segment that holds it.
set -eu
# Every failure says where: a command that stops the script under set -e
# prints its line, status and text (never a silent non-zero exit).
trap 'echo "${0##*/}: line $LINENO: exit $?: $BASH_COMMAND" >&2' ERR
entry=$(readelf -hW "$1" | awk '/Entry point address/ { print $4 }')
readelf -lW "$1" | awk '$1 == "LOAD" { print $2, $3, $6 }' |
while read -r off va sz; do
	if (( entry >= va && entry < va + sz )); then
		printf '0x%x\n' $(( entry - va + off ))
		exit 0
	fi
done
