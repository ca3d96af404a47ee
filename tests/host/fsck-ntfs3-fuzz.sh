#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fsck.ntfs3 under AddressSanitizer and UBSan on the corruption fuzzer's
# cases (tests/fsck/README.md).  Builds fsck.ntfs3-asan (make -C tools
# O=build/tools asan), the fuzzer's base volumes (scripts/images/make-fuzz-base.sh)
# and, with the generator "make check" uses for the in-VM fuzzer
# (scripts/images/ntfs-fuzz-gen.py), the structural regression set (ids 1000001
# on) and FSCK_FUZZ_N seeded cases (seed FUZZ_SEED, default 1; N default
# 300).  Each case is the base image with the case's bytes written over it;
# the checker runs on it under "timeout 20".  A case passes when the exit
# status is 0, 4 or 8, no sanitizer reported anything and it did not time
# out; a failure is named by its case id and seed.
# TAP on stdout; exit status 0 only if every test passed.
. "$(dirname "$0")/../include/tap.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BUILD:-$top/build}
S=$top/scripts
fsck=$B/tools/fsck.ntfs3-asan
seed=${FUZZ_SEED:-1}
n=${FSCK_FUZZ_N:-300}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

quoted() {
	head -n "${2:-20}" "$1" | sed 's/^/# /'
}

build_asan() {
	make -C "$top/tools" O="$B/tools" asan >"$w/make.log" 2>&1 ||
		{ quoted "$w/make.log" 40; return 1; }
	[ -x "$fsck" ]
}
bases() {
	sh "$S/images/make-fuzz-base.sh" >"$w/base.log" 2>&1 </dev/null || { quoted "$w/base.log"; return 1; }
}
check "fsck.ntfs3-asan builds (make -C tools O=build/tools asan)" build_asan
check "the fuzzer's base volumes are built (make-fuzz-base.sh)" bases
# shellcheck disable=SC2154 # set by tap.sh
if [ "$tap_failed" != 0 ]; then
	tap_done
	exit 1
fi

imgs=$B/fuzz/base.img,$B/fuzz/base-c512.img,$B/fuzz/base-s4k.img
gen() {
	python3 "$S/images/ntfs-fuzz-gen.py" "$@" >>"$w/gen.log" 2>&1 </dev/null || { quoted "$w/gen.log"; return 1; }
}
check "ntfs-fuzz-gen.py --regress: the regression set" gen --regress "$imgs" "$w/regress"
check "ntfs-fuzz-gen.py $seed $n: the seeded cases" gen "$seed" "$n" "$imgs" "$w/cases"

# run.py CASES...: every case through the checker, two at a time (2 CPUs);
# prints "K<TAB>verdict<TAB>category<TAB>what" per case, verdict "ok" or why
# it failed.
cat >"$w/run.py" <<'EOF'
import concurrent.futures, os, re, subprocess, sys, threading

fsck, bases, work = sys.argv[1], sys.argv[2].split(","), sys.argv[3]
images = {os.path.basename(b): open(b, "rb").read() for b in bases}
SAN = re.compile(rb"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|"
                 rb"SUMMARY: (Address|Undefined|Leak)Sanitizer")
env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:symbolize=1",
           UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
tls = threading.local()

def copy(image):
    """This thread's copy of a base image (written once, then patched
    and restored in place: rewriting megabytes per case costs more than
    the check)."""
    if not hasattr(tls, "copies"):
        tls.copies = {}
    if image not in tls.copies:
        path = "%s/%s.%d" % (work, image, threading.get_ident())
        with open(path, "wb") as f:
            f.write(images[image])
        tls.copies[image] = path
    return tls.copies[image]

def verdict(r):
    if r.returncode == 124:
        return "timed out (20 s)"
    m = SAN.search(r.stderr)
    if m:
        why = r.stderr[m.start():].split(b"\n")[0].decode(errors="replace")[:200]
        # the first frames in the checker's own sources
        at = re.findall(rb" in (\S+) \S*(fsck\.ntfs3/\S+)", r.stderr[m.start():])[:3]
        if at:
            why += " at " + " < ".join("%s %s" % (f.decode(errors="replace"), p.decode(errors="replace"))
                                       for f, p in at)
        return "sanitizer: " + why
    if r.returncode not in (0, 4, 8):
        tail = r.stderr.strip().split(b"\n")[-1]
        return "exit status %d: %s" % (r.returncode, tail.decode(errors="replace")[:200])
    return "ok"

def one(job):
    k, cat, spec, image, what = job
    path = copy(image)
    patches = []
    for part in spec.split(","):
        o, h = part.split(":")
        patches.append((int(o), bytes.fromhex(h)))
    fd = os.open(path, os.O_RDWR)
    try:
        for o, b in patches:
            os.pwrite(fd, b, o)
        r = subprocess.run(["timeout", "20", fsck, "-n", path], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env)
    finally:
        base = images[image]
        for o, b in patches:
            os.pwrite(fd, base[o:o + len(b)], o)
            if o + len(b) > len(base):	# a patch past the end: cut it off again
                os.ftruncate(fd, len(base))
        os.close(fd)
    return "%s\t%s\t%s\t%s" % (k, verdict(r), cat, what[:150])

jobs = []
for cases in sys.argv[4:]:
    for line in open(cases):
        if line.startswith("#"):
            continue
        k, cat, spec, image, what = line.rstrip("\n").split("\t", 4)
        if cat != "skip":
            jobs.append((k, cat, spec, image, what))
with concurrent.futures.ThreadPoolExecutor(2) as pool:
    for out in pool.map(one, jobs):
        print(out, flush=True)
EOF

start=$(date +%s)
python3 "$w/run.py" "$fsck" "$imgs" "$w" "$w/regress" "$w/cases" >"$w/results" 2>"$w/run.err"
echo "# $(wc -l <"$w/results") cases in $(($(date +%s) - start)) s"
[ -s "$w/run.err" ] && quoted "$w/run.err"

# verdicts FIRST LAST WANT DESC: the cases with ids FIRST..LAST all passed,
# and there are WANT of them; each failure as a comment (id, seed, why).
verdicts() {
	awk -F '\t' -v lo="$1" -v hi="$2" -v want="$3" -v seed="$seed" '
		$1 >= lo && $1 <= hi { n++
			if ($2 != "ok") { bad++; printf "# case %s (seed %s, %s): %s [%s]\n", $1, seed, $3, $2, $4 } }
		END { if (n != want) printf "# %d cases ran, %d expected\n", n, want
			exit !(n == want && !bad) }' "$w/results"
}
nreg=$(grep -vc '^#' "$w/regress")
check "regression set: $nreg cases, exit 0/4/8, no sanitizer report, no timeout" \
	verdicts 1000001 1999999 38
check "seed $seed: $n cases, exit 0/4/8, no sanitizer report, no timeout" \
	verdicts 1 999999 "$n"
tap_done
