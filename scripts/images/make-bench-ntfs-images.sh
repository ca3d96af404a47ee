#!/bin/sh
# make-bench-ntfs-images.sh: the volume the NTFS benchmark (make bench-ntfs)
# needs beyond the test images: build/bench-ntfs/bench.img, 3 GiB, holding
#   seq.bin                  1 GiB, one run of clusters (checked), written first
#   small/dNN/fNNNN          10 000 files of 1-8 KiB in 10 directories
# and next to it seq.size (seq.bin's size) and seq.bin.info (ntfsinfo).
# Data is pseudo-random (SHAKE-256, fixed seeds): not compressible, not zeros.
# The benchmark also reads build/ntfs-images/bigdir.img and sparse1t.img
# (scripts/images/make-ntfs-images.sh).
#
# mkntfs, then ntfs-3g (FUSE; never the host kernel's ntfs3) fills it.
# Idempotent: build/bench-ntfs/stamp holds a hash of this script and the
# ntfs-3g version.  Disk use: about 1.1 GiB (the rest of the image is holes).
set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/ntfs-3g.sh"
OUT=$BUILD/bench-ntfs
IMG=$OUT/bench.img
SELF=$TOP/scripts/images/make-bench-ntfs-images.sh
SEQ_MIB=${BENCH_NTFS_SEQ_MIB:-1024}
SMALL=${BENCH_NTFS_SMALL:-10000}

for t in mkntfs ntfs-3g ntfsinfo python3 fallocate mountpoint; do
	command -v "$t" >/dev/null 2>&1 || die "make-bench-ntfs-images: $t missing (scripts/build/deps.sh)"
done
key=$( (cat "$SELF"; echo "$SEQ_MIB $SMALL"
	dpkg-query -W -f='${Version}' ntfs-3g 2>/dev/null || true) | sha256sum | cut -d' ' -f1)
if [ "$(cat "$OUT/stamp" 2>/dev/null)" = "$key" ] && [ -f "$IMG" ] && [ -s "$OUT/seq.size" ]; then
	say NTFS "benchmark volume up to date: ${IMG#"$TOP"/}"
	exit 0
fi
[ "$(id -u)" = 0 ] || die "make-bench-ntfs-images: needs root (FUSE mount)"
[ -c /dev/fuse ] || die "make-bench-ntfs-images: /dev/fuse missing"

mkdir -p "$OUT"
rm -f "$OUT/stamp" "$IMG" "$OUT/seq.size"
NEW=$OUT/bench.img.new
MNT=$OUT/mnt
LOG=$LOGS/bench-ntfs-images.log
cleanup() {
	fuse_reap
	rmdir "$MNT" 2>/dev/null || true
	rm -f "$NEW"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

t0=$(date +%s)
: >"$LOG"
# mkntfs puts $LogFile in the middle of the volume and ntfs-3g keeps the
# first 12.5 % for the MFT zone: 3 x the file leaves one free run for it.
truncate -s $((SEQ_MIB * 3))M "$NEW"
mkntfs -F -f -q -L bench "$NEW" >>"$LOG" 2>&1 || die "mkntfs failed; log: $LOG"
mkdir -p "$MNT"
fuse_mount "$NEW" big_writes,noatime

python3 - "$MNT" "$SEQ_MIB" "$SMALL" "$OUT/seq.size" <<'EOF' >>"$LOG" 2>&1 || die "filling $NEW failed; log: $LOG"
import hashlib, os, sys
mnt, seq_mib, small = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
MiB = 1 << 20
# One random MiB; chunk i is it rotated by i * 4 KiB + i bytes, so no two
# chunks and no two 4 KiB blocks at the same offset in a chunk are equal.
base = hashlib.shake_256(b"bench-ntfs seq").digest(MiB)
base2 = base + base
with open(os.path.join(mnt, "seq.bin"), "wb", buffering=0) as f:
    for i in range(seq_mib):
        k = (i * 4097) % MiB
        f.write(base2[k:k + MiB])
# Small files: 1-8 KiB (1024 + a multiple of 7 up to 7168), 10 directories.
pool = hashlib.shake_256(b"bench-ntfs small").digest(MiB)
dirs = 10
for d in range(dirs):
    os.mkdir(os.path.join(mnt, "small"), 0o755) if d == 0 else None
    os.mkdir(os.path.join(mnt, "small", "d%02d" % d), 0o755)
for i in range(small):
    h = hashlib.sha256(b"%d" % i).digest()
    size = 1024 + int.from_bytes(h[:4], "little") % 7169
    off = int.from_bytes(h[4:8], "little") % (MiB - size)
    with open(os.path.join(mnt, "small", "d%02d" % (i % dirs), "f%05d" % i), "wb") as f:
        f.write(pool[off:off + size])
print("seq.bin: %d MiB; small: %d files" % (seq_mib, small))
with open(sys.argv[4], "w") as f:
    f.write("%d\n" % os.stat(os.path.join(mnt, "seq.bin")).st_size)
EOF
fuse_umount

# seq.bin must be one run: the sequential read row measures the driver,
# not a fragmented layout.
ntfsinfo -v -F /seq.bin "$NEW" >"$OUT/seq.bin.info" 2>&1 || die "ntfsinfo on $NEW failed"
runs=$(sed -n 's/^Total runs: \([0-9]*\).*/\1/p' "$OUT/seq.bin.info")
[ "$runs" = 1 ] || die "seq.bin has $runs runs, not 1 (see $OUT/seq.bin.info)"
fallocate -d "$NEW"
mv "$NEW" "$IMG"
echo "$key" >"$OUT/stamp"
say NTFS "benchmark volume: ${IMG#"$TOP"/}, $(($(date +%s) - t0)) s, $(du -m "$IMG" | cut -f1) MiB on disk"
