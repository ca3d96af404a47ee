#!/bin/sh
# make-ntfs-special.sh: small NTFS volumes in special states for the feature
# tests tests/ntfs-read/feat-*, in build/ntfs-special/:
#
#   special.img     a GPT disk, one NTFS volume per partition; the GPT
#                   partition name is the volume's name (the guest finds it
#                   as PARTNAME in /sys/class/block/*/uevent):
#     opts      mount options: attributes, Latin-1 and non-Latin-1 names,
#               case twins (TWIN.TXT, Twin.Txt, twin.txt)
#     sys       syscalls: label, fragmented/sparse/compressed files, WOF, EFS,
#               a file whose initialized size is below its size
#     small     512-byte clusters: a fragmented file and the same
#               initialized-size file (pages that span several runs)
#     bootbak   sector 0 zeroed: only the backup boot sector is left
#     noboot    both boot sectors zeroed
#     dirty     $Volume's VOLUME_INFORMATION flags with 0x0001 (dirty)
#     hiber     hiberfil.sys in the root starting with "hibr"
#     logfile   $LogFile restart pages with a client in use, not clean
#     mirr      $MFTMirr's copy of record 0 differs from $MFT's
#     upcase    $UpCase's data zeroed
#     v12       $Volume's version patched to 1.2
#     forms     valid forms ntfs-3g reads but never writes (FORMS below):
#               non-resident streams with no runs (unnamed and named
#               $DATA, one with its old mapping pairs left in place,
#               sparse, compressed, in a file with an attribute list,
#               $EA), directories with an empty $INDEX_ALLOCATION
#   special-4k.img  a volume with 4096-byte sectors, to be attached with
#                   4096-byte logical blocks (DISKS "path:ro:4k", vm.sh)
#   special.meta    what the tests expect, tab-separated (see the end)
#
# Each volume: mkntfs on a file, filled through ntfs-3g (FUSE; never the
# host kernel's ntfs3), read back through a fresh read-only ntfs-3g mount,
# then patched byte-wise (python3; MFT records with their update sequence
# applied and re-applied) into its special state.  Partition 1 (opts) is a
# healthy volume: images.sh walks partition 1 of an unknown disk with both
# drivers.
#
# Idempotent: build/ntfs-special/stamp holds a hash of this script, its
# Python helpers and the ntfs-3g version.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/ntfs-3g.sh"
OUT=$BUILD/ntfs-special
SELF=$TOP/scripts/images/make-ntfs-special.sh

for t in mkntfs ntfs-3g ntfsinfo ntfscat setfattr getfattr python3 fallocate mountpoint; do
	command -v "$t" >/dev/null 2>&1 || die "make-ntfs-special: $t missing (scripts/build/deps.sh)"
done
key=$( (cat "$SELF" "$S/images/ntfs_special.py" "$S/images/ntfs_image.py"; dpkg-query -W -f='${Version}' ntfs-3g 2>/dev/null || true) |
	sha256sum | cut -d' ' -f1)
if [ "$(cat "$OUT/stamp" 2>/dev/null)" = "$key" ] && [ -f "$OUT/special.img" ] &&
	[ -f "$OUT/special-4k.img" ] && [ -f "$OUT/special.meta" ]; then
	say NTFS "special images up to date: ${OUT#"$TOP"/}"
	exit 0
fi
[ "$(id -u)" = 0 ] || die "make-ntfs-special: needs root (FUSE mounts)"
[ -c /dev/fuse ] || die "make-ntfs-special: /dev/fuse missing"

NEW=$OUT.new
LOG=$LOGS/ntfs-special.log
MNT=$NEW/mnt
trap 'fuse_abandon "$NEW"' EXIT
trap 'exit 1' INT TERM HUP
rm -rf "$NEW"
mkdir -p "$NEW/vol" "$MNT"
: >"$LOG"
say NTFS "building special images in ${OUT#"$TOP"/} (log: ${LOG#"$TOP"/})"
start=$(date +%s)

# The helpers (content, fragmenter, patching, GPT): ntfs_special.py, on the
# NTFS format of ntfs_image.py.
H=$S/images/ntfs_special.py
h() {
	python3 "$H" "$@"
}

META=$NEW/special.meta
: >"$META"
meta() {	# VOLUME KEY FIELD...: one tab-separated line
	(IFS="$(printf '\t')"; echo "$*") >>"$META"
}

# volume NAME SIZE LABEL FILLER [MKNTFS-OPTIONS]: mkntfs, fill through
# ntfs-3g, run $POST IMG when set (patches that the files must be read
# back with), then record the geometry and every regular file's size and
# SHA-256 as a fresh read-only ntfs-3g mount reads them (SKIP: paths not
# read back).
SKIP=
POST=
volume() {
	img=$NEW/vol/$1.img
	truncate -s "$2" "$img"
	mkntfs -F -f -q -L "$3" ${5:+"$5"} "$img" >>"$LOG" 2>&1 || die "mkntfs $1 failed; log: $LOG"
	fuse_mount "$img" streams_interface=windows,noatime
	( cd "$MNT" && "$4" ) >>"$LOG" 2>&1 || die "filling $1 failed; log: $LOG"
	fuse_umount
	[ -z "$POST" ] || "$POST" "$img"
	fuse_mount "$img" ro,streams_interface=windows
	(cd "$MNT" && find . -type f | LC_ALL=C sort) | while IFS= read -r p; do
		case " $SKIP " in *" ${p#./} "*) continue ;; esac
		meta "$1" file "${p#./}" "$(stat -c %s "$MNT/$p")" "$(sha256sum <"$MNT/$p" | cut -d' ' -f1)"
	done
	fuse_umount
	ntfsinfo -m "$img" 2>/dev/null | awk -v v="$1" '
		/Cluster Size:/ { cs = $3 }
		/Volume Size in Clusters:/ { tot = $5 }
		/Free Clusters:/ { free = $3 }
		/Volume Flags:/ { flags = $3 }
		END { printf "%s\tgeometry\t%s\t%s\t%s\t%s\n", v, cs, tot, free, flags }' >>"$META"
	meta "$1" label "$3"
	SKIP=
	POST=
}

# runs NAME PATH: the runlist of PATH's unnamed $DATA as ntfsinfo shows it,
# one "run PATH VCN LCN LENGTH" line each (LCN -1: a hole), then "sizes
# PATH DATA-SIZE INITIALIZED-SIZE ATTRIBUTE-FLAGS".
runs() {
	ntfsinfo -v -F "/$2" "$NEW/vol/$1.img" 2>/dev/null | h runs "$1" "$2" >>"$META" ||
		die "no runlist for $2 on $1"
}

# ---- the volumes' contents (run in the mounted volume) ----

fill_opts() {
	printf 'Hello, NTFS!\n' >hello.txt
	mkdir Dir hiddendir names
	printf 'inner\n' >Dir/inner.txt
	printf 'read-only\n' >readonly.txt
	setfattr -n system.ntfs_attrib_be -v 0x00000001 readonly.txt
	printf 'hidden\n' >hidden.txt
	setfattr -n system.ntfs_attrib_be -v 0x00000002 hidden.txt
	printf 'in a hidden dir\n' >hiddendir/f.txt
	setfattr -n system.ntfs_attrib_be -v 0x00000012 hiddendir
	printf 'a system file\n' >system.txt
	setfattr -n system.ntfs_attrib_be -v 0x00000004 system.txt
	for n in café.txt Ünïcödé.txt plain.txt 日本語.txt Ωmega.txt 😀.txt 𝄞clef.txt; do
		printf '%s\n' "$n" >"names/$n"
	done
	mkdir 'names/🎵dir🎶'
	printf 'deep\n' >'names/🎵dir🎶/a😀b.txt'
	# POSIX-namespace names that differ in case only (nocase lookups)
	mkdir twins
	printf 'upper\n' >twins/TWIN.TXT
	printf 'mixed\n' >twins/Twin.Txt
	printf 'lower\n' >twins/twin.txt
}

fill_sys() {
	printf 'Hello from sys\n' >hello.txt
	mkdir -p dir/sub sparse compressed
	printf 'file in dir\n' >dir/file.txt
	printf 'deeper\n' >dir/sub/deep.txt
	h gen big.bin 4194304 rand
	# holes: [0,256K) [264K,1M) [1M+64K,2M)
	truncate -s 2097152 sparse/holes.bin
	h gen sparse/holes.bin 8192 rand 262144 holes-a
	h gen sparse/holes.bin 65536 rand 1048576 holes-b
	# data first, hole to the end
	h gen sparse/lead.bin 65536 rand
	truncate -s 1048576 sparse/lead.bin
	truncate -s 1048576 sparse/all-hole.bin
	setfattr -n system.ntfs_attrib_be -v 0x00000800 compressed
	h gen compressed/text.bin 300000 text
	h gen efs.bin 8192 rand
	h gen valid.bin 12288 rand
	h wof wof.bin 10000 >"$NEW/wof.sha"
	h fragment "$PWD/frag.bin" 40
}

# 512-byte clusters: pages span several runs (the folio-in-pieces path)
fill_small() {
	h gen valid.bin 12288 rand
	h fragment "$PWD/frag.bin" 40
}

fill_base() {
	printf 'Hello, NTFS!\n' >hello.txt
	mkdir Dir
	printf 'inner\n' >Dir/inner.txt
}

fill_hiber() {
	fill_base
	python3 -c 'import sys; sys.stdout.buffer.write(b"hibr" + bytes(8188))' >hiberfil.sys
}

fill_upcase() {
	fill_base
	mkdir names
	# Names whose order depends on case folding ("_" sorts after the
	# upper-case letters and before the lower-case ones), in a directory
	# of several index blocks.
	for i in $(seq 100 299); do
		: >"names/f$i.txt"
		: >"names/_u$i"
		: >"names/MiXeD$i.Txt"
	done
}

fill_4k() {
	printf 'Hello, 4K sectors!\n' >hello.txt
	h gen data.bin 300000 rand
}

# The forms volume: streams in forms ntfs-3g reads but never writes, made
# byte-wise after the fill (FORMS: "WHAT:PATH[:STREAM]", see make_form):
#   empty     the $DATA (unnamed, or the named STREAM) becomes non-resident
#             with no runs: lowest VCN 0, highest VCN -1, sizes 0, mapping
#             pairs = the terminator alone (what a writer leaves of a
#             non-resident stream cut to zero); its clusters are freed;
#             compressed and sparse streams keep their flags
#   stale     the same done in place, as the in-tree ntfs3 does it: highest
#             VCN -1 and sizes 0, but the mapping pairs still describe the
#             (freed) clusters: readers must not decode runs past VCN -1
#   dir       a directory whose entries all fit in $INDEX_ROOT (a small
#             index) gets $INDEX_ALLOCATION:$I30 non-resident with no runs
#             and $BITMAP:$I30 resident with 8 zero bytes
#   ea        $EA_INFORMATION (8 zero bytes: no EA) and an $EA
#             non-resident with no runs
# (empty-res.bin, ntfs-3g's own resident empty $DATA, is the control.)
LINK=links/empty-00-of-a-file-with-many-hard-links-and-a-long-name-to-overflow-its-record
FORMS="empty:empty-nr.bin stale:empty-stale.bin empty:empty-nr-ads.bin empty:empty-both.bin
	empty:empty-both.bin:gone empty:data-ads-empty.bin:gone empty:sparse-empty.bin
	empty:compressed/empty.bin empty:$LINK ea:ea-empty.txt dir:emptydir dir:dir-nr"
STREAMS="empty-nr-ads.bin:info empty-both.bin:gone data-ads-empty.bin:gone"
fill_forms() {
	: >empty-res.bin
	for f in empty-nr.bin empty-stale.bin empty-nr-ads.bin empty-both.bin; do
		yes "the bytes of $f" | head -c 20000 >"$f"
	done
	printf 'a stream on an empty file\n' >empty-nr-ads.bin:info
	yes gone | head -c 9000 >empty-both.bin:gone
	yes 'data with an empty stream' | head -c 9000 >data-ads-empty.bin
	yes gone | head -c 9000 >data-ads-empty.bin:gone
	truncate -s 1048576 sparse-empty.bin
	printf 'in a sparse file\n' | dd of=sparse-empty.bin bs=4096 seek=122 conv=notrunc 2>/dev/null
	mkdir compressed links emptydir dir-nr
	setfattr -n system.ntfs_attrib_be -v 0x00000800 compressed
	yes 'compressible text' | head -c 100000 >compressed/empty.bin
	# 12 long names: $FILE_NAMEs in extension records, an $ATTRIBUTE_LIST
	yes links | head -c 20000 >"$LINK"
	for i in 01 02 03 04 05 06 07 08 09 10 11; do
		ln "$LINK" "$(echo "$LINK" | sed "s/-00-/-$i-/")"
	done
	printf 'a file with an empty EA\n' >ea-empty.txt
	printf 'one\n' >dir-nr/one.txt
	printf 'two\n' >dir-nr/two.txt
}

# post_forms IMG: make the forms; a read-write ntfs-3g mount touches the
# files whose unnamed $DATA changed (their directory entries then carry
# size 0 as a writer's would) and must leave the forms as they are.
post_forms() {
	# shellcheck disable=SC2086
	h forms "$1" make $FORMS >"$NEW/forms.made" || die "making the forms failed"
	fuse_mount "$1" streams_interface=windows
	for f in $FORMS; do
		case $f in
		*:*:*) ;;
		empty:* | stale:*) touch -c "$MNT/${f#*:}" ;;
		esac
	done
	fuse_umount
	# shellcheck disable=SC2086
	h forms "$1" check $FORMS >"$NEW/forms.now" || die "reading the forms back failed"
	cmp -s "$NEW/forms.made" "$NEW/forms.now" ||
		die "ntfs-3g changed the forms: $(diff "$NEW/forms.made" "$NEW/forms.now")"
}

# verify_forms: ntfs-3g must read every form: each file with ntfscat (the
# bytes the read-back recorded, nothing on stderr) and through FUSE, each
# directory listed, each named stream read and listed in ntfs.streams.list;
# the streams and directories go to special.meta.
verify_forms() {
	img=$NEW/vol/forms.img
	awk -F '\t' '$1 == "forms" && $2 == "file" { print $3 "\t" $5 }' "$META" >"$NEW/forms.files"
	while IFS="$(printf '\t')" read -r p sum; do
		got=$(ntfscat "$img" "/$p" 2>"$NEW/err" | sha256sum | cut -d' ' -f1)
		if [ "$got" != "$sum" ] || [ -s "$NEW/err" ]; then
			die "forms: ntfscat /$p: $got, want $sum: $(cat "$NEW/err")"
		fi
	done <"$NEW/forms.files"
	fuse_mount "$img" ro,streams_interface=windows
	while IFS="$(printf '\t')" read -r p sum; do
		if ! ls -l "$MNT/$p" >/dev/null || ! cat "$MNT/$p" >/dev/null; then
			die "forms: ntfs-3g cannot read $p"
		fi
	done <"$NEW/forms.files"
	for d in . emptydir dir-nr links; do
		ls -la "$MNT/$d" >/dev/null || die "forms: ntfs-3g cannot list $d"
		meta forms dir "$d" "$(find "$MNT/$d" -mindepth 1 -maxdepth 1 | wc -l)"
	done
	for s in $STREAMS; do
		p=${s%%:*} name=${s#*:}
		sum=$(sha256sum <"$MNT/$p:$name") || die "forms: ntfs-3g cannot read $s"
		meta forms stream "$p" "$name" "$(stat -c %s "$MNT/$p:$name")" "${sum%% *}"
		getfattr --absolute-names --only-values -n ntfs.streams.list "$MNT/$p" | grep -qx "$name" ||
			die "forms: ntfs.streams.list of $p lacks $name"
	done
	fuse_umount
	while IFS="$(printf '\t')" read -r p form; do
		meta forms form "$p" "$form"
	done <"$NEW/forms.made"
}

LC_ALL=C.UTF-8
export LC_ALL
volume opts 16M HX-OPTS fill_opts
SKIP="efs.bin wof.bin valid.bin"
volume sys 48M "HX-Spécial" fill_sys
meta sys wof wof.bin 10000 "$(cat "$NEW/wof.sha")"
for p in frag.bin big.bin sparse/holes.bin sparse/lead.bin sparse/all-hole.bin compressed/text.bin; do
	runs sys "$p"
done
n=$(grep -c "^sys	run	frag.bin	" "$META")
[ "$n" -ge 20 ] || die "frag.bin has only $n runs"
meta sys efs efs.bin "$(h patch "$NEW/vol/sys.img" efs efs.bin)"
# valid.bin: 12 KiB of data with an initialized (valid) size of 5000
# bytes; its "file" line has the contents a reader must see
# shellcheck disable=SC2046
meta sys file valid.bin $(h patch "$NEW/vol/sys.img" valid valid.bin)
SKIP="valid.bin"
volume small 8M HX-SMALL fill_small -c512
# shellcheck disable=SC2046
meta small file valid.bin $(h patch "$NEW/vol/small.img" valid valid.bin)
volume base 8M HX-BASE fill_base
volume hiber 8M HX-HIBER fill_hiber
volume upcase 8M HX-UPCASE fill_upcase
h patch "$NEW/vol/upcase.img" upcase
volume 4k 16M HX-4K fill_4k -s4096
POST=post_forms
volume forms 8M HX-FORMS fill_forms
verify_forms
parts="opts sys small"
for v in bootbak noboot dirty hiber logfile mirr upcase v12; do
	if [ ! -f "$NEW/vol/$v.img" ]; then
		cp --sparse=always "$NEW/vol/base.img" "$NEW/vol/$v.img"
		h patch "$NEW/vol/$v.img" "$v"
		sed -n "s/^base\t/$v\t/p" "$META" >"$META.tmp"
		cat "$META.tmp" >>"$META"
		rm "$META.tmp"
	fi
	parts="$parts $v"
done
parts="$parts forms"
args=
for v in $parts; do
	args="$args $NEW/vol/$v.img=$v"
done
h gpt "$NEW/special.img" $args
mv "$NEW/vol/4k.img" "$NEW/special-4k.img"
rm -rf "$NEW/vol" "$NEW/mnt" "$NEW/wof.sha" "$NEW"/forms.* "$NEW/err"
fallocate -d "$NEW/special.img"
fallocate -d "$NEW/special-4k.img"

echo "$key" >"$NEW/stamp"
rm -rf "$OUT"
mv "$NEW" "$OUT"
say NTFS "special images done in $(($(date +%s) - start)) s, $(du -sm "$OUT" | cut -f1) MiB on disk"

# special.meta, one line per fact, VOLUME TAB KEY TAB fields:
#   V geometry CLUSTER-SIZE TOTAL-CLUSTERS FREE-CLUSTERS VOLUME-FLAGS  (ntfsinfo -m)
#   V label LABEL                       (mkntfs -L)
#   V file PATH SIZE SHA256             (read back through ntfs-3g)
#   V run PATH VCN LCN LENGTH           (ntfsinfo -v -F; LCN -1: a hole)
#   V sizes PATH SIZE INITIALIZED FLAGS (the same $DATA attribute)
#   sys wof PATH SIZE SHA256            (the WOF file's uncompressed contents)
#   sys efs PATH RECORD                 (the file with the encrypted flag)
#   sys|small file valid.bin SIZE SHA256  (initialized size 5000 < SIZE:
#                                        the contents with zeros from byte 5000)
#   forms form PATH SHAPE               (its attributes as made, for messages)
#   forms stream PATH NAME SIZE SHA256  (a named $DATA, read through ntfs-3g)
#   forms dir PATH ENTRIES              (names ntfs-3g lists, . and .. aside)
# Volume "4k" is special-4k.img; the others are partitions of special.img.
