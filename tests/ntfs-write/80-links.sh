#!/bin/sh
# links: files with more names than one MFT record holds.  Their
# $FILE_NAMEs go to extension records named by an attribute list, which
# moves to clusters when the base record cannot hold it: 500 names on one
# file (every other one removed, a hundred moved to another directory, the
# data appended and cut, an xattr set), all but a few removed after a
# remount; then a file that the other driver gave 15 names (its own
# layout of records and list) renamed, unlinked and linked by the driver
# under test; last a file whose base record the other driver filled with
# names before it set an xattr, so that its $EA went to an extension
# record: the driver under test changes the EAs (xattrs, chmod) there.
# Frame: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh

# Long names: each $FILE_NAME takes about 180 bytes of a record.
PAD=name-padding-to-make-each-file-name-attribute-long

links() {	# FILE DIR FROM TO: hard links DIR/PAD-FROM .. DIR/PAD-TO
	_i=$3
	while [ "$_i" -le "$4" ]; do
		ln "$1" "$2/$PAD-$_i" || return 1
		_i=$((_i + 1))
	done
}

unlinks() {	# DIR FIRST STEP LAST
	for _i in $(seq "$2" "$3" "$4"); do
		rm "$1/$PAD-$_i" || return 1
	done
}

moves() {	# DIR FIRST STEP LAST DEST
	for _i in $(seq "$2" "$3" "$4"); do
		mv "$1/$PAD-$_i" "$5/moved-$_i" || return 1
	done
}

unmoves() {	# DIR FIRST STEP LAST
	for _i in $(seq "$2" "$3" "$4"); do
		rm "$1/moved-$_i" || return 1
	done
}

workload() {
	d=$1
	x OK "mkdir many" mkdir "$d/many"
	x OK "mkdir moved" mkdir "$d/moved"
	x OK "a file for 500 names" pwrite "$d/many/f" 0 20000 41
	v "499 hard links to it" links "$d/many/f" "$d/many" 1 499
	is 500 "its link count is 500" stat -c %h "$d/many/f"
	v "every other link removed (249)" unlinks "$d/many" 2 2 498
	v "100 links moved to another directory" moves "$d/many" 1 2 199 "$d/moved"
	is 251 "its link count is 251" stat -c %h "$d/many/f"
	x OK "append to it" append "$d/many/f" 7000 42
	x OK "cut it" truncate "$d/moved/moved-1" 15000
	x OK "user.names on it" setxattr "$d/many/f" user.names "two hundred and fifty-one"
	remount
	v "the 150 names left in many/ removed after a remount" unlinks "$d/many" 201 2 499
	v "half of the moved ones removed (50)" unmoves "$d/moved" 1 4 197
	is 51 "its link count is 51" stat -c %h "$d/many/f"

	# names given by the other driver, changed by the driver under test
	x OK "mkdir theirs" mkdir "$d/theirs"
	remount_with "$OTHER"
	x OK "a file for the other driver's names" pwrite "$d/theirs/g" 0 3000 43
	v "14 links made by the other driver" links "$d/theirs/g" "$d/theirs" 1 14
	remount_with "$DRIVER"
	is 15 "the driver under test counts 15 names" stat -c %h "$d/theirs/g"
	v "it removes 5 of them" unlinks "$d/theirs" 1 1 5
	x OK "renames one into many/" rename "$d/theirs/$PAD-6" "$d/many/from-theirs"
	x OK "links one more" link "$d/theirs/g" "$d/theirs/new-link"
	is 11 "its link count is 11" stat -c %h "$d/theirs/g"
	their_ea "$d"
}

# An EA outside the base record (in-tree ntfs3 puts a new attribute into
# an extension record when the base record has no room): ours moves it
# home before changing it (ntfs_file_bring_home()).
their_ea() {
	x OK "mkdir ea" mkdir "$1/ea"
	remount_with "$OTHER"
	x OK "a file for the other driver's EA" pwrite "$1/ea/h" 0 3000 44
	v "14 links made by the other driver" links "$1/ea/h" "$1/ea" 1 14
	x OK "the other driver sets a 600-byte user.big" \
		setxattr "$1/ea/h" user.big "$("$FSOPS" name big 200)"
	remount_with "$DRIVER"
	if on_volume && [ "$OTHER" = intree ]; then
		is no "the other driver put the \$EA outside the base record" ea_home "$1/ea/h"
	fi
	x OK "the driver under test adds user.small" setxattr "$1/ea/h" user.small "small"
	x OK "changes user.big" setxattr "$1/ea/h" user.big "$("$FSOPS" name BIG 150)"
	v "chmod 0640" chmod 0640 "$1/ea/h"
	v "removes 7 of its names" unlinks "$1/ea" 1 1 7
	remount
	is 640 "the mode is 0640 after a remount" stat -c %a "$1/ea/h"
	is 8 "its link count is 8" stat -c %h "$1/ea/h"
	ours_is yes "ours moved the \$EA into the base record" ea_home "$1/ea/h"
}

# ea_home FILE: "yes" when the base record of FILE holds an $EA (0xe0).
ea_home() {
	case " $("$FSOPS" rectypes "$dev" "$(stat -c %i "$1")") " in
	*" e0 "*) echo yes ;;
	*) echo no ;;
	esac
}

run_workload links
write_done
