#!/bin/sh
# acl: POSIX ACLs on a mount with the acl option, stored as the in-tree
# ntfs3 stores them (the EAs system.posix_acl_access and
# system.posix_acl_default holding the xattr blob).  Access ACLs set, read
# back, listed, removed, and dropped when the mode says all of them; the
# mode follows them; permission checks of other users (wsl-probe runas)
# follow named user and group entries and the mask; chmod changes the
# mask; default ACLs inherited by new files, directories and FIFOs (the
# umask ignored under one, applied without); a 7000-entry ACL ($EA in
# clusters) and one that would pass the 64 KiB of a file's EAs (ENOSPC);
# everything read back after a remount, and by the other driver.
# Frame and comparisons: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh

OPTS=$OPTS,acl
PROBE=/tests/tools/wsl-probe
umask 022

# as UID FSOPS-ARGS...: fsops as user and group UID, no other groups.
as() {
	_u=$1
	shift
	"$PROBE" runas "$_u" "$FSOPS" "$@"
}

mode_of() {
	"$PROBE" stat "$1" | cut -d' ' -f3
}

acl_of() {	# PATH access|default
	"$FSOPS" getacl "$1" "$2"
}

acl_entries() {	# PATH: entries of its access ACL (or the error)
	_a=$("$FSOPS" getacl "$1" access)
	case $_a in
	*:*) echo "$_a" | tr ',' '\n' | wc -l | tr -d ' ' ;;
	*) echo "$_a" ;;
	esac
}

INTREE_MODE="the in-tree ntfs3 gives files and directories the mode of the mount options, not \$LXMOD's"
INTREE_BIG="the in-tree ntfs3 does not read a 56 KiB ACL (\$EA in clusters)"

# seen_is WHO EXPECTED DESCRIPTION REASON COMMAND...: "is", but when WHO,
# the driver reading, is the in-tree ntfs3, a different answer is a TODO
# naming REASON.
seen_is() {
	_who=$1 _want=$2 _d=$3 _why=$4
	shift 4
	if [ "$_who" = intree ] && on_volume; then
		_got=$("$@" 2>&1)
		if [ "$_got" != "$_want" ]; then
			todo "$_d: $_want" "$_why (got $_got)"
			return
		fi
	fi
	is "$_want" "$_d" "$@"
}

F_ACL="u::rw-,u:1000:rw-,g::r--,g:2000:r--,m::rw-,o::---"
D_ACL="u::rwx,u:1000:rwx,g::r-x,m::rwx,o::---"
INHERITED="u::rw-,u:1000:rwx,g::r-x,m::r--,o::---"
SUB_ACL="u::rwx,u:1000:rwx,g::r-x,m::r-x,o::---"

access_acls() {
	d=$1
	x OK "a file for ACLs" pwrite "$d/f" 0 100 1
	is 100644 "made 0644 under umask 022" mode_of "$d/f"
	is ENODATA "no ACL yet" acl_of "$d/f" access
	x OK "access ACL: user 1000 rw, mask rw" setacl "$d/f" access \
		"u::rw-,u:1000:rw-,g::r--,m::rw-,o::---"
	is "u::rw-,u:1000:rw-,g::r--,m::rw-,o::---" "it reads back" acl_of "$d/f" access
	is 100660 "the mode follows it (group bits: the mask)" mode_of "$d/f"
	is system.posix_acl_access "listxattr names it" "$FSOPS" listx "$d/f"
	is OK "uid 1000 may read (its entry)" as 1000 open "$d/f" r
	is OK "and write" as 1000 open "$d/f" w
	is EACCES "uid 1001 may not read (other ---)" as 1001 open "$d/f" r
	x OK "add a named group 2000 r" setacl "$d/f" access "$F_ACL"
	is OK "gid 2000 may read" as 2000 open "$d/f" r
	is EACCES "not write" as 2000 open "$d/f" w
	v "chmod 0640" chmod 0640 "$d/f"
	is "u::rw-,u:1000:rw-,g::r--,g:2000:r--,m::r--,o::---" "chmod set the mask to r--" \
		acl_of "$d/f" access
	is 100640 "the mode" mode_of "$d/f"
	is OK "uid 1000 may still read" as 1000 open "$d/f" r
	is EACCES "not write (the mask)" as 1000 open "$d/f" w
	v "chmod 0600" chmod 0600 "$d/f"
	is EACCES "uid 1000 may not read (mask ---)" as 1000 open "$d/f" r
	v "chmod 0660" chmod 0660 "$d/f"
	is "$F_ACL" "the mask is rw- again" acl_of "$d/f" access
	x OK "user.note next to the ACL" setxattr "$d/f" user.note hello
	is "system.posix_acl_access user.note" "listxattr names both" "$FSOPS" listx "$d/f"
}

acl_edges() {
	d=$1
	x OK "a file whose ACL goes" pwrite "$d/g" 0 10 2
	x OK "an ACL on it" setacl "$d/g" access "u::rw-,u:1000:r--,g::r--,m::r--,o::r--"
	x OK "remove it" rmacl "$d/g" access
	is ENODATA "it is gone" acl_of "$d/g" access
	is 100644 "the mode stays" mode_of "$d/g"
	is - "listxattr names nothing" "$FSOPS" listx "$d/g"
	x OK "removing it again is no error" rmacl "$d/g" access
	x OK "an ACL the mode says all of" setacl "$d/g" access "u::rwx,g::r-x,o::---"
	is ENODATA "is not kept" acl_of "$d/g" access
	is 100750 "the mode takes it" mode_of "$d/g"
	x EACCES "a default ACL on a file" setacl "$d/g" default "u::rwx,g::r-x,o::---"
	x EINVAL "a named entry without a mask" setacl "$d/g" access \
		"u::rw-,u:1000:r--,g::r--,o::---"
	x OK "a symlink" symlink g "$d/link"
	is EOPNOTSUPP "a symlink has no ACL" acl_of "$d/link" access
}

default_acls() {
	d=$1
	x OK "a directory for default ACLs" mkdir "$d/inh"
	x OK "its default ACL" setacl "$d/inh" default "$D_ACL"
	is "$D_ACL" "it reads back" acl_of "$d/inh" default
	is ENODATA "no access ACL came with it" acl_of "$d/inh" access
	is 40755 "nor a mode change" mode_of "$d/inh"
	x OK "and an access ACL: uid 1000 rwx" setacl "$d/inh" access \
		"u::rwx,u:1000:rwx,g::r-x,m::rwx,o::r-x"
	is 40775 "the directory's mode" mode_of "$d/inh"
	is "system.posix_acl_access system.posix_acl_default" "listxattr names both" \
		"$FSOPS" listx "$d/inh"
	x OK "a file in it (0644)" create "$d/inh/file"
	is "$INHERITED" "it inherits the default ACL, masked by its mode" acl_of "$d/inh/file" access
	is 100640 "its mode: the ACL's" mode_of "$d/inh/file"
	is ENODATA "a file takes no default ACL" acl_of "$d/inh/file" default
	x OK "a directory in it (0755)" mkdir "$d/inh/sub"
	is "$SUB_ACL" "its access ACL" acl_of "$d/inh/sub" access
	is "$D_ACL" "its default ACL: the parent's" acl_of "$d/inh/sub" default
	is 40750 "its mode" mode_of "$d/inh/sub"
	x OK "a file two levels down" create "$d/inh/sub/deep"
	is "$INHERITED" "inherits the same" acl_of "$d/inh/sub/deep" access
	is OK "umask 077 and a file" sh -c "umask 077; exec $FSOPS create '$d/inh/u077'"
	is 100640 "the default ACL sets its mode, not the umask" mode_of "$d/inh/u077"
	x OK "a FIFO in it (0640)" mknod "$d/inh/fifo" p 0 0
	is 10640 "the FIFO's mode" mode_of "$d/inh/fifo"
	is "$INHERITED" "its ACL" acl_of "$d/inh/fifo" access
	x OK "a symlink in it" symlink file "$d/inh/link"
	is 120777 "a symlink's mode as always" mode_of "$d/inh/link"
	is OK "uid 1000 may read the new file" as 1000 open "$d/inh/file" r
	is EACCES "not write it (mask r--)" as 1000 open "$d/inh/file" w
	is OK "uid 1000 may make a file in the directory" as 1000 create "$d/inh/by1000"
	is "$INHERITED" "which inherits too" acl_of "$d/inh/by1000" access
	is EACCES "uid 1001 may not (other r-x)" as 1001 create "$d/inh/by1001"
}

umask_only() {
	d=$1
	x OK "a directory without a default ACL" mkdir "$d/plain"
	is 40755 "mkdir 0755 under umask 022" mode_of "$d/plain"
	is OK "umask 027 and a file" sh -c "umask 027; exec $FSOPS create '$d/plain/u027'"
	is 100640 "the umask sets its mode" mode_of "$d/plain/u027"
	is ENODATA "no ACL" acl_of "$d/plain/u027" access
	is OK "umask 077 and a directory" sh -c "umask 077; exec $FSOPS mkdir '$d/plain/d077'"
	is 40700 "its mode" mode_of "$d/plain/d077"
	is OK "umask 0222 and a file" sh -c "umask 0222; exec $FSOPS create '$d/plain/ro'"
	is 100444 "made without write bits" mode_of "$d/plain/ro"
	ours_is 21000000 "so it is read-only for Windows, as chmod makes it" \
		"$PROBE" getx "$d/plain/ro" system.ntfs_attrib
}

big_acls() {
	d=$1
	x OK "a file for a big ACL" pwrite "$d/big" 0 10 3
	x OK "a 7000-entry access ACL (56 KiB: \$EA in clusters)" manyacl "$d/big" 7000
	is 7004 "read back whole" acl_entries "$d/big"
	x OK "user.pad of 4000 bytes next to it" setxattr "$d/big" user.pad \
		"$("$FSOPS" name 0123456789 400)"
	# tmpfs has no such limit: only on the volume
	! on_volume || x ENOSPC "an 8000-entry ACL: the file's EAs would pass 64 KiB" \
		manyacl "$d/big" 8000
	is 7004 "the 7000-entry ACL stays" acl_entries "$d/big"
}

# What the first mount wrote, after a remount (or read by the other driver:
# $1 names it).
check_back() {
	d=$1 who=${2:-$DRIVER}
	is "$F_ACL" "$who: f's ACL" acl_of "$d/f" access
	seen_is "$who" 100660 "$who: f's mode" "$INTREE_MODE" mode_of "$d/f"
	is OK "$who: uid 1000 may write f" as 1000 open "$d/f" w
	is EACCES "$who: uid 1001 may not read f" as 1001 open "$d/f" r
	is OK "$who: gid 2000 may read f" as 2000 open "$d/f" r
	is "$D_ACL" "$who: the directory's default ACL" acl_of "$d/inh" default
	seen_is "$who" 40775 "$who: its mode" "$INTREE_MODE" mode_of "$d/inh"
	is "$INHERITED" "$who: the inherited ACL" acl_of "$d/inh/file" access
	seen_is "$who" 100640 "$who: that file's mode" "$INTREE_MODE" mode_of "$d/inh/file"
	is EACCES "$who: uid 1000 may not write it (mask r--)" as 1000 open "$d/inh/file" w
	is "$SUB_ACL" "$who: the subdirectory's ACL" acl_of "$d/inh/sub" access
	is "$D_ACL" "$who: and its default ACL" acl_of "$d/inh/sub" default
	is 10640 "$who: the FIFO's mode" mode_of "$d/inh/fifo"
	is "$INHERITED" "$who: and its ACL" acl_of "$d/inh/fifo" access
	is ENODATA "$who: the dropped ACL stays away" acl_of "$d/g" access
	seen_is "$who" 100750 "$who: and its mode" "$INTREE_MODE" mode_of "$d/g"
	seen_is "$who" 100444 "$who: the file made read-only" "$INTREE_MODE" mode_of "$d/plain/ro"
	seen_is "$who" 40700 "$who: the directory made under umask 077" "$INTREE_MODE" \
		mode_of "$d/plain/d077"
	seen_is "$who" 7004 "$who: the 7000-entry ACL" "$INTREE_BIG" acl_entries "$d/big"
}

# Changes on what an earlier mount wrote.
change_back() {
	d=$1
	x OK "a file made after the remount inherits too" create "$d/inh/after"
	is "$INHERITED" "its ACL" acl_of "$d/inh/after" access
	v "chmod 0660 the inherited file" chmod 0660 "$d/inh/file"
	is "u::rw-,u:1000:rwx,g::r-x,m::rw-,o::---" "the mask follows" acl_of "$d/inh/file" access
	is 100660 "the mode" mode_of "$d/inh/file"
	is OK "uid 1000 may write it now" as 1000 open "$d/inh/file" w
	x OK "the directory's default ACL removed" rmacl "$d/inh" default
	x OK "a file made then" create "$d/inh/late"
	is ENODATA "inherits nothing" acl_of "$d/inh/late" access
	is 100644 "and takes the umask" mode_of "$d/inh/late"
}

# The other driver reads what this one wrote; back to this one after.
other_reads() {
	d=$1
	on_volume || return 0
	remount_with "$OTHER"
	check_back "$d" "$OTHER"
	remount_with "$DRIVER"
}

workload() {
	d=$1
	access_acls "$d"
	acl_edges "$d"
	default_acls "$d"
	umask_only "$d"
	big_acls "$d"
	remount
	check_back "$d"
	other_reads "$d"
	change_back "$d"
}

run_workload acl
write_done
