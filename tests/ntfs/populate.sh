#!/bin/sh
# populate.sh MOUNTPOINT PROFILE: fill a freshly made NTFS volume, mounted by
# ntfs-3g with -o streams_interface=windows, with the deterministic tree the
# ntfs3 tests check against.  PROFILE: full, small, bigdir, sparse1t.
# See tests/ntfs/README.md for what each object is there to exercise.
#
# Deterministic: every byte of file data comes from gen() below, seeded by
# the file's path (SHAKE-256, stable across Python versions); no clock, no
# $RANDOM.  Timestamps, MFT record numbers and cluster positions are not part
# of the manifests and may differ between builds.
set -eu

[ $# = 2 ] || { echo "usage: $0 MOUNTPOINT full|small|bigdir|sparse1t" >&2; exit 2; }
M=$1
PROFILE=$2
[ -d "$M" ] || { echo "populate: $M is not a directory" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The helper: content generator and builders of raw NTFS structures that
# ntfs-3g only takes as bytes (reparse buffers, $EA).
cat >"$tmp/h.py" <<'EOF'
import errno, hashlib, os, struct, sys

CHUNK = 1 << 16
TEXT = (b"The quick brown fox jumps over the lazy dog; "
        b"pack my box with five dozen liquor jugs.\n")

def block(kind, seed, i):
    """Block i (64 KiB) of the stream of the given kind for the seed."""
    if kind == "rand":
        return hashlib.shake_256(b"%s:%d" % (seed, i)).digest(CHUNK)
    if kind == "zero":
        return bytes(CHUNK)
    if kind == "text":
        out, n = [], i * 1024
        while sum(map(len, out)) < CHUNK:
            out.append(b"%s %08d " % (seed, n) + TEXT)
            n += 1
        return b"".join(out)[:CHUNK]
    if kind == "mixed":	# 16 KiB pieces: text, random, zeros in turn
        k = (i * 4) % 3
        parts = []
        for q in range(4):
            sub = ("text", "rand", "zero")[(k + q) % 3]
            parts.append(block(sub, seed + b"/m", i * 4 + q)[:CHUNK // 4])
        return b"".join(parts)
    raise SystemExit("unknown kind " + kind)

def stream(kind, seed, size):
    i = 0
    while size > 0:
        b = block(kind, seed, i)[:size]
        yield b
        size -= len(b)
        i += 1

def write(path, offset, size, kind, seed=None):
    """Write size bytes of the stream at offset; create the file if needed."""
    seed = (seed or path).encode()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        pos = offset
        for b in stream(kind, seed, size):
            os.pwrite(fd, b, pos)
            pos += len(b)
    finally:
        os.close(fd)

def utf16(s):
    return s.encode("utf-16-le")

def reparse(kind, target):
    """Reparse buffers, [MS-FSCC] 2.1.2.4 (symlink), 2.1.2.5 (mount point),
    and the WSL symlink (IO_REPARSE_TAG_LX_SYMLINK: version 2, UTF-8)."""
    if kind == "junction":		# target "C:\\dir"
        sub, pr = utf16("\\??\\" + target), utf16(target)
        body = struct.pack("<HHHH", 0, len(sub), len(sub) + 2, len(pr))
        body += sub + b"\0\0" + pr + b"\0\0"
        tag = 0xA0000003
    elif kind in ("symlink-abs", "symlink-rel"):
        rel = kind == "symlink-rel"
        sub = utf16(target if rel else "\\??\\" + target)
        pr = utf16(target)
        body = struct.pack("<HHHHI", len(pr), len(sub), 0, len(pr), 1 if rel else 0)
        body += pr + sub
        tag = 0xA000000C
    elif kind == "wsl":
        body = struct.pack("<I", 2) + target.encode()
        tag = 0xA000001D
    else:
        raise SystemExit("unknown reparse kind " + kind)
    return struct.pack("<IHH", tag, len(body), 0) + body

def ea(pairs):
    """$EA contents: FILE_FULL_EA_INFORMATION entries, each padded to 4
    bytes, NextEntryOffset = padded size (also for the last entry, as
    Linux's fs/ntfs3 writes it).  Names are stored as given ("user.x")."""
    out = b""
    for name, val in pairs:
        n = name.encode()
        body = struct.pack("<BBH", 0, len(n), len(val)) + n + b"\0" + val
        size = (4 + len(body) + 3) & ~3
        out += (struct.pack("<I", size) + body).ljust(size, b"\0")
    return out

def hexval(s):
    """A setfattr value: 0x-hex literal, or text."""
    return bytes.fromhex(s[2:]) if s.startswith("0x") else s.encode()

cmd = sys.argv[1]
if cmd == "write":		# write PATH OFFSET SIZE KIND [SEED]
    write(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5],
          sys.argv[6] if len(sys.argv) > 6 else None)
elif cmd == "reparse":		# reparse KIND TARGET -> hex for setfattr
    print("0x" + reparse(sys.argv[2], sys.argv[3]).hex())
elif cmd == "ea":		# ea NAME VALUE [NAME VALUE...] -> hex
    a = sys.argv[2:]
    print("0x" + ea([(a[i], hexval(a[i + 1])) for i in range(0, len(a), 2)]).hex())
elif cmd == "fragment":		# fragment DIR NAME RUNS
    # NAME and a partner file get their first clusters; then a filler takes
    # every free cluster and gives back 2*RUNS + 400 clusters at its end.
    # Growing NAME and the partner one cluster at a time in turn, each
    # allocation searches on from the file's last cluster for a free one:
    # they alternate, and NAME ends with about RUNS extents.  The slack is
    # for the MFT and the attribute list, which grow meanwhile.  The freed
    # area must stay under 4096 clusters: when the cluster after a file is
    # taken, ntfs-3g's allocator looks 4096 clusters further first.
    d, name, runs = sys.argv[2], sys.argv[3], int(sys.argv[4])
    cl = os.statvfs(d).f_bsize
    first = max(1, 4096 // cl)	# 4 KiB: non-resident even in 4 KiB records
    fill, partner, target = d + "/.filler", d + "/.partner", d + "/" + name
    seed = target.encode()
    zero = bytes(1 << 20)

    def cluster(i):
        b = block("rand", seed, i * cl // CHUNK)
        off = (i * cl) % CHUNK
        return (b + b)[off:off + cl]

    ft = os.open(target, os.O_WRONLY | os.O_CREAT, 0o644)
    fp = os.open(partner, os.O_WRONLY | os.O_CREAT, 0o644)
    for i in range(first):
        os.pwrite(ft, cluster(i), i * cl)
        os.pwrite(fp, zero[:cl], i * cl)
    fd = os.open(fill, os.O_WRONLY | os.O_CREAT, 0o644)
    step, pos = 1 << 20, 0
    while True:			# until ENOSPC, 1 MiB then cluster steps
        try:
            n = os.pwrite(fd, zero[:step], pos)
        except OSError as e:
            if e.errno != errno.ENOSPC:
                raise
            n = 0
        pos += n
        if n < step:
            if step <= cl:
                break
            step = cl
    os.ftruncate(fd, max(0, pos - (2 * runs + 400) * cl))
    os.close(fd)
    for i in range(first, first + runs):
        os.pwrite(ft, cluster(i), i * cl)
        os.pwrite(fp, zero[:cl], i * cl)
    os.close(ft)
    os.close(fp)
    os.unlink(partner)
    os.unlink(fill)
else:
    raise SystemExit("unknown command " + cmd)
EOF

h() {
	python3 "$tmp/h.py" "$@"
}

# gen PATH SIZE KIND: a file of SIZE bytes of KIND (rand, text, zero, mixed).
gen() {
	: >"$M/$1"
	[ "$2" = 0 ] || h write "$M/$1" 0 "$2" "$3" "$1"
}

# at PATH OFFSET SIZE KIND: write into (or create) a file at an offset.
at() {
	h write "$M/$1" "$2" "$3" "$4" "$1@$2"
}

attrib() {	# attrib PATH 0xHEX: Windows attributes (system.ntfs_attrib_be)
	setfattr -n system.ntfs_attrib_be -v "$2" "$M/$1"
}

reparse() {	# reparse PATH KIND TARGET (PATH exists: empty file or dir)
	setfattr -n system.ntfs_reparse_data -v "$(h reparse "$2" "$3")" "$M/$1"
}

eas() {		# eas PATH NAME VALUE...: the file's $EA (replaces it)
	_p=$1
	shift
	setfattr -n system.ntfs_ea -v "$(h ea "$@")" "$M/$_p"
}

# --- profile pieces -------------------------------------------------------

basics() {
	printf 'Hello from an NTFS test volume (%s).\n' "$PROFILE" >"$M/hello.txt"
	mkdir -p "$M/text" "$M/empty-dir"
	seq 1 5000 >"$M/text/numbers.txt"
	printf 'one line, no newline' >"$M/text/no-newline.txt"
	printf 'line1\r\nline2\r\n' >"$M/text/crlf.txt"
	gen text/lorem.txt 20000 text
}

sizes() {	# sizes N...: sizes/size-N, pseudo-random content
	mkdir -p "$M/sizes"
	for n in "$@"; do
		gen "sizes/size-$n" "$n" rand
	done
}

compressed() {
	mkdir -p "$M/compressed"
	# New files inside a directory with FILE_ATTRIBUTE_COMPRESSED are LZNT1
	# compressed.  NTFS has no compression with clusters over 4 KiB: there
	# ntfs-3g would still flag the directory (and its $INDEX_ROOT), a state
	# Windows never writes, so the flag is left off and the files are plain.
	[ "$cluster" -gt 4096 ] || attrib compressed 0x00000800
	gen compressed/text.txt 300000 text
	gen compressed/zeros.bin 1048576 zero
	gen compressed/random.bin 201234 rand
	gen compressed/mixed.bin 1050000 mixed
	gen compressed/small.txt 100 text
	gen compressed/unit-plus-one.bin 65537 text
	# holes inside a compressed file: data, 512 KiB hole, data, hole to EOF
	at compressed/holey.bin 0 100000 text
	at compressed/holey.bin 700000 100000 mixed
	truncate -s 2097152 "$M/compressed/holey.bin"
	mkdir "$M/compressed/sub"	# inherits the compressed flag
	gen compressed/sub/nested.txt 150000 text
}

sparse() {
	mkdir -p "$M/sparse"
	# hole at the start: data only in the last 4 KiB of 1 MiB
	at sparse/hole-start.bin 1044480 4096 rand
	# hole in the middle
	at sparse/hole-middle.bin 0 65536 rand
	at sparse/hole-middle.bin 983040 65536 rand
	# hole at the end
	at sparse/hole-end.bin 0 65536 rand
	truncate -s 1048576 "$M/sparse/hole-end.bin"
	# all three, odd sizes
	at sparse/holes-all.bin 300000 70001 mixed
	at sparse/holes-all.bin 2000000 12345 text
	truncate -s 3333333 "$M/sparse/holes-all.bin"
	# all hole
	truncate -s 8388608 "$M/sparse/all-hole.bin"
	# beyond 4 GiB: data at 0, across the 4 GiB boundary and at the end;
	# 8 GiB + 1000 bytes, so the manifest's .samples windows (start,
	# middle, end) each hold some of it
	at sparse/beyond-4g.bin 0 4096 rand
	at sparse/beyond-4g.bin 4294963200 8192 rand
	at sparse/beyond-4g.bin 8589934592 1000 text
}

links() {
	mkdir -p "$M/links/a" "$M/links/b" "$M/links/c"
	gen links/a/three-names.txt 3000 text
	ln "$M/links/a/three-names.txt" "$M/links/b/second-name.txt"
	ln "$M/links/a/three-names.txt" "$M/links/c/third-name.txt"
	gen links/two-in-one-dir.txt 10 text
	ln "$M/links/two-in-one-dir.txt" "$M/links/two-in-one-dir.again"
}

many_links() {	# $FILE_NAME attributes overflow the record: $ATTRIBUTE_LIST
	mkdir -p "$M/many-links"
	gen many-links/name-000-of-a-file-with-many-hard-links 5000 text
	i=1
	while [ $i -lt "$1" ]; do
		ln "$M/many-links/name-000-of-a-file-with-many-hard-links" \
			"$M/many-links/name-$(printf %03d $i)-of-a-file-with-many-hard-links"
		i=$((i + 1))
	done
}

symlinks() {	# ntfs-3g's own symlinks (Interix "IntxLNK" system files)
	mkdir -p "$M/symlinks"
	ln -s ../hello.txt "$M/symlinks/relative-file"
	ln -s /hello.txt "$M/symlinks/absolute"
	ln -s ../text "$M/symlinks/to-dir"
	ln -s does/not/exist "$M/symlinks/dangling"
	ln -s "Grüße/日本語" "$M/symlinks/unicode-target"
}

reparse_points() {	# hand-made reparse points
	mkdir -p "$M/reparse"
	mkdir "$M/reparse/junction"
	reparse reparse/junction junction 'C:\text'
	: >"$M/reparse/symlink-abs-file"
	reparse reparse/symlink-abs-file symlink-abs 'C:\hello.txt'
	: >"$M/reparse/symlink-rel-file"
	reparse reparse/symlink-rel-file symlink-rel '..\hello.txt'
	mkdir "$M/reparse/symlink-rel-dir"
	reparse reparse/symlink-rel-dir symlink-rel '..\text'
	: >"$M/reparse/symlink-dangling"
	reparse reparse/symlink-dangling symlink-abs 'C:\no\such\file'
	: >"$M/reparse/wsl-symlink"
	reparse reparse/wsl-symlink wsl '../text/numbers.txt'
}

streams() {
	mkdir -p "$M/streams/dir-with-stream"
	gen streams/with-streams.txt 1000 text
	printf 'small resident stream\n' >"$M/streams/with-streams.txt:small"
	h write "$M/streams/with-streams.txt:big" 0 100000 rand streams-big
	: >"$M/streams/with-streams.txt:empty"
	printf 'Unicode stream name\n' >"$M/streams/with-streams.txt:flux-Ωµ"
	printf 'stream on a directory\n' >"$M/streams/dir-with-stream:note"
	: >"$M/streams/only-streams"
	printf 'the unnamed stream is empty\n' >"$M/streams/only-streams:s"
}

many_streams() {	# $DATA attributes overflow the record: $ATTRIBUTE_LIST
	gen streams/many-streams.bin 100 text
	i=0
	while [ $i -lt "$1" ]; do
		printf 'stream %03d %s\n' $i "padding-to-make-it-bigger-0123456789" \
			>"$M/streams/many-streams.bin:s$(printf %03d $i)"
		i=$((i + 1))
	done
}

xattrs() {	# user.* in $EA (the layout Linux's fs/ntfs3 writes)
	mkdir -p "$M/xattrs/dir-with-ea"
	gen xattrs/file-with-ea.txt 100 text
	eas xattrs/file-with-ea.txt user.text "hello world" user.empty "" \
		user.binary 0x00ff0110fe7f80 user.long "0x$(printf 'ab%.0s' $(seq 1000))"
	eas xattrs/dir-with-ea user.on-dir "a directory EA"
	gen xattrs/one-ea.bin 5000 rand
	eas xattrs/one-ea.bin user.checksum "0x0123456789abcdef"
}

unicode() {
	mkdir -p "$M/unicode/中文目录" "$M/unicode/🎉party"
	for n in "café.txt" "naïve Ünïcödé.txt" "日本語のファイル.txt" \
		"Ελληνικά Ωμέγα.txt" "Кириллица.txt" "עברית.txt" \
		"😀 grin.txt" "𝄞 clef (U+1D11E).txt" "中文目录/文件.txt" "🎉party/🍕.txt" \
		"Case.txt" "case.txt" "CASE.txt" "ß-sharp.txt" "ẞ-SHARP.txt" \
		"with space.txt" ".dot-leading" "trailing.dot." "semi;colon,comma=eq+plus"; do
		printf '%s\n' "$n" >"$M/unicode/$n"
	done
	printf 'NFD\n' >"$M/unicode/$(printf 'e\314\201')-nfd.txt"	# e + U+0301
	printf 'NFC\n' >"$M/unicode/$(printf '\303\251')-nfc.txt"	# U+00E9
	# 255 UTF-16 units, the longest NTFS name (all ASCII: 255 bytes too)
	long=$(printf '%0255d' 0 | tr 0 L)
	printf 'longest name\n' >"$M/unicode/$long"
	# 127 emoji = 254 UTF-16 units (surrogate pairs) but 508 UTF-8 bytes: a
	# name no Linux path can carry.  Not made: ntfs-3g refuses it (NAME_MAX).
}

attributes() {
	mkdir -p "$M/attrib/hidden-dir"
	for n in readonly hidden system ro-hidden-system archive-off; do
		printf '%s\n' "$n" >"$M/attrib/$n.txt"
	done
	attrib attrib/readonly.txt 0x00000021
	attrib attrib/hidden.txt 0x00000022
	attrib attrib/system.txt 0x00000024
	attrib attrib/ro-hidden-system.txt 0x00000007
	attrib attrib/archive-off.txt 0x00000000
	attrib attrib/hidden-dir 0x00000012
}

dos_names() {	# a Win32 name plus a DOS 8.3 name on the same file
	mkdir -p "$M/dosname"
	printf 'long name with a short alias\n' >"$M/dosname/Long File Name Document.txt"
	setfattr -n system.ntfs_dos_name -v "LONGFI~1.TXT" "$M/dosname/Long File Name Document.txt"
	printf 'another\n' >"$M/dosname/another-long-name.data"
	setfattr -n system.ntfs_dos_name -v "ANOTHE~1.DAT" "$M/dosname/another-long-name.data"
	mkdir "$M/dosname/Directory With Long Name"
	setfattr -n system.ntfs_dos_name -v "DIRECT~1" "$M/dosname/Directory With Long Name"
	printf 'short\n' >"$M/dosname/SHORT.TXT"	# already 8.3: POSIX name only
}

many_files() {	# an index that needs $INDEX_ALLOCATION (several INDX blocks)
	mkdir -p "$M/many"
	python3 - "$M/many" "$1" <<'EOF'
import sys
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    with open("%s/entry-%05d.txt" % (d, i), "w") as f:
        f.write("entry %d\n" % i)
EOF
}

deep() {	# deep DEPTH: d01/d02/.../dNN/leaf.txt
	p=deep
	i=1
	while [ $i -le "$1" ]; do
		p=$p/d$(printf %02d $i)
		i=$((i + 1))
	done
	mkdir -p "$M/$p"
	printf 'depth %s\n' "$1" >"$M/$p/leaf.txt"
}

fragmented() {	# fragmented RUNS: frag/fragmented.bin with RUNS extents
	mkdir -p "$M/frag"
	h fragment "$M/frag" fragmented.bin "$1"
}

# --- profiles --------------------------------------------------------------

cluster=$(stat -f -c %S "$M")

case $PROFILE in
full)
	basics
	sizes 0 1 511 512 4095 4096 4097 65543 10485760
	compressed
	sparse
	links
	many_links 48
	symlinks
	reparse_points
	streams
	many_streams 80
	xattrs
	unicode
	attributes
	dos_names
	many_files 600
	deep 12
	# Enough runs to overflow the record (3-byte mapping pairs; 4 KiB
	# records need > 1400), capped by the volume for big clusters.
	if [ "$cluster" -le 4096 ]; then
		fragmented 1600
	else
		fragmented 300
	fi
	;;
small)
	basics
	sizes 0 1 4097 65543 3145728
	mkdir -p "$M/sparse"
	at sparse/big-hole.bin 0 4096 rand
	at sparse/big-hole.bin 83886080 4096 rand
	truncate -s 104857600 "$M/sparse/big-hole.bin"
	links
	symlinks
	mkdir -p "$M/streams"
	gen streams/with-streams.txt 1000 text
	printf 'a stream\n' >"$M/streams/with-streams.txt:s"
	mkdir -p "$M/xattrs"
	gen xattrs/file-with-ea.txt 100 text
	eas xattrs/file-with-ea.txt user.text "hello world" user.empty ""
	mkdir -p "$M/unicode"
	printf 'x\n' >"$M/unicode/日本語 😀.txt"
	deep 4
	;;
bigdir)
	basics
	mkdir -p "$M/big"
	python3 - "$M/big" <<'EOF'
import sys
d = sys.argv[1]
for i in range(100000):
    with open("%s/f%06d" % (d, i), "w") as f:
        if i % 1000 == 0:		# every thousandth one has content
            f.write("f%06d\n" % i)
for n in ("Ünïcödé-ä.txt", "日本語.txt", "😀.txt", "F000000"):
    with open("%s/%s" % (d, n), "w") as f:
        f.write(n + "\n")
EOF
	deep 64
	;;
sparse1t)
	basics
	# 768 GiB, 1 MiB of data at the start, in the middle and at the end:
	# the windows the manifest's .samples file hashes.
	big=$((768 * 1024 * 1024 * 1024))
	at huge.bin 0 1048576 rand
	at huge.bin $((big / 2)) 1048576 rand
	at huge.bin $((big - 1048576)) 1048576 rand
	;;
*)
	echo "populate: unknown profile '$PROFILE'" >&2
	exit 2
	;;
esac
