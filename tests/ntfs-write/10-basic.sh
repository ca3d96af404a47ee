#!/bin/sh
# basic: the namespace and data calls one by one, with their exact errnos:
# create, write, overwrite, append, truncate up and down, unlink, mkdir,
# rmdir (ENOTEMPTY), rename (same and cross directory, over a file, over an
# empty directory, RENAME_NOREPLACE, RENAME_EXCHANGE), hard links and
# their counts, relative and absolute symlinks, FIFOs, sockets and device
# nodes (mknod), user.* xattrs set, replaced and removed; metafiles and
# $Extend refuse every change (EPERM).  Frame and comparisons: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh

workload() {
	d=$1
	# create, write, overwrite, append, truncate
	x OK "create a new file" create "$d/new"
	x EEXIST "create (O_EXCL) an existing file" create "$d/new"
	x OK "write 10000 bytes" pwrite "$d/data" 0 10000 1
	x OK "overwrite 3000 bytes in the middle" pwrite "$d/data" 4000 3000 2
	x OK "append 5000 bytes (O_APPEND)" append "$d/data" 5000 3
	is 15000 "size after the append" stat -c %s "$d/data"
	x OK "write a file to cut down" pwrite "$d/shrunk" 0 70000 4
	x OK "truncate it down to 1000" truncate "$d/shrunk" 1000
	x OK "write a file to extend" pwrite "$d/grown" 0 3000 5
	x OK "truncate it up to 20000 (zeros)" truncate "$d/grown" 20000
	x OK "write past the end after the truncate" pwrite "$d/grown" 25000 100 6
	x OK "a file cut to zero" pwrite "$d/zeroed" 0 50000 7
	x OK "truncate it to 0" truncate "$d/zeroed" 0
	x OK "write a file then unlink it" pwrite "$d/gone" 0 9000 8
	x OK "unlink it" unlink "$d/gone"
	x ENOENT "unlink it again" unlink "$d/gone"
	# unlinked while open: written to after, freed at the last close
	exec 7>"$d/held"
	printf 'before the unlink' >&7
	x OK "unlink a file held open" unlink "$d/held"
	printf 'after the unlink' >&7
	exec 7>&-
	x ENOENT "it is gone after the close" unlink "$d/held"
	x OK "a directory held open" mkdir "$d/helddir"
	exec 7<"$d/helddir"
	x OK "rmdir it while open" rmdir "$d/helddir"
	exec 7<&-
	x ENOENT "it is gone after the close" rmdir "$d/helddir"
	x ENOENT "create under a missing directory" create "$d/nodir/x"

	# directories
	x OK "mkdir" mkdir "$d/dir"
	x EEXIST "mkdir of an existing name" mkdir "$d/dir"
	x EEXIST "mkdir over a file" mkdir "$d/data"
	x OK "mkdir a nested one" mkdir "$d/dir/sub"
	x OK "a file in it" pwrite "$d/dir/sub/f" 0 100 9
	x OK "fsync of that file" fsync "$d/dir/sub/f"
	x OK "fsync of its directory (write-by-rename programs do it)" fsync "$d/dir/sub"
	x ENOTEMPTY "rmdir of a non-empty directory" rmdir "$d/dir/sub"
	x ENOTDIR "rmdir of a file" rmdir "$d/data"
	x EISDIR "unlink of a directory" unlink "$d/dir"
	x OK "mkdir then rmdir an empty directory" mkdir "$d/empty"
	x OK "rmdir it" rmdir "$d/empty"
	x ENOENT "rmdir it again" rmdir "$d/empty"

	# rename
	x OK "rename in one directory" pwrite "$d/r1" 0 777 10
	x OK "rename r1 to r2" rename "$d/r1" "$d/r2"
	x ENOENT "the old name is gone" unlink "$d/r1"
	x OK "rename across directories" rename "$d/r2" "$d/dir/r3"
	x OK "a file to be replaced" pwrite "$d/victim" 0 5000 11
	x OK "rename over an existing file" rename "$d/dir/r3" "$d/victim"
	x OK "mkdir a directory to move" mkdir "$d/moved"
	x OK "a file inside it" pwrite "$d/moved/inside" 0 1234 12
	x OK "mkdir an empty target directory" mkdir "$d/target"
	x OK "rename a directory over an empty directory" rename "$d/moved" "$d/target"
	x OK "mkdir a directory with content" mkdir "$d/full"
	x OK "a file in it" create "$d/full/x"
	x ENOTEMPTY "rename a directory over a non-empty one" rename "$d/target" "$d/full"
	x EISDIR "rename a file over a directory" rename "$d/data" "$d/full"
	x ENOTDIR "rename a directory over a file" rename "$d/full" "$d/data"
	x EINVAL "rename a directory into itself" rename "$d/full" "$d/full/inner"
	x OK "rename a directory across directories" rename "$d/full" "$d/dir/full"
	x OK "noreplace: a source" pwrite "$d/nr-src" 0 300 13
	x EEXIST "RENAME_NOREPLACE over an existing file" noreplace "$d/nr-src" "$d/data"
	x OK "RENAME_NOREPLACE to a free name" noreplace "$d/nr-src" "$d/nr-dst"
	x OK "exchange: a file" pwrite "$d/xa" 0 400 14
	x OK "exchange: a directory" mkdir "$d/xb"
	x OK "a file in the directory" pwrite "$d/xb/in" 0 10 15
	xchg "RENAME_EXCHANGE of a file and a directory" "$d/xa" "$d/xb"
	is "400" "the file is under the other name" stat -c %s "$d/xb"
	x ENOENT "RENAME_EXCHANGE with a missing name" exchange "$d/xa" "$d/missing"
	x OK "two files to exchange across directories" pwrite "$d/ya" 0 500 16
	x OK "and the second one" pwrite "$d/dir/yb" 0 600 17
	xchg "RENAME_EXCHANGE across directories" "$d/ya" "$d/dir/yb"

	# hard links
	x OK "a file to link" pwrite "$d/linked" 0 4096 18
	x OK "link it" link "$d/linked" "$d/link2"
	x OK "link it into another directory" link "$d/linked" "$d/dir/link3"
	x OK "link it a third time" link "$d/linked" "$d/link4"
	is 4 "link count 4" stat -c %h "$d/linked"
	x OK "unlink one name" unlink "$d/link4"
	is 3 "link count 3 after the unlink" stat -c %h "$d/link2"
	x EEXIST "link onto an existing name" link "$d/linked" "$d/data"
	x EPERM "link a directory" link "$d/dir" "$d/dirlink"
	x OK "rename one link over another of the same file" rename "$d/link2" "$d/dir/link3"
	is 3 "rename onto a link of the same file changes nothing" stat -c %h "$d/linked"
	x OK "append through one link" append "$d/dir/link3" 100 19
	# truncate(2) asks for no new times, yet a size change sets them (fstests generic/313)
	is yes "truncate(2) moves mtime and ctime" sh -c \
		"m=\$(stat -c %Y '$d/linked') && sleep 2 && $FSOPS truncate '$d/linked' 1000 >/dev/null &&
		 [ \$(stat -c %Y '$d/linked') -gt \$m ] && [ \$(stat -c %Z '$d/linked') -gt \$m ] && echo yes"
	# statx's birth time: $STANDARD_INFORMATION's creation time, set at create
	ours_is yes "a new file's birth time (statx) is within a minute of now" sh -c \
		"b=\$($FSOPS btime '$d/linked') && n=\$(date +%s) &&
		 [ \$((n - b)) -ge 0 ] && [ \$((n - b)) -le 60 ] && echo yes || echo \"no: \$b \$n\""

	# symlinks
	x OK "a relative symlink" symlink data "$d/rel"
	x OK "a relative symlink upwards" symlink ../data "$d/dir/up"
	x OK "a dangling relative symlink" symlink no/such/file "$d/dangling"
	x OK "an absolute symlink" symlink /absolute/target "$d/abs"
	x OK "a symlink to a directory" symlink dir/sub "$d/dirlink"
	x EEXIST "a symlink over an existing name" symlink data "$d/rel"
	is "$(stat -c %s "$d/data")" "reading through the symlink" stat -L -c %s "$d/rel"
	x OK "rename a symlink" rename "$d/dangling" "$d/dir/dangling2"

	# special files, stored as WSL stores them (reparse tag and $LX* EAs)
	x OK "mknod a FIFO" mknod "$d/fifo" p 0 0
	x OK "mknod a socket" mknod "$d/sock" s 0 0
	x OK "mknod a character device 1,3" mknod "$d/chr" c 1 3
	x OK "mknod a block device 7,0" mknod "$d/blk" b 7 0
	x EEXIST "mknod over an existing name" mknod "$d/fifo" p 0 0
	x OK "rename a FIFO across directories" rename "$d/fifo" "$d/dir/fifo2"
	x OK "a FIFO to remove" mknod "$d/fifo3" p 0 0
	x OK "unlink it" unlink "$d/fifo3"
	v "chmod 600 a device node" chmod 600 "$d/chr"
	is 600 "its mode is 600" stat -c %a "$d/chr"

	# xattrs
	x OK "set user.color" setxattr "$d/data" user.color blue
	x OK "set user.note on a directory" setxattr "$d/dir" user.note "a directory note"
	x OK "set user.gone" setxattr "$d/data" user.gone x
	x OK "replace user.color" setxattr "$d/data" user.color "dark red"
	x OK "remove user.gone" rmxattr "$d/data" user.gone
	x ENODATA "remove it again" rmxattr "$d/data" user.gone
	x OK "an xattr on a hard-linked file" setxattr "$d/linked" user.links three

	# metafiles: found by name, never changed through the namespace or written
	ours_is EPERM "ours: \$Bitmap cannot be unlinked" "$FSOPS" unlink "$d/\$Bitmap"
	ours_is EPERM "ours: nor written to" "$FSOPS" pwrite "$d/\$Bitmap" 0 1 1
	ours_is EPERM "ours: \$MFTMirr cannot be renamed" "$FSOPS" rename "$d/\$MFTMirr" "$d/mirror"
	ours_is EPERM "ours: \$UpCase gets no second name" "$FSOPS" link "$d/\$UpCase" "$d/upcase"
	ours_is EPERM "ours: no new file in \$Extend" "$FSOPS" create "$d/\$Extend/new"
}

run_workload basic
write_done
