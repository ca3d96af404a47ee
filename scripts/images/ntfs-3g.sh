# ntfs-3g.sh: FUSE mounts of NTFS images on the host, sourced by the image
# builders (make-ntfs-images.sh, make-ntfs-special.sh, make-fuzz-base.sh,
# make-bench-ntfs-images.sh, make-fsck-images.sh) after lib.sh.  The caller
# sets MNT (mount point) and LOG (ntfs-3g's output); fuse_pid is the
# running ntfs-3g.
#
# ntfs-3g runs in the foreground (no_detach) as our child, so that after
# umount we can wait until it has written everything and see its status.

fuse_pid=

# fuse_mount IMG OPTIONS: mount IMG on $MNT, die unless it mounts in 20 s.
fuse_mount() {
	ntfs-3g -o "no_detach,$2" "$1" "$MNT" >>"$LOG" 2>&1 &
	fuse_pid=$!
	n=0
	until mountpoint -q "$MNT"; do
		if ! kill -0 "$fuse_pid" 2>/dev/null; then
			fuse_pid=
			die "ntfs-3g could not mount $1; log: $LOG"
		fi
		n=$((n + 1))
		[ $n -lt 400 ] || die "ntfs-3g did not mount $1 within 20 s; log: $LOG"
		sleep 0.05
	done
}

# fuse_umount: unmount $MNT and wait for ntfs-3g, die unless it exited 0.
fuse_umount() {
	umount "$MNT" || die "umount $MNT failed"
	st=0
	wait "$fuse_pid" || st=$?
	fuse_pid=
	[ $st = 0 ] || die "ntfs-3g exited with status $st; log: $LOG"
}

# fuse_reap: on the way out (traps), unmount and reap ntfs-3g if it runs.
fuse_reap() {
	if [ -n "$fuse_pid" ]; then
		umount "$MNT" 2>/dev/null || umount -l "$MNT" 2>/dev/null || true
		kill "$fuse_pid" 2>/dev/null || true
		wait "$fuse_pid" 2>/dev/null || true
		fuse_pid=
	fi
}

# fuse_abandon DIR: on the way out of a builder (trap EXIT): reap ntfs-3g,
# then remove the unfinished output DIR, unless something is still mounted
# in it (rm -rf would reach into the volume).
fuse_abandon() {
	fuse_reap
	if [ -d "$1" ] && ! grep -q " $1/" /proc/mounts; then
		rm -rf "$1"
	fi
}
