#!/bin/sh
# Every NTFS test image (scripts/images/make-ntfs-images.sh, attached read-only as
# virtio disks in HX_DISK_NAMES order) mounted with our ntfs3 and listed by
# /tests/tools/walk: names, types, sizes, SHA-256 of every file, link
# counts, symlink targets, user.* xattrs and NTFS attributes must equal the
# manifests written on the host through ntfs-3g.  The in-tree ntfs3 walks
# the same volumes as a reference; its differences are shown, not judged.
# IMAGES_SKIP / IMAGES_ONLY (names) split the work between test programs
# (bigdir has its own, see bigdir.sh); NO_REFERENCE=1 skips the in-tree walk.
. /tests/include/tap.sh
. /hx/env
META=/ntfs-images
WALK=/tests/tools/walk
MNT=/mnt/ntfs-read

use_driver() {
	rmmod ntfs3 2>/dev/null
	insmod "/lib/modules/$1/ntfs3.ko"
}

# Symlink targets that name the volume's root: ntfs-3g writes "@MNT@/x",
# our driver "./../x" relative to the link.  Both become "/x"; their
# lengths are not compared.
normalize() {
	awk -F '\t' 'BEGIN { OFS = "\t" }
	$1 == "l" {
		t = $6
		if (index(t, "@MNT@") == 1) {
			t = substr(t, 6)
			$3 = "-"
		} else if (index(t, "./") == 1) {
			n = split(substr($2, 3), p, "/")
			dir = ""
			for (i = 1; i < n; i++) dir = dir "/" p[i]
			t = dir "/" substr(t, 3)
			m = split(t, q, "/"); k = 0
			for (i = 1; i <= m; i++) {
				if (q[i] == "" || q[i] == ".") continue
				if (q[i] == "..") { if (k) k--; continue }
				r[++k] = q[i]
			}
			t = ""
			for (i = 1; i <= k; i++) t = t "/" r[i]
			if (t == "") t = "/"
			$3 = "-"
		}
		$6 = t
	}
	{ print }'
}

# same EXPECTED ACTUAL WHAT: compare two sorted files, show the difference.
same() {
	if cmp -s "$1" "$2"; then
		return 0
	fi
	echo "# $3: $(diff "$1" "$2" | grep -c '^[-+][^-+]') lines differ, first ones:"
	diff "$1" "$2" | grep '^[-+][^-+]' | head -n 12 | sed 's/^/#   /'
	return 1
}

walk_image() {	# DEV NAME DRIVER OPTS: write /tmp/NAME.DRIVER.{manifest,xattrs,attrib}
	mkdir -p "$MNT"
	mount -t ntfs3 -o "ro$4" "$1" "$MNT" 2>/tmp/mount.err || return 1
	"$WALK" manifest "$MNT" | normalize | sort >"/tmp/$2.$3.manifest"
	"$WALK" xattrs "$MNT" | sort >"/tmp/$2.$3.xattrs"
	"$WALK" attrib "$MNT" | cut -f1,2 | sort >"/tmp/$2.$3.attrib"
	# Files above 1 GiB: three 1 MiB windows each.
	if [ -s "$META/$2.samples" ]; then
		while IFS="$(printf '\t')" read -r path off len sum; do
			printf '%s\t%s\t%s\t%s\n' "$path" "$off" "$len" \
				"$("$WALK" range "$MNT/$path" "$off" "$len")"
		done <"$META/$2.samples" >"/tmp/$2.$3.samples"
	fi
	umount "$MNT"
}

expected() {	# NAME KIND
	if [ "$2" = manifest ]; then
		normalize <"$META/$1.$2" | sort
	elif [ "$2" = attrib ]; then	# the DOS name column is not compared
		cut -f1,2 "$META/$1.$2" | sort
	else
		sort "$META/$1.$2"
	fi
}

letters="a b c d e f g h i j k l m n o p"
set -- $letters
for name in $HX_DISK_NAMES; do
	dev=/dev/vd$1
	shift
	[ -b "${dev}1" ] && dev=${dev}1	# a volume inside a partition
	case " ${IMAGES_SKIP:-bigdir} " in *" $name "*) continue ;; esac
	[ -z "${IMAGES_ONLY:-}" ] || [ "$IMAGES_ONLY" = "$name" ] || continue
	if [ ! -f "$META/$name.manifest" ]; then
		# No manifest (a volume from elsewhere): the two drivers must agree.
		use_driver ours
		check "$name: our ntfs3 mounts it" walk_image "$dev" "$name" ours ""
		use_driver intree
		walk_image "$dev" "$name" intree ",iocharset=utf8"
		for kind in manifest xattrs; do
			check "$name: $kind agrees with the in-tree ntfs3" \
				same "/tmp/$name.intree.$kind" "/tmp/$name.ours.$kind" "$name $kind"
		done
		rm -f /tmp/"$name".*
		continue
	fi

	use_driver ours
	check "$name: our ntfs3 mounts it" walk_image "$dev" "$name" ours ""
	for kind in manifest xattrs attrib samples; do
		[ -s "$META/$name.$kind" ] || [ "$kind" != samples ] || continue
		expected "$name" "$kind" >"/tmp/$name.expected.$kind"
		check "$name: $kind as ntfs-3g wrote it ($(wc -l <"/tmp/$name.expected.$kind") lines)" \
			same "/tmp/$name.expected.$kind" "/tmp/$name.ours.$kind" "$name $kind"
	done

	use_driver intree
	if [ "${NO_REFERENCE:-0}" = 1 ]; then
		:
	elif walk_image "$dev" "$name" intree ",iocharset=utf8"; then
		n=0
		for kind in manifest xattrs; do
			same "/tmp/$name.expected.$kind" "/tmp/$name.intree.$kind" \
				"in-tree $kind (reference only)" || n=$((n + 1))
		done
		check "$name: in-tree ntfs3 walked it too ($n kinds differ from ntfs-3g, shown above)" true
	else
		echo "# $name: the in-tree ntfs3 refused it: $(cat /tmp/mount.err)"
	fi
	rm -f /tmp/"$name".*
done
rmmod ntfs3 2>/dev/null
insmod /lib/modules/ours/ntfs3.ko
tap_done
