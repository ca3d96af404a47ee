#!/bin/sh
# security: security descriptors shared through $Secure (secure.c).  A new
# file under the root of an mkntfs volume (whose root keeps an NTFS 1.2
# descriptor of its own) gets the default descriptor, a file in a new
# directory shares the directory's; system.ntfs_security sets a
# descriptor: an identical one is shared, a new one is added to $SDS (and
# its mirror), $SII and $SDH.  300 descriptors of 1 036 bytes fill more
# than the first 256 KiB block of $SDS and push both indexes into index
# blocks.  Invalid descriptors (EINVAL) and removal (EOPNOTSUPP) are
# refused.  Every descriptor reads back after a remount and through the
# in-tree ntfs3, which then hands the volume back for one more change.
# The frame's host side runs fsck.ntfs3, which checks $SDS against $SII
# and $SDH entry by entry.  Descriptors exist only on the volume: the
# tmpfs reference has the files alone.  Frame: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh

PROBE=/tests/tools/wsl-probe

# sd MASK: a self-relative descriptor (owner Administrators, group SYSTEM,
# one ACE allowing MASK to Everyone, inherited), in hex
sd() {
	printf '01000480140000002400000000000000300000000102000000000005200000002002000001010000000000051200000002001c000100000000031400'
	printf '%02x%02x%02x%02x010100000000000100000000' $(($1 & 255)) $(($1 >> 8 & 255)) \
		$(($1 >> 16 & 255)) $(($1 >> 24 & 255))
}

# sdn N: a descriptor of 1 036 bytes: 49 ACEs whose masks start at N
sdn() {
	printf '01000480140000002400000000000000300000000102000000000005200000002002000001010000000000051200000002'
	printf '00dc0331000000'
	_k=0
	while [ $_k -lt 49 ]; do
		_m=$(($1 * 49 + _k))
		printf '00031400%02x%02x%02x%02x010100000000000100000000' $((_m & 255)) \
			$((_m >> 8 & 255)) $((_m >> 16 & 255)) $((_m >> 24 & 255))
		_k=$((_k + 1))
	done
}

# the descriptor new files get under a directory without one (secure.c)
DEFAULT=$(sd 2032127)

sec_is() {	# EXPECTED DESCRIPTION PATH
	is "$1" "$2" "$PROBE" getx "$3" system.ntfs_security
}

# many FROM TO DIR: descriptor sdn N on DIR/fN; prints "done N"
many() {
	_i=$1
	while [ "$_i" -lt "$2" ]; do
		"$PROBE" setx "$3/f$_i" system.ntfs_security "$(sdn "$_i")" >/dev/null || break
		_i=$((_i + 1))
	done
	echo "done $_i"
}

workload() {
	d=$1
	x OK "a file under the root" pwrite "$d/a" 0 100 1
	x OK "another" pwrite "$d/b" 0 100 2
	x OK "a directory" mkdir "$d/sub"
	x OK "a file in it" pwrite "$d/sub/c" 0 100 3
	x OK "a directory for many files" mkdir "$d/many"
	v "300 empty files in it" sh -c 'i=0; while [ $i -lt 300 ]; do : >"$1/f$i" || exit 1; i=$((i + 1)); done' \
		_ "$d/many"
	on_volume || return 0
	sec_is "$DEFAULT" "a new file under the root gets the default descriptor" "$d/a"
	sec_is "$DEFAULT" "a file in a new directory shares the directory's" "$d/sub/c"
	v "set a new descriptor on a" "$PROBE" setx "$d/a" system.ntfs_security "$(sd 1179817)"
	sec_is "$(sd 1179817)" "a reads it back" "$d/a"
	v "the same one on b (shared)" "$PROBE" setx "$d/b" system.ntfs_security "$(sd 1179817)"
	sec_is "$(sd 1179817)" "b reads it back" "$d/b"
	is "setxattr EINVAL" "a descriptor of 2 bytes is refused" \
		"$PROBE" setx "$d/b" system.ntfs_security 0100
	is "setxattr EINVAL" "one whose owner SID is not revision 1 is refused" \
		"$PROBE" setx "$d/b" system.ntfs_security "$(sd 5 | sed 's/^\(.\{40\}\)01/\109/')"
	x EOPNOTSUPP "removing system.ntfs_security is refused" rmxattr "$d/b" system.ntfs_security
	is "done 150" "150 files with descriptors of 1 036 bytes" many 0 150 "$d/many"
	remount
	is "done 300" "150 more after a remount (past the first block of \$SDS)" many 150 300 "$d/many"
	sec_is "$(sdn 7)" "f7 reads its descriptor back" "$d/many/f7"
	sec_is "$(sdn 299)" "f299 reads its descriptor back" "$d/many/f299"
	remount
	sec_is "$(sd 1179817)" "after a remount: a" "$d/a"
	sec_is "$(sdn 0)" "f0" "$d/many/f0"
	sec_is "$(sdn 255)" "f255" "$d/many/f255"
	sec_is "$(sdn 299)" "f299" "$d/many/f299"
	remount_with "$OTHER"
	sec_is "$(sd 1179817)" "$OTHER reads a's descriptor" "$d/a"
	sec_is "$(sdn 299)" "$OTHER reads f299's" "$d/many/f299"
	remount_with "$DRIVER"
	v "f5 gets f200's descriptor (shared again)" "$PROBE" setx "$d/many/f5" \
		system.ntfs_security "$(sdn 200)"
	v "and b a new one" "$PROBE" setx "$d/b" system.ntfs_security "$(sd 42)"
	sec_is "$(sdn 200)" "f5 reads f200's" "$d/many/f5"
	sec_is "$(sd 42)" "b reads its new one" "$d/b"
}

run_workload security
write_done
