#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ntfs3-layers.sh [OBJDIR]: check that the files of ntfs3/ call each other
# in layers (docs/design/ntfs3.md, "Files").  From the symbol tables of the
# objects (nm: what each one defines, what it needs) it builds the graph of
# which file calls which (a use of another file's table, such as ntfs_aops,
# counts as a call), prints it, and checks that
#   - the graph has no cycle, and
#   - every call goes from a file to a file of a lower layer in LAYERS.
#
# OBJDIR holds the objects and the Kbuild that lists them (ntfs3-y).  By
# default ntfs3/ is copied to build/ntfs3-layers and built there against
# build/kernel-debug (else kernel-default).  LAYERS (environment) overrides
# the layers: one line per layer, bottom first, file names without ".o".
#
# Output: the graph ("calls: FILE -> FILES"), then one line per problem,
# "cycle: FILE FILE ..." (the files left on cycles) or "up: FILE -> FILE
# (layer N -> M)" (a call that does not go down), then "ok" or "FAILED".
# Exit status 0 when the layering holds, 1 when not, 2 when the objects
# cannot be built or read.
set -eu

: "${LAYERS:=
error io name runlist lznt1 attrrec idxnode
attrlist record compress
stream data
trans
balloc
extrec
extent
attrib
index mft
writeback
inode
secure
xattr
file reparse objid quota
dir
namei
journal
super
}"

top=$(cd "$(dirname "$0")/../.." && pwd)

build() {
	kdir=""
	for v in debug default; do
		if [ -f "$top/build/kernel-$v/Module.symvers" ]; then
			kdir=$top/build/kernel-$v
			break
		fi
	done
	if [ -z "$kdir" ]; then
		echo "ntfs3-layers: no kernel built (build/kernel-debug or kernel-default)" >&2
		exit 2
	fi
	out=$top/build/ntfs3-layers
	mkdir -p "$out"
	# Objects are kept (P filters) so that make rebuilds only what changed.
	rsync -a --delete --filter 'P *.o' --filter 'P .*.cmd' --filter 'P *.ko' \
		--filter 'P *.mod*' --filter 'P Module.symvers' --filter 'P modules.order' \
		"$top/ntfs3/" "$out/"
	cc=gcc
	! command -v ccache >/dev/null || cc="ccache gcc"
	if ! make -C "$kdir" M="$out" CC="$cc" -j"$(nproc)" modules >"$out/build.log" 2>&1; then
		tail -n 20 "$out/build.log" >&2
		echo "ntfs3-layers: building ntfs3 failed (log: $out/build.log)" >&2
		exit 2
	fi
	objdir=$out
}

if [ $# -gt 0 ]; then
	objdir=$1
else
	build
fi

# The objects of the module, from Kbuild (continuation lines joined).
objs=$(sed -e ':a' -e '/\\$/N' -e 's/\\\n//' -e 'ta' "$objdir/Kbuild" |
	sed -n 's/^ntfs3-y[[:space:]]*:=//p')
if [ -z "$objs" ]; then
	echo "ntfs3-layers: no ntfs3-y objects in $objdir/Kbuild" >&2
	exit 2
fi

# One line per symbol: "D FILE SYMBOL" (FILE defines it, globally) or
# "U FILE SYMBOL" (FILE needs it).
syms=$(for o in $objs; do
	f=${o%.o}
	[ -f "$objdir/$o" ] || { echo "ntfs3-layers: $objdir/$o is missing" >&2; exit 2; }
	nm --defined-only -g "$objdir/$o" | awk -v f="$f" 'NF == 3 { print "D", f, $3 }'
	nm -u "$objdir/$o" | awk -v f="$f" '{ print "U", f, $NF }'
done) || exit 2

printf '%s\n' "$syms" | awk -v layers="$LAYERS" -v objs="$objs" '
BEGIN {
	nl = split(layers, line, "\n")
	n = 0
	for (i = 1; i <= nl; i++) {
		k = split(line[i], w, " ")
		if (!k)
			continue
		for (j = 1; j <= k; j++)
			layer[w[j]] = n
		n++
	}
	nf = split(objs, o, " ")
	for (i = 1; i <= nf; i++) {
		sub(/\.o$/, "", o[i])
		file[i] = o[i]
	}
}
$1 == "D" { def[$3] = $2; next }
$1 == "U" { need[++nu] = $2 " " $3 }
END {
	bad = 0
	for (i = 1; i <= nu; i++) {
		split(need[i], w, " ")
		g = def[w[2]]
		if (g == "" || g == w[1] || ((w[1], g) in edge))
			continue
		edge[w[1], g] = 1
		indeg[g]++
	}
	for (i = 1; i <= nf; i++) {
		f = file[i]
		s = ""
		for (j = 1; j <= nf; j++)
			if ((f, file[j]) in edge)
				s = s " " file[j]
		printf "calls: %s ->%s\n", f, s == "" ? " (nothing)" : s
		if (!(f in layer)) {
			printf "up: %s is in no layer\n", f
			bad = 1
		}
	}
	# Kahn: take away files nothing left calls; what remains is on cycles.
	left = nf
	do {
		took = 0
		for (i = 1; i <= nf; i++) {
			f = file[i]
			if (gone[f] || indeg[f] > 0)
				continue
			gone[f] = 1
			took = 1
			left--
			for (j = 1; j <= nf; j++)
				if ((f, file[j]) in edge)
					indeg[file[j]]--
		}
	} while (took)
	if (left > 0) {
		s = ""
		for (i = 1; i <= nf; i++)
			if (!gone[file[i]])
				s = s " " file[i]
		print "cycle:" s
		bad = 1
	}
	for (i = 1; i <= nf; i++)
		for (j = 1; j <= nf; j++) {
			f = file[i]
			g = file[j]
			if (!((f, g) in edge) || !(f in layer) || !(g in layer))
				continue
			if (layer[g] >= layer[f]) {
				printf "up: %s -> %s (layer %d -> %d)\n", f, g, layer[f], layer[g]
				bad = 1
			}
		}
	print bad ? "FAILED" : "ok"
	exit bad
}'
