# ntfs-disks.sh: sourced (after lib.sh) by the scripts that boot the NTFS
# suites (check.sh, check-distro.sh), so that every kernel reads the same
# disks in the same order and prints comparable results.
#
# ntfs_disks: build the test images if needed, then set and export DISKS,
# DISK_NAMES and EXTRA_OVERLAY (the images' manifests go into the guest at
# /ntfs-images).  NTFS_IMAGES picks the images of make-ntfs-images.sh.
# Needs $S (the scripts directory) and $BUILD.

ntfs_disks() {
	"$S/images/make-ntfs-images.sh"
	ov=$BUILD/ntfs-overlay
	rm -rf "$ov"
	mkdir -p "$ov/ntfs-images"
	DISKS="" DISK_NAMES=""
	for name in ${NTFS_IMAGES:-c4k-r1k c512 c64k c2m s4k-r4k bigdir}; do
		DISKS="$DISKS $BUILD/ntfs-images/$name.img:ro"
		DISK_NAMES="$DISK_NAMES $name"
		for kind in manifest xattrs attrib streams samples reparse; do
			f=$BUILD/ntfs-images/$name.$kind
			[ ! -f "$f" ] || cp "$f" "$ov/ntfs-images/"
		done
	done
	# Debian's forensics sample volume (in an MBR partition), no manifest.
	"$S/images/make-demo-disk.sh"
	DISKS="$DISKS $BUILD/demo/forensics.img:ro"
	DISK_NAMES="$DISK_NAMES forensics"
	# A blank volume for the in-tree driver to write in the VM (copied there).
	if [ ! -f "$BUILD/ntfs-blank.img" ]; then
		truncate -s 32M "$BUILD/ntfs-blank.img.new"
		mkntfs -F -f -q -L blank "$BUILD/ntfs-blank.img.new" >/dev/null 2>&1 ||
			die "mkntfs could not make $BUILD/ntfs-blank.img"
		mv "$BUILD/ntfs-blank.img.new" "$BUILD/ntfs-blank.img"
	fi
	DISKS="$DISKS $BUILD/ntfs-blank.img:ro"
	DISK_NAMES="$DISK_NAMES blank"
	# Volumes in special states for tests/ntfs-read/feat-*: a GPT disk with
	# one volume per partition, and one with 4096-byte logical blocks.
	"$S/images/make-ntfs-special.sh"
	DISKS="$DISKS $BUILD/ntfs-special/special.img:ro $BUILD/ntfs-special/special-4k.img:ro:4k"
	DISK_NAMES="$DISK_NAMES special special-4k"
	cp "$BUILD/ntfs-special/special.meta" "$ov/ntfs-images/"
	export DISKS DISK_NAMES EXTRA_OVERLAY=$ov
}

# ntfs_write_disks SUITE: for tests/SUITE (ntfs-write or ntfs-geometry), a
# fresh writable copy of a blank volume per workload and the output disk
# write-out (scripts/test/ntfs-write-verify.sh prepare), appended to DISKS and
# DISK_NAMES; the driver under test (NTFS_WRITE_DRIVER) goes into the
# overlay.  Such a suite boots alone: ntfs-read would walk these disks too,
# and the two write suites share the disk names.
ntfs_write_disks() {
	export NTFS_WRITE_SUITE=$1
	_wl=$("$S/test/ntfs-write-verify.sh" prepare) || die "ntfs-write-verify.sh prepare failed"
	DISKS=${DISKS:-} DISK_NAMES=${DISK_NAMES:-}
	while read -r _p _n; do
		DISKS="$DISKS $_p"
		DISK_NAMES="$DISK_NAMES $_n"
	done <<EOT
$_wl
EOT
	if [ -n "${EXTRA_OVERLAY:-}" ]; then
		cp -a "$BUILD/$1/overlay/." "$EXTRA_OVERLAY/"
	else
		EXTRA_OVERLAY=$BUILD/$1/overlay
	fi
	export DISKS DISK_NAMES EXTRA_OVERLAY
}
