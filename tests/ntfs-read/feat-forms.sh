#!/bin/sh
# feat-forms: the "forms" volume of scripts/images/make-ntfs-special.sh: valid
# attribute forms that ntfs-3g reads (checked when the volume is built) but
# never writes itself; its FORMS list says how each was made:
#
#   empty-nr.bin, empty-nr-ads.bin, empty-both.bin, sparse-empty.bin,
#   compressed/empty.bin, links/empty-NN-...   unnamed $DATA non-resident
#             with no runs (lowest VCN 0, highest VCN -1, allocated, data
#             and initialized sizes 0, mapping pairs = the terminator):
#             a stream cut to zero, its mapping pairs rewritten; sparse
#             and compressed flags kept; links/: in a file with an
#             $ATTRIBUTE_LIST (12 names)
#   empty-stale.bin   what the in-tree ntfs3 (6.12) leaves of a file cut
#             to zero: highest VCN -1, sizes 0, but the old mapping pairs
#             left in place (their clusters freed)
#   empty-nr-ads.bin:info (26 bytes), empty-both.bin:gone,
#   data-ads-empty.bin:gone   named $DATA, resident / non-resident with no
#             runs; data-ads-empty.bin's unnamed $DATA holds 9000 bytes
#   ea-empty.txt   an $EA non-resident with no runs ($EA_INFORMATION zero)
#   emptydir/, dir-nr/   a small index ($INDEX_ROOT only) with an
#             $INDEX_ALLOCATION:$I30 non-resident with no runs
#   empty-res.bin   ntfs-3g's resident empty $DATA: the control
#
# With our ntfs3, then with the in-tree one (both judged), mounted
# read-only: every file as special.meta says (ls -l succeeds, stat size,
# 0 blocks when empty, SHA-256 of the contents), every directory lists
# its entries (ls -la succeeds) and an absent name in it is ENOENT, named
# streams are not exposed (FILE:STREAM is ENOENT, no xattr names them),
# listxattr of every object succeeds and gives no name, the walk
# of the volume has no error, and no kernel message reports damage.  Last,
# the two drivers' walks (names, types, sizes, hashes, links) are equal.
# Except: the in-tree ntfs3's listxattr of ea-empty.txt (NOT_JUDGED).
. /tests/include/tap.sh
. /tests/include/ntfs-special.sh
MNT=/mnt/feat-forms
WALK=/tests/tools/walk
XN=/tests/tools/xattr-names
TAB=$(printf '\t')
mkdir -p "$MNT"

# form PATH: how PATH was made (special.meta), for messages.
form() {
	awk -F '\t' -v p="$1" '$1 == "forms" && $2 == "form" && $3 == p { print $4 }' "$SPECIAL_META"
}

# The in-tree ntfs3 (6.12) fails listxattr with EINVAL on a file whose $EA
# is non-resident with no data, where ntfs-3g and ours see no EA: its
# answer there is shown, not judged ("DRIVER:PATH").
NOT_JUDGED="intree:ea-empty.txt"
judged() {
	case " $NOT_JUDGED " in *" $d:$1 "*) return 1 ;; esac
}

# xattrs_ok PATH: listxattr succeeds and gives no name (nothing on the
# volume has one; named streams are not exposed as xattrs).
xattrs_ok() {
	_x=$("$XN" "$MNT/$1")
	same "listxattr" "${_x#*"$TAB"}" "-"
}

# file_ok PATH SIZE SHA256
file_ok() {
	_f=$MNT/$1
	_r=0
	_out=$(ls -l "$_f" 2>&1) || { echo "#   ls -l: $_out"; _r=1; }
	if _st=$(stat -c '%s %b' "$_f" 2>&1); then
		same "size" "${_st%% *}" "$2" || _r=1
		[ "$2" != 0 ] || same "512-byte blocks" "${_st#* }" 0 || _r=1
	else
		echo "#   stat: $_st"
		_r=1
	fi
	same "sha256" "$(sha256sum <"$_f" 2>&1 | cut -d' ' -f1)" "$3" || _r=1
	if judged "$1"; then
		xattrs_ok "$1" || _r=1
	elif ! xattrs_ok "$1" >/dev/null; then
		echo "# $d: $1: listxattr gives ${_x#*"$TAB"} (not judged)"
	fi
	[ $_r = 0 ] || echo "#   form: $(form "$1")"
	return $_r
}

# dir_ok PATH ENTRIES: lists ENTRIES names, every one stats; an absent
# name is ENOENT.
dir_ok() {
	_r=0
	_out=$(ls -la "$MNT/$1" 2>&1) || { echo "#   ls -la: $(echo "$_out" | head -n 3)"; _r=1; }
	same "entries" "$(find "$MNT/$1" -mindepth 1 -maxdepth 1 2>&1 | wc -l)" "$2" || _r=1
	_out=$(stat "$MNT/$1/absent-name" 2>&1)
	case $_out in
	*"No such file"*) ;;
	*) echo "#   stat of an absent name: $_out"; _r=1 ;;
	esac
	xattrs_ok "$1" || _r=1
	[ $_r = 0 ] || echo "#   form: $(form "$1")"
	return $_r
}

# stream_hidden PATH NAME: not a name in the directory (the xattrs are
# checked with the file).
stream_hidden() {
	_out=$(stat "$MNT/$1:$2" 2>&1)
	case $_out in
	*"No such file"*) ;;
	*) echo "#   stat $1:$2: $_out"; return 1 ;;
	esac
}

# walk_ok DRIVER: the whole volume walked (readdir, stat, reads) with no
# error; the manifest kept for the comparison.
walk_ok() {
	"$WALK" manifest "$MNT" >"/tmp/forms.$1.raw"
	_rc=$?
	sort "/tmp/forms.$1.raw" >"/tmp/forms.$1.manifest"
	grep ERROR "/tmp/forms.$1.manifest" | head -n 5 | sed 's/^/#   /'
	[ $_rc = 0 ] && ! grep -q ERROR "/tmp/forms.$1.manifest"
}

no_damage() {
	_n=$(kmsg_since | grep -ciE 'damaged|corrupt|error|dirty|bad |invalid')
	[ "$_n" = 0 ] && return 0
	kmsg_since | grep -iE 'damaged|corrupt|error|dirty|bad |invalid' | head -n 5 |
		sed 's/^/#   kmsg: /'
	return 1
}

run() {	# DRIVER: ours | intree
	d=$1
	use_driver "$d"
	kmsg_mark
	if ! mount -t ntfs3 -o ro "$DEV" "$MNT" 2>/tmp/feat-forms.err; then
		check "$d: mounts the forms volume read-only ($(cat /tmp/feat-forms.err))" false
		return
	fi
	meta forms file >/tmp/forms.files
	while IFS="$(printf '\t')" read -r p size sum; do
		check "$d: $p: ls -l, stat (size $size), contents, listxattr" \
			file_ok "$p" "$size" "$sum"
	done </tmp/forms.files
	meta forms dir >/tmp/forms.dirs
	while IFS="$(printf '\t')" read -r p n; do
		check "$d: $p/: lists $n entries, absent name ENOENT, listxattr" dir_ok "$p" "$n"
	done </tmp/forms.dirs
	meta forms stream >/tmp/forms.streams
	while IFS="$(printf '\t')" read -r p name size sum; do
		check "$d: $p:$name ($size bytes) is not exposed" stream_hidden "$p" "$name"
	done </tmp/forms.streams
	check "$d: the walk of the volume has no error" walk_ok "$d"
	check "$d: no kernel message about damage" no_damage
	umount "$MNT"
}

if ! DEV=$(vol_dev forms); then
	check "the forms volume is attached (check.sh ntfs_disks)" false
	tap_done
	exit
fi
n=$(meta forms form | wc -l)
f=$(meta forms file | wc -l)
check "special.meta describes the forms ($n, want 11 or more) and files ($f, want 23 or more)" \
	test "$n" -ge 11 -a "$f" -ge 23
run ours
run intree
use_driver ours
check "ours and the in-tree ntfs3 walk the volume alike ($(wc -l </tmp/forms.intree.manifest) objects)" \
	cmp -s /tmp/forms.intree.manifest /tmp/forms.ours.manifest
diff /tmp/forms.intree.manifest /tmp/forms.ours.manifest | grep '^[-+][^-+]' | head | sed 's/^/#   /'
rm -f /tmp/forms.*
tap_done
