# typeloop.awk: damage the DWARF of a GCC "-g -dA" assembly file so that
# a type refers back to itself, as hostile debug info may (the readers
# must stop, not loop).  Run with the file twice:
#   awk -v mode=MODE -f typeloop.awk in.s in.s > out.s
# mode=const  the const_type's DW_AT_type is the const_type itself
# mode=ptr    pointer -> const -> (that) pointer: the const_type's
#             DW_AT_type is the pointer_type that points at it
# mode=array  the array_type's DW_AT_type is the array_type itself
function die_of(line) {
	if (match(line, /\(DIE \(0x[0-9a-f]+\) DW_TAG_[a-z_]+\)/)) {
		split(substr(line, RSTART, RLENGTH), w, /[ ()]+/)
		cur = w[3]
		tag[cur] = w[4]
		return 1
	}
	return 0
}
NR == FNR {
	if (!die_of($0) && /# DW_AT_type$/ && cur != "")
		type[cur] = $2
	next
}
FNR == 1 {
	for (d in tag) {
		if (mode == "const" && tag[d] == "DW_TAG_const_type")
			want[d] = d
		if (mode == "array" && tag[d] == "DW_TAG_array_type")
			want[d] = d
		if (mode == "ptr" && tag[d] == "DW_TAG_const_type")
			for (p in tag)
				if (tag[p] == "DW_TAG_pointer_type" && type[p] == d)
					want[d] = p
	}
	cur = ""
}
{
	die_of($0)
	if (/# DW_AT_type$/ && (cur in want)) {
		print "\t.4byte\t" want[cur] "\t # DW_AT_type (damaged: a loop)"
		done++
		next
	}
	print
}
END {
	if (!done) {
		print "typeloop.awk: nothing to damage for mode=" mode > "/dev/stderr"
		exit 1
	}
}
