#!/bin/sh
# feat-options: mount options of our ntfs3 on the "opts" volume of
# scripts/images/make-ntfs-special.sh (hello.txt, Dir/inner.txt, readonly.txt with
# FILE_ATTRIBUTE_READONLY, hidden.txt and hiddendir with HIDDEN, system.txt
# with SYSTEM, names/ with Latin-1 and non-Latin-1 names, twins/ with
# TWIN.TXT, Twin.Txt and twin.txt):
#
#   uid= gid= umask= fmask= dmask=   exact owner, group and mode bits of a
#                                    file, a directory and the root; a
#                                    READONLY file without write bits
#   iocharset                        utf8 by default; iso8859-1 lists the
#                                    names it can convert, converted, skips
#                                    the others, and looks names up in it;
#                                    an unknown charset is refused
#   showmeta                         $MFT etc. listed in the root (and found
#                                    by lookup); not by default
#   hidden / nohidden                HIDDEN files listed or not
#   nocase                           HELLO.TXT finds hello.txt; ENOENT without;
#                                    each case twin found by its exact name,
#                                    another spelling always finds the same
#                                    twin (lookup hint or not)
#   sys_immutable                    SYSTEM files immutable (statx)
#   no forms                         noshowmeta, nosys_immutable, nonocase,
#                                    nohide_dot_files, noforce accepted and
#                                    undo the positive form
#   unknown option                   EINVAL, the option named in dmesg
#   /proc/mounts                     shows the options; they mount again
#
# The in-tree ntfs3 runs the same checks afterwards as a reference: its
# results are "# in-tree:" diagnostics, not judged.
. /tests/include/tap.sh
. /tests/include/ntfs-special.sh
MNT=/mnt/feat-opts
STATX=/tests/tools/statx-attr
DRIVER=ours
mkdir -p "$MNT"

# t DESC COMMAND...: TAP for our driver, a diagnostic for the in-tree one;
# returns whether the check passed.
t() {
	if [ "$DRIVER" = ours ]; then
		_fb=$tap_failed
		check "$@"
		[ "$tap_failed" = "$_fb" ]
		return
	fi
	_d=$1
	shift
	if "$@"; then
		echo "# in-tree: ok - $_d"
	else
		echo "# in-tree: differs - $_d"
		return 1
	fi
}

mnt() {	# mnt OPTIONS: a fresh read-only mount of the opts volume
	umount "$MNT" 2>/dev/null
	mount -t ntfs3 -o "ro${1:+,$1}" "$DEV" "$MNT" 2>/tmp/feat-mount.err && return 0
	echo "#   mount -o ro${1:+,$1}: $(cat /tmp/feat-mount.err)"
	return 1
}

attrs_are() {	# attrs_are PATH "UID GID MODE" f|d
	same "$1: owner group mode" "$(stat -c '%u %g %a' "$MNT/$1" 2>&1)" "$2" &&
		test -"$3" "$MNT/$1"
}

# listing DIR: the names readdir gives (a glob: no lookup, so a name that
# does not stat is still seen), raw bytes, sorted; without . and ..
listing() {
	for _f in "$MNT/$1"/* "$MNT/$1"/.*; do
		_b=${_f##*/}
		case "$_b" in
		. | ..) continue ;;
		'*' | '.*') [ -e "$_f" ] || continue ;;
		esac
		printf '%s\n' "$_b"
	done | LC_ALL=C sort
}

dots() {	# how many times readdir gives "." in the root
	_n=0
	for _f in "$MNT"/.*; do
		[ "${_f##*/}" != . ] || _n=$((_n + 1))
	done
	echo $_n
}

same_list() {	# same_list DIR EXPECTED-FILE
	listing "$1" >/tmp/feat.got
	cmp -s "$2" /tmp/feat.got && return 0
	diff "$2" /tmp/feat.got | grep '^[-+][^-+]' | head -n 10 | sed 's/^/#   /'
	return 1
}

listed() {	# listed DIR NAME
	listing "$1" | grep -qxF "$2"
}

not_listed() {
	! listed "$@" || { echo "#   $2 is listed in /$1"; return 1; }
}

content_is() {	# content_is PATH SHA256
	same "sha256 of $1" "$(sha256sum <"$MNT/$1" 2>/dev/null | cut -d' ' -f1)" "$2"
}

enoent() {	# enoent PATH: lookup fails with ENOENT
	_e=$(stat "$MNT/$1" 2>&1 >/dev/null) && { echo "#   $1 exists"; return 1; }
	case "$_e" in *"No such file"*) return 0 ;; esac
	echo "#   $1: $_e"
	return 1
}

same_inode() {	# same_inode A B
	same "inode of $1" "$(stat -c %i "$MNT/$1" 2>&1)" "$(stat -c %i "$MNT/$2" 2>&1)"
}

# twin_of NAME: twins/NAME (no exact entry) reads as one of the case twins
twin_of() {
	_c=$(cat "$MNT/twins/$1" 2>&1)
	case "$_c" in upper | mixed | lower) return 0 ;; esac
	echo "#   twins/$1: $_c"
	return 1
}

# twin_stable NAME: twins/NAME finds the twin it finds on a fresh mount
# also after a lookup of an exact twin (which leaves the directory's lookup
# hint on the next twin) once the dentries are dropped; the open directory
# keeps its inode, and so the hint, across the drop.
twin_stable() {
	mnt nocase || return 1
	_fresh=$(cat "$MNT/twins/$1" 2>&1)
	for _x in TWIN.TXT Twin.Txt twin.txt; do
		mnt nocase || return 1
		exec 3<"$MNT/twins"
		stat "$MNT/twins/$_x" >/dev/null
		echo 2 >/proc/sys/vm/drop_caches
		_got=$(cat "$MNT/twins/$1" 2>&1)
		exec 3<&-
		same "twins/$1 after a lookup of $_x" "$_got" "$_fresh" || return 1
	done
}

statx_is() {	# statx_is PATH WORDS
	same "statx attributes of $1" "$("$STATX" "$MNT/$1" 2>&1)" "$2"
}

META_NAMES='$MFT $MFTMirr $LogFile $Volume $AttrDef $Bitmap $Boot $BadClus $Secure $UpCase $Extend'
# $MFT is record 0, and inode number 0 cannot be a directory entry (libc's
# readdir skips such entries): it is found by lookup, never listed.
metafiles_listed() {
	_l=$(listing .)
	_bad=0
	for _n in $META_NAMES; do
		if [ "$_n" = '$MFT' ]; then
			echo "$_l" | grep -qxF "$_n" && { echo "#   \$MFT is listed"; _bad=1; }
		else
			echo "$_l" | grep -qxF "$_n" || { echo "#   $_n is not listed"; _bad=1; }
		fi
		_e=$(stat "$MNT/$_n" 2>&1 >/dev/null) || { echo "#   $_e"; _bad=1; }
	done
	same "times '.' is listed" "$(dots)" 1 && [ $_bad = 0 ]
}

no_metafiles_listed() {
	_l=$(listing . | grep '^\$' | tr '\n' ' ')
	[ -z "$_l" ] || { echo "#   listed: $_l"; return 1; }
}

mount_fails() {	# mount_fails OPTIONS ERROR-TEXT [WORD-IN-DMESG]
	umount "$MNT" 2>/dev/null
	kmsg_mark
	if mount -t ntfs3 -o "ro,$1" "$DEV" "$MNT" 2>/tmp/feat-mount.err; then
		echo "#   mount -o ro,$1 succeeded"
		umount "$MNT"
		return 1
	fi
	_k=$(kmsg_since)
	grep -q "$2" /tmp/feat-mount.err || { echo "#   mount said: $(cat /tmp/feat-mount.err)"; return 1; }
	[ -z "${3:-}" ] && return 0
	echo "$_k" | grep -q -- "$3" && return 0
	echo "#   no kernel message names $3; got:"
	echo "$_k" | head -n 5 | sed 's/^/#     /'
	return 1
}

mount_opts() {	# the options /proc/mounts shows for $MNT
	awk -v m="$MNT" '$2 == m { print $4 }' /proc/mounts
}

shows() {	# shows REGEX: /proc/mounts' options for $MNT contain it
	mount_opts | tr ',' '\n' | grep -qx -- "$1" && return 0
	[ -n "${quiet:-}" ] || echo "#   /proc/mounts: $(mount_opts)"
	return 1
}

# Expected names/ listings: UTF-8 (all), ISO 8859-1 (the convertible ones).
printf '%s\n' café.txt plain.txt Ωmega.txt Ünïcödé.txt 日本語.txt 𝄞clef.txt 😀.txt 🎵dir🎶 |
	LC_ALL=C sort >/tmp/feat.utf8
printf 'caf\351.txt\nplain.txt\n\334n\357c\366d\351.txt\n' | LC_ALL=C sort >/tmp/feat.latin1

run_all() {
	o="uid=1234,gid=5678,fmask=0133,dmask=0022"
	if t "mount -o $o" mnt "$o"; then
		t "$o: hello.txt is 1234:5678 0644" attrs_are hello.txt "1234 5678 644" f
		t "$o: Dir is 1234:5678 0755" attrs_are Dir "1234 5678 755" d
		t "$o: the root is 1234:5678 0755" attrs_are . "1234 5678 755" d
		t "$o: readonly.txt (READONLY) is 0444" attrs_are readonly.txt "1234 5678 444" f
	fi
	o="umask=0027"
	if t "mount -o $o" mnt "$o"; then
		t "$o: hello.txt is 0:0 0750" attrs_are hello.txt "0 0 750" f
		t "$o: Dir is 0:0 0750" attrs_are Dir "0 0 750" d
		t "$o: readonly.txt is 0550" attrs_are readonly.txt "0 0 550" f
	fi
	o="umask=0"
	if t "mount -o $o" mnt "$o"; then
		t "$o: hello.txt is 0777" attrs_are hello.txt "0 0 777" f
		t "$o: Dir is 0777" attrs_are Dir "0 0 777" d
		t "$o: readonly.txt is 0555" attrs_are readonly.txt "0 0 555" f
	fi
	o="fmask=0177,dmask=0077"
	if t "mount -o $o" mnt "$o"; then
		t "$o: hello.txt is 0600" attrs_are hello.txt "0 0 600" f
		t "$o: Dir is 0700" attrs_are Dir "0 0 700" d
		t "$o: readonly.txt is 0400" attrs_are readonly.txt "0 0 400" f
	fi

	# iocharset
	if t "mount without options" mnt ""; then
		t "defaults: owner and group are the mounter's (0:0)" \
			same "owner" "$(stat -c '%u %g' "$MNT/hello.txt")" "0 0"
		t "defaults: names/ lists every name in UTF-8" same_list names /tmp/feat.utf8
		t "defaults: /proc/mounts says iocharset=utf8" shows "iocharset=utf8"
	fi
	if t "mount -o iocharset=utf8" mnt iocharset=utf8; then
		t "iocharset=utf8: names/ lists every name in UTF-8" same_list names /tmp/feat.utf8
		t "iocharset=utf8: names/café.txt reads" content_is names/café.txt "$(meta_sha opts names/café.txt)"
	fi
	if t "mount -o iocharset=iso8859-1" mnt iocharset=iso8859-1; then
		t "iso8859-1: names/ lists café.txt, plain.txt, Ünïcödé.txt in Latin-1, skips the 5 others" \
			same_list names /tmp/feat.latin1
		t "iso8859-1: a Latin-1 name looks up and reads" \
			content_is "names/$(printf 'caf\351.txt')" "$(meta_sha opts names/café.txt)"
		t "iso8859-1: the volume still works after the skipped names" \
			content_is hello.txt "$(meta_sha opts hello.txt)"
		t "iso8859-1: /proc/mounts says iocharset=iso8859-1" shows "iocharset=iso8859-1"
	fi
	t "iocharset=hx-no-such-charset is refused" mount_fails iocharset=hx-no-such-charset "Invalid argument"

	# showmeta
	if t "mount -o showmeta" mnt showmeta; then
		t "showmeta: \$MFTMirr \$LogFile \$Volume ... \$Extend listed in the root, \$MFT found, '.' once" \
			metafiles_listed
	fi
	mnt "" && t "defaults: no metafile listed" no_metafiles_listed
	t "mount -o noshowmeta" mnt noshowmeta && t "noshowmeta: no metafile listed" no_metafiles_listed
	t "mount -o showmeta,noshowmeta" mnt showmeta,noshowmeta &&
		t "showmeta,noshowmeta: no metafile listed" no_metafiles_listed

	# hidden / nohidden
	if mnt ""; then
		t "defaults: hidden.txt listed" listed . hidden.txt
		t "defaults: hiddendir listed" listed . hiddendir
	fi
	if t "mount -o nohidden" mnt nohidden; then
		t "nohidden: hidden.txt not listed" not_listed . hidden.txt
		t "nohidden: hiddendir not listed" not_listed . hiddendir
		t "nohidden: hello.txt still listed" listed . hello.txt
	fi
	if t "mount -o hidden" mnt hidden; then
		t "hidden: hidden.txt listed" listed . hidden.txt
		t "hidden: hiddendir listed" listed . hiddendir
	fi
	t "mount -o nohidden,hidden" mnt nohidden,hidden &&
		t "nohidden,hidden: hidden.txt listed" listed . hidden.txt

	# nocase
	if t "mount -o nocase" mnt nocase; then
		t "nocase: HELLO.TXT is hello.txt" same_inode HELLO.TXT hello.txt
		t "nocase: DIR/INNER.TXT reads Dir/inner.txt" content_is DIR/INNER.TXT "$(meta_sha opts Dir/inner.txt)"
		t "nocase: hello.txt still found" content_is hello.txt "$(meta_sha opts hello.txt)"
	fi
	for _n in TWIN.TXT Twin.Txt twin.txt; do
		mnt nocase && t "nocase: case twin $_n read by its exact name" \
			content_is "twins/$_n" "$(meta_sha opts "twins/$_n")"
	done
	mnt nocase && t "nocase: tWIN.txt is one of the case twins" twin_of tWIN.txt &&
		t "nocase: tWIN.txt is the same twin after a lookup of another" twin_stable tWIN.txt
	mnt "" && t "defaults: HELLO.TXT is ENOENT" enoent HELLO.TXT
	t "mount -o nocase,nonocase" mnt nocase,nonocase && t "nocase,nonocase: HELLO.TXT is ENOENT" enoent HELLO.TXT

	# sys_immutable
	if t "mount -o sys_immutable" mnt sys_immutable; then
		t "sys_immutable: system.txt (SYSTEM) is immutable" statx_is system.txt immutable
		t "sys_immutable: hello.txt is not" statx_is hello.txt none
	fi
	mnt "" && t "defaults: system.txt is not immutable" statx_is system.txt none
	t "mount -o sys_immutable,nosys_immutable" mnt sys_immutable,nosys_immutable &&
		t "sys_immutable,nosys_immutable: system.txt is not immutable" statx_is system.txt none

	# the other no forms are accepted
	for o in nohide_dot_files noforce; do
		t "mount -o $o is accepted" mnt "$o"
	done

	# unknown options and bad values
	t "an unknown option is refused with EINVAL and named in dmesg" \
		mount_fails hx_bogus_option "Invalid argument" hx_bogus_option
	t "uid=notanumber is refused with EINVAL" mount_fails uid=notanumber "Invalid argument"

	# /proc/mounts
	o="uid=1234,gid=5678,fmask=0133,dmask=0022,iocharset=iso8859-1,showmeta,nohidden,sys_immutable,nocase"
	if t "mount -o $o" mnt "$o"; then
		for re in ro uid=1234 gid=5678 "fmask=0*133" "dmask=0*22" iocharset=iso8859-1 showmeta \
			nohidden sys_immutable nocase; do
			t "/proc/mounts shows $re" shows "$re"
		done
		shown=$(mount_opts)
		t "the options /proc/mounts shows mount again, with the same result" \
			eval 'mnt "$shown" && same "options" "$(mount_opts)" "$shown"'
	fi
	if t "mount -o umask=0027" mnt umask=0027; then
		t "/proc/mounts shows umask=0027 (as umask, or fmask and dmask)" \
			eval 'quiet=1 shows "umask=0*27" || { shows "fmask=0*27" && shows "dmask=0*27"; }'
	fi
	umount "$MNT" 2>/dev/null
}

if ! DEV=$(vol_dev opts); then
	check "the special disk's opts volume is attached (check.sh ntfs_disks)" false
	tap_done
	exit
fi
use_driver ours
run_all
echo "# the in-tree ntfs3 on the same checks (reference, not judged):"
DRIVER=intree
use_driver intree
run_all
use_driver ours
tap_done
