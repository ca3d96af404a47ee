#!/bin/sh
# feat-wsl: WSL's POSIX metadata EAs ($LXUID, $LXGID, $LXMOD, $LXDEV) read
# by our ntfs3, on a copy of the blank volume (disk "blank") into which the
# in-tree ntfs3 writes them: it stores $LXUID/$LXGID/$LXMOD on every create,
# chown and chmod.  Its $LXDEV is its kernel dev_t in 4 bytes; WSL's is
# major then minor, 4 bytes each, little endian: the device nodes get that
# written raw through the in-tree driver's unprefixed xattr names.
#
#   default mount        owner, group, mode (type and set-id bits), rdev
#                        from the EAs; the root (no EAs) has the mount's
#   uid= / gid=          win over $LXUID / $LXGID, each on its own
#   umask= fmask= dmask= win over $LXMOD's permission bits of files
#                        (umask, fmask) and directories (umask, dmask); the
#                        type from $LXMOD stays (a char device stays one)
#   nodev                opening a device node fails with EACCES; without,
#                        1,3 reads 0 bytes and 1,5 reads zeros
#   nosuid               statvfs shows ST_NOSUID, the mode still shows
#                        6755, and a setuid-root copy of wsl-probe run by
#                        uid 1000 keeps euid 1000 (0 without nosuid)
#   not WSL's            a device node whose $LXDEV is the in-tree driver's
#                        4-byte dev_t, or a major no dev_t holds, stays a
#                        regular file; $LXUID/$LXGID of -1 are ignored
#
# The in-tree driver then reads the same volume: where it takes the WSL EAs
# (all of $LXUID, $LXGID, $LXMOD present) its owner, group and mode must be
# ours of the default mount.
. /tests/include/tap.sh
. /tests/include/ntfs-special.sh
P=/tests/tools/wsl-probe
MNT=/mnt/feat-wsl
IMG=/tmp/feat-wsl.img

# Objects the in-tree driver makes, and the metadata they get:
#   PATH        UID  GID  MODE     RDEV
OBJECTS='
wdir        1234 5678 40750  0:0
wdir/file   1001 1002 100640 0:0
suid        0    0    106755 0:0
null        42   43   20666  1:3
zero        44   45   20604  1:5
blk         7    6    60604  259:7
fifo        0    0    10620  0:0
'

populate() {	# DIR, mounted rw by the in-tree driver
	mkdir "$1/wdir" &&
		echo hello >"$1/wdir/file" &&
		cp "$P" "$1/suid" &&
		mknod "$1/null" c 1 3 &&
		mknod "$1/zero" c 1 5 &&
		mknod "$1/blk" b 259 7 &&
		mkfifo "$1/fifo" || return 1
	echo "$OBJECTS" >/tmp/feat-wsl.objects
	while read -r _p _u _g _m _d; do
		[ -n "$_p" ] || continue
		# chown first: it clears set-id bits
		chown "$_u:$_g" "$1/$_p" && chmod "$(printf %o $((0$_m & 07777)))" "$1/$_p" ||
			return 1
	done </tmp/feat-wsl.objects
	# Not WSL's: a char device 1,5 with the in-tree driver's own 4-byte
	# $LXDEV; one whose $LXDEV major (4096) no dev_t holds; a file whose
	# $LXUID and $LXGID are -1.
	mknod "$1/itdev" c 1 5 && chown 51:52 "$1/itdev" && chmod 0640 "$1/itdev" &&
		mknod "$1/bigdev" c 1 3 && chmod 0640 "$1/bigdev" &&
		echo x >"$1/badid" && chmod 0604 "$1/badid" || return 1
	# WSL's $LXDEV: major, minor (the in-tree driver wrote its dev_t)
	"$P" setx "$1/null" '$LXDEV' 0100000003000000 >&2 &&
		"$P" setx "$1/zero" '$LXDEV' 0100000005000000 >&2 &&
		"$P" setx "$1/blk" '$LXDEV' 0301000007000000 >&2 &&
		"$P" setx "$1/bigdev" '$LXDEV' 0010000001000000 >&2 &&
		"$P" setx "$1/badid" '$LXUID' ffffffff >&2 &&
		"$P" setx "$1/badid" '$LXGID' ffffffff >&2
}

mnt() {	# mnt OPTIONS: a fresh read-only mount of the image
	umount "$MNT" 2>/dev/null
	mount -t ntfs3 -o "ro${1:+,$1}" "$loop" "$MNT" 2>/tmp/feat-wsl.err && return 0
	echo "#   mount -o ro${1:+,$1}: $(cat /tmp/feat-wsl.err)"
	return 1
}

is() {	# is PATH "UID GID MODE RDEV"
	same "$1: uid gid mode rdev" "$("$P" stat "$MNT/$1")" "$2"
}

kind_is() {	# kind_is PATH "UID GID TYPE RDEV": TYPE the mode's octal digits above 07777
	_s=$("$P" stat "$MNT/$1")
	# shellcheck disable=SC2086
	set -- "$1" "$2" $_s
	same "$1: uid gid type rdev" "$3 $4 ${5%????} $6" "$2"
}

# all_are AWK-PROGRAM: every object as the program turns its OBJECTS line
# ($1 path ... $5 rdev) into "PATH UID GID MODE RDEV", and the root as $ROOT
all_are() {
	_ok=0
	echo "$OBJECTS" | awk -v root="$ROOT" "NF == 5 $1 END { print \". \" root }" >/tmp/feat-wsl.want
	while read -r _p _u _g _m _d; do
		is "$_p" "$_u $_g $_m $_d" || _ok=1
	done </tmp/feat-wsl.want
	return $_ok
}

run() {
	dev=$(disk_dev blank) || { echo "# no disk named blank"; return 1; }
	cp "$dev" "$IMG" || return 1
	loop=$(losetup -f) && losetup "$loop" "$IMG" || return 1
	mkdir -p "$MNT"
	umask 022
	dmode=755

	use_driver intree
	mount -t ntfs3 "$loop" "$MNT" || return 1
	check "the in-tree ntfs3 makes the objects and their WSL EAs" populate "$MNT"
	check "the in-tree driver stored \$LXDEV of null as WSL's 8 bytes" \
		same '$LXDEV of null' "$("$P" getx "$MNT/null" '$LXDEV')" 0100000003000000
	umount "$MNT"

	use_driver ours
	ROOT="0 0 40$dmode 0:0"
	mnt "" || return 1
	check "default mount: owner, group, mode, rdev from the EAs" \
		all_are '{ print $1, $2, $3, $4, $5 }'
	check "default mount: mount flags ro only" same mntflags "$("$P" mntflags "$MNT")" ro
	check "no nodev: open of char device 1,3 reads 0 bytes" \
		same "open null" "$("$P" open "$MNT/null")" "read 0"
	check "no nodev: open of char device 1,5 reads zeros" \
		same "open zero" "$("$P" open "$MNT/zero")" "read 4096 zeros"
	check "a char device with the in-tree driver's 4-byte \$LXDEV: a regular file, owner from the EAs" \
		kind_is itdev "51 52 10 0:0"
	check "its open reads its own empty data, not device 1,5" \
		same "open itdev" "$("$P" open "$MNT/itdev")" "read 0"
	check "\$LXDEV 4096,1 (no dev_t holds it): a regular file" kind_is bigdev "0 0 10 0:0"
	check "\$LXUID, \$LXGID -1 ignored: the mount's 0 0; \$LXMOD read" is badid "0 0 100604 0:0"
	check "no nosuid: setuid-root file run by uid 1000 gets euid 0, egid 0" \
		same "suid as 1000" "$("$P" runas 1000 "$MNT/suid" ids)" "euid=0 egid=0"

	mnt uid=1000 || return 1
	ROOT="1000 0 40$dmode 0:0"
	check "uid=1000 wins over \$LXUID, \$LXGID still read" \
		all_are '{ print $1, 1000, $3, $4, $5 }'
	mnt gid=2000 || return 1
	ROOT="0 2000 40$dmode 0:0"
	check "gid=2000 wins over \$LXGID, \$LXUID still read" \
		all_are '{ print $1, $2, 2000, $4, $5 }'
	mnt uid=1000,gid=2000 || return 1
	ROOT="1000 2000 40$dmode 0:0"
	check "uid=1000,gid=2000: both win" all_are '{ print $1, 1000, 2000, $4, $5 }'

	# The permissions become the mask's, type and rdev stay.
	mnt umask=077 || return 1
	ROOT="0 0 40700 0:0"
	check "umask=077 wins over \$LXMOD's permissions of files and directories" \
		all_are '{ print $1, $2, $3, substr($4, 1, length($4) - 4) "0700", $5 }'
	mnt fmask=077 || return 1
	ROOT="0 0 40$dmode 0:0"
	check "fmask=077 wins over \$LXMOD's permissions of files only" \
		all_are '{ m = $4; if ($1 != "wdir") m = substr(m, 1, length(m) - 4) "0700"; print $1, $2, $3, m, $5 }'
	mnt dmask=077 || return 1
	ROOT="0 0 40700 0:0"
	check "dmask=077 wins over \$LXMOD's permissions of directories only" \
		all_are '{ m = $4; if ($1 == "wdir") m = "40700"; print $1, $2, $3, m, $5 }'

	mnt nodev || return 1
	check "nodev: mount flags ro nodev" same mntflags "$("$P" mntflags "$MNT")" "ro nodev"
	check "nodev: char device 1,3 is still a char device 1,3" is null "42 43 20666 1:3"
	check "nodev: open of char device 1,3 fails with EACCES" \
		same "open null" "$("$P" open "$MNT/null")" "open EACCES"
	check "nodev: open of block device 259,7 fails with EACCES" \
		same "open blk" "$("$P" open "$MNT/blk")" "open EACCES"

	mnt nosuid || return 1
	check "nosuid: statvfs shows ST_NOSUID" same mntflags "$("$P" mntflags "$MNT")" "ro nosuid"
	check "nosuid: the mode still shows the set-id bits" is suid "0 0 106755 0:0"
	check "nosuid: setuid-root file run by uid 1000 keeps euid 1000, egid 1000" \
		same "suid as 1000" "$("$P" runas 1000 "$MNT/suid" ids)" "euid=1000 egid=1000"
	umount "$MNT"

	# The in-tree driver reads the same EAs: owner, group and mode as ours.
	# It never takes $LXDEV (in 6.12 it looks the name up with length 7,
	# sizeof("$$LXDEV") - 1; it would want its own 4-byte dev_t anyway):
	# rdev is not compared.
	use_driver intree
	mount -t ntfs3 -o ro "$loop" "$MNT" || return 1
	echo "$OBJECTS" | awk 'NF == 5 { print $1, $2, $3, $4 }' >/tmp/feat-wsl.want
	while read -r _p _u _g _m; do
		_got=$("$P" stat "$MNT/$_p")
		check "in-tree driver: $_p has owner, group and mode $_u $_g $_m as ours" \
			same "$_p" "${_got% *}" "$_u $_g $_m"
		echo "#   in-tree: $_p rdev ${_got##* }"
	done </tmp/feat-wsl.want
	echo "#   in-tree: itdev (its own 4-byte \$LXDEV): $("$P" stat "$MNT/itdev")"
	echo "#   in-tree: badid (\$LXUID, \$LXGID -1): $("$P" stat "$MNT/badid")"
	umount "$MNT"
}

loop=
run || check "setting up the WSL volume" false
umount "$MNT" 2>/dev/null
[ -z "$loop" ] || losetup -d "$loop" 2>/dev/null
rm -f "$IMG" /tmp/feat-wsl.*
use_driver ours
tap_done
