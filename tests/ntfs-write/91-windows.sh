#!/bin/sh
# windows: a volume another system wrote, changed by ours.  The volume is
# Debian's forensics-samples-ntfs (NTFS 3.1, clean, 19 media and text
# files of 1 KB to 3 MB) plus dosname/, names that carry a DOS 8.3 name
# too (ntfs-3g gives them on the host); the host copies the files out with
# ntfs-3g into the overlay (tree-windows), and the reference on tmpfs
# starts from that copy.  Changed: files appended to, overwritten inside,
# cut, punched, renamed within and across directories, linked and
# removed; new files and a new directory; an xattr; the names with DOS
# names renamed, moved, linked and removed; a remount; a directory renamed
# and another removed with rm -rf.  The frame then checks the whole volume
# (its old files too) live, after a remount, with the in-tree ntfs3,
# ntfs-3g and fsck.ntfs3.  Frame: tests/include/ntfs-write.sh.
#
# volume windows windows - -
. /tests/include/ntfs-write.sh

workload() {
	d=$1
	if ! on_volume; then
		cp -a /ntfs-write/tree-windows/. "$d/" || report 1 "the Windows volume's files copied to tmpfs"
	fi
	x OK "append to a 2.9 MB video" append "$d/movie1/VID_20191220_170832.mp4" 5000 1
	x OK "overwrite 4 KiB inside a picture" pwrite "$d/pic1/debian.ppm" 1000 4096 2
	x OK "cut a sound file to 100 000 bytes" truncate "$d/audio1/debian.wav" 100000
	x OK "punch a hole in a photo" punch "$d/pic1/IMG_1054.JPG" 100000 200000
	x OK "rename a file in its directory" rename "$d/text1/a-text.pdf" "$d/text1/renamed.pdf"
	x OK "mkdir new" mkdir "$d/new"
	x OK "move a file into it" rename "$d/pic1/debian.png" "$d/new/debian.png"
	x OK "link another there" link "$d/pic1/debian_logo.png" "$d/new/logo-link.png"
	x OK "remove a file" unlink "$d/pic1/empty.jpg"
	x OK "an xattr on a document" setxattr "$d/text1/a-text.odt" user.note "changed by ours"
	i=0
	while [ $i -lt 40 ]; do
		"$FSOPS" pwrite "$d/new/file-$i" 0 $((i * 1000)) $((10 + i)) >/dev/null
		i=$((i + 1))
	done
	# names that carry a DOS 8.3 name too (added by ntfs-3g on the host):
	# no stale DOS entry may stay behind (fsck.ntfs3, ntfs-3g)
	x OK "rename a file with a DOS name" rename "$d/dosname/Long File Name Document.txt" \
		"$d/dosname/Renamed Long File.txt"
	x OK "move another into new/" rename "$d/dosname/Third Long Name.txt" "$d/new/third.txt"
	x OK "link a third" link "$d/dosname/another-long-name.data" "$d/dosname/another link.data"
	x OK "and remove its first name" unlink "$d/dosname/another-long-name.data"
	x OK "rmdir a directory with a DOS name" rmdir "$d/dosname/Directory With Long Name"
	is 40 "40 new files listed" sh -c "ls '$d/new' | grep -c '^file-'"
	x OK "a new file of 4 MB" pwrite "$d/new/big" 0 4194304 3
	remount
	x OK "rename the picture directory" rename "$d/pic1" "$d/pictures"
	rmrf "rm -rf of the sound directory" "$d/audio1"
	x OK "append to the video again" append "$d/movie1/VID_20191220_170832.mp4" 70000 4
	x OK "write into the punched hole" pwrite "$d/pictures/IMG_1054.JPG" 150000 1000 5
}

run_workload windows
write_done
