# Top-level entry points.  Everything lands in build/ (ignored by git).
# See README.md for what each target does.

# VARIANT picks the kernel of every target that boots one.  Each target has
# its own default (make run: default, make fuzz: debug, make rt-boots: rt,
# ...); $(V_GIVEN) is VARIANT as given on the command line or in the
# environment, empty when it was not, so that "VARIANT ?= default" below
# does not hide the per-target default.
V_GIVEN := $(if $(filter undefined,$(origin VARIANT)),,$(VARIANT))
VARIANT ?= default
# variant_or DEFAULT: VARIANT=... for a script, the given one or DEFAULT.
variant_or = VARIANT="$(or $(V_GIVEN),$(1))"
S := scripts

# make run CMD='echo $$HOME' reaches the VM verbatim: make would expand
# every $ of CMD in the environment it hands to the recipe, so CMD becomes a
# simply expanded variable holding its unexpanded text.
ifneq ($(origin CMD),undefined)
override CMD := $(value CMD)
export CMD
endif

# What make check boots: VARIANT:suite,suite (suites are tests/ directories).
# Our own tests run on the debug kernel (KASAN, UBSAN, lockdep).  The tree's
# futex selftests run on it under QEMU -icount (+icount): futex_requeue gives
# its waiters a 30 ms timeout that plain TCG on the KASAN kernel overruns.
# The 100 000-entry directory (ntfs-big) is too slow on KASAN: it runs on
# the distro boot, a non-debug kernel that costs no kernel build (the
# default kernel was built for this one boot of 4 results).
# ntfs-fuzz: 300 seeded corruption cases (FUZZ_N, FUZZ_SEED; make fuzz for more).
# ntfs-write (the write-path suite, docs/test/ntfs-write.md) boots on its own:
# its volumes are attached disks, which ntfs-read would walk; so does
# ntfs-geometry (the write workload on every cluster size, 4 KiB sectors).
# The rt kernel (PREEMPT_RT + lock debugging, issue 5) runs tests/rt
# (lockdep self-tests, locktorture per lock type, test-ww_mutex, hx_rtlocks,
# rt-tests) and the tree's futex selftests under -icount; "@N" bounds a boot
# to N seconds.  distro: Debian's own newest 6.12 kernel with our module
# built by DKMS against its headers (scripts/distro/check-distro.sh, issue 20):
# the module must load in place of the stock one and read as on ours.
CHECK_BOOTS ?= debug:smoke,futex,ntfs-read,ntfs-fuzz debug:ntfs-write debug:ntfs-geometry \
	debug+icount:futex-selftests \
	distro:distro,ntfs-read,ntfs-big rt:smoke,rt@1200 rt+icount:futex-selftests@600

.PHONY: all run check check-fragments fuzz bench tools install xfstests xfstests-smoke deb deb-kernel deb-kernel-boot deb-kernel-install check-distro bench-rt rt-soak rt-boots tree export-patches check-series kernel modules \
	initramfs selftest-harness deps clean distclean help

all: help

help:
	@echo "make run            boot the demo VM (VARIANT=default|debug|rt|stock|stock-rt)"
	@echo "                    CMD='...' runs a command in it; IMG='a.img b.img' attaches images (RW=1 writable)"
	@echo "make check          the whole test suite (debug kernel: KASAN, UBSAN, lockdep)"
	@echo "make check-write    the NTFS write-path tests alone (DRIVER=ours|intree)"
	@echo "make check-fragments  a file of 50 000 fragments (FRAGMENTS=N), read back four ways"
	@echo "make check-geometry the write workload on every NTFS cluster size and 4 KiB sectors"
	@echo "make check-write-big  the write suite's big directories at 100 000 entries (N=...), and ntfs-3g's changed"
	@echo "make stress-ntfs    random operations on ntfs3 for DURATION=900 seconds, then checked"
	@echo "make fuzz           the ntfs3 corruption fuzzer alone (N=1000 cases, SEED=1)"
	@echo "make bench          benchmarks: ours vs the stock Debian tree, same run"
	@echo "make bench-ntfs     NTFS benchmark: ours vs in-tree ntfs3 vs ntfs-3g (also in make bench)"
	@echo "make bench-fsck     fsck.ntfs3 on 100 000 files against ntfsfix -n and ntfsls (also in make bench)"
	@echo "make bench-rt       RT locking benchmark: locktorture + hackbench, ours vs stock RT (also in make bench)"
	@echo "make rt-soak        every locktorture type for 10 minutes on the rt kernel"
	@echo "make rt-boots       the tests/rt suite in N=10 boots of the rt kernel, each judged like make check"
	@echo "make tree           patched kernel tree in build/src/linux, one commit per patch"
	@echo "make export-patches write the tree's commits back to patches/"
	@echo "make check-series   build every patch of the series and checkpatch it"
	@echo "make kernel         build one kernel (VARIANT=...)"
	@echo "make selftest-harness  prove the harness catches failures, oopses and hangs"
	@echo "make tools          build fsck.ntfs3 (tools/) into build/tools/"
	@echo "make install        install fsck.ntfs3 and its man page (DESTDIR=, PREFIX=/usr)"
	@echo "make xfstests       fstests in QEMU against our ntfs3 (TESTS=, GROUP=, DRIVER=intree, XFSTESTS_SRC=, XFSTESTS_MOUNT=sparse,acl)"
	@echo "make xfstests-smoke a short fstests list (about 10 tests)"
	@echo "make deb            Debian packages: ntfs3-dkms and ntfs3-tools (build/deb/)"
	@echo "make deb-kernel     a Debian package of our patched kernel (VARIANT=default|rt)"
	@echo "make deb-kernel-boot  boot that package's kernel and modules in QEMU (smoke test)"
	@echo "make deb-kernel-install  apt-get install/remove that package and its headers in a Debian 12 chroot"
	@echo "make check-distro   our module via DKMS on Debian's own 6.12 kernel, in QEMU"

deps:
	@$(S)/build/deps.sh

# Userspace tools (tools/Makefile builds them on its own too).
tools:
	@$(MAKE) -s -C tools O=$(CURDIR)/build/tools

PREFIX ?= /usr
install: tools
	@$(MAKE) -s -C tools O=$(CURDIR)/build/tools DESTDIR=$(DESTDIR) PREFIX=$(PREFIX) install

# fstests inside QEMU (hours under TCG; not part of make check).
xfstests:
	@TESTS="$(TESTS)" GROUP="$(GROUP)" DRIVER="$(DRIVER)" XFSTESTS_SRC="$(XFSTESTS_SRC)" \
		XFSTESTS_MOUNT="$(XFSTESTS_MOUNT)" $(call variant_or,default) $(S)/test/xfstests.sh

xfstests-smoke:
	@XFSTESTS_SMOKE=1 DRIVER="$(DRIVER)" XFSTESTS_SRC="$(XFSTESTS_SRC)" $(call variant_or,default) $(S)/test/xfstests.sh

# Debian packaging (docs/install.md).
deb:
	@$(S)/distro/deb.sh

deb-kernel:
	@$(S)/distro/deb-kernel.sh $(VARIANT)

deb-kernel-boot:
	@$(S)/distro/deb-kernel-boot.sh $(VARIANT)

deb-kernel-install:
	@$(S)/distro/deb-kernel-install.sh $(VARIANT)

check-distro:
	@DISTRO_KERNEL="$(DISTRO_KERNEL)" $(S)/distro/check-distro.sh

run:
	@$(S)/vm/run.sh $(VARIANT)

check:
	@BOOTS="$(CHECK_BOOTS)" $(S)/test/check.sh

# The write-path tests alone (docs/test/ntfs-write.md): tests/ntfs-write on
# the debug kernel, then ntfs-3g and fsck.ntfs3 on the volumes on the host.
# DRIVER=intree tests the in-tree ntfs3 (the reference); BOOT=default:ntfs-write
# for the faster kernel.  make check runs it too (its own debug boot).
.PHONY: check-write
check-write:
	@BOOT="$(or $(BOOT),debug:ntfs-write)" NTFS_WRITE_DRIVER="$(or $(DRIVER),ours)" $(S)/test/check-write.sh

# The write workload on volumes of every cluster size from 512 B to 2 MiB and
# with 4 KiB sectors (tests/ntfs-geometry), checked like make check-write.
.PHONY: check-geometry
check-geometry:
	@BOOT="$(or $(BOOT),debug:ntfs-geometry)" WRITE_BOOT_NAME=geometry \
		NTFS_WRITE_DRIVER="$(or $(DRIVER),ours)" $(S)/test/check-write.sh

# The random-operation stress of the write suite (tests/ntfs-write/96-stress.sh:
# 4 writers, 2 readers, seeded) for DURATION seconds (default 900; SEED=N),
# then the same checks as make check-write (live, remount, in-tree ntfs3,
# ntfs-3g, fsck.ntfs3).  Logs: build/logs/boot-stress-DRIVER-VARIANT/.
STRESS_S = $(or $(DURATION),900)
.PHONY: stress-ntfs
stress-ntfs:
	@NTFS_WRITE_ONLY=stress NTFS_STRESS_SECONDS=$(STRESS_S) NTFS_STRESS_SEED="$(SEED)" \
		TEST_TIMEOUT=$$(($(STRESS_S) + 1800)) WRITE_BOOT_NAME=stress \
		BOOT="$(or $(BOOT),debug:ntfs-write)@$$(($(STRESS_S) + 2700))" \
		NTFS_WRITE_DRIVER="$(or $(DRIVER),ours)" $(S)/test/check-write.sh

# The write suite's directories of 2 000 entries at the issue's 100 000
# (tests/ntfs-write/40-many.sh: created and listed, rm -rf in one pass,
# emptied by a glob; N=...), on a 1 GiB volume, then the same checks as
# make check-write.  The default kernel: KASAN under TCG is too slow for
# 400 000 creates.
.PHONY: check-write-big
check-write-big:
	@NTFS_WRITE_ONLY="many bigdir" NTFS_MANY_N=$(or $(N),100000) NTFS_WRITE_SIZE=1G NTFS_WRITE_OUT_SIZE=256M \
		TEST_TIMEOUT=9000 WRITE_BOOT_NAME=big \
		BOOT="$(or $(BOOT),default:ntfs-write)@10800" \
		NTFS_WRITE_DRIVER="$(or $(DRIVER),ours)" $(S)/test/check-write.sh

# A file of 50 000 fragments (FRAGMENTS=N) written, cut, appended and read
# back by ours, the in-tree ntfs3, ntfs-3g and fsck.ntfs3: about 6 minutes
# on the distro kernel (VARIANT=... for another).
check-fragments:
	@FRAGMENTS="$(or $(FRAGMENTS),50000)" $(call variant_or,distro) $(S)/test/ntfs-fragments.sh

# The ntfs3 corruption fuzzer alone on the debug kernel: make fuzz N=3000 SEED=7
fuzz:
	@FUZZ_N="$(or $(N),$(FUZZ_N))" FUZZ_SEED="$(or $(SEED),$(FUZZ_SEED))" $(call variant_or,debug) $(S)/test/ntfs-fuzz.sh

bench:
	@$(call variant_or,default) $(S)/bench/bench.sh
	@$(call variant_or,default) $(S)/bench/bench-ntfs.sh
	@$(call variant_or,rt-nodebug) $(S)/bench/bench-rt.sh
	@bench/fsck/run.sh

# fsck.ntfs3 on 100 000 files, on the host (docs/bench/fsck.md).
.PHONY: bench-fsck
bench-fsck:
	@bench/fsck/run.sh

# RT locking benchmark alone (docs/bench/rt.md): locktorture and hackbench
# on non-debug RT kernels, ours vs stock.
bench-rt:
	@$(call variant_or,rt-nodebug) $(S)/bench/bench-rt.sh

# Every locktorture type for 10 minutes on the rt kernel (RT_SOAK_SECONDS).
rt-soak:
	@$(call variant_or,rt) $(S)/test/rt-soak.sh

# The tests/rt suite in N boots (default 10) of the rt kernel, short
# locktorture runs (RT_BOOTS_LT_SECONDS): problems that show on some boots.
rt-boots:
	@RT_BOOTS="$(or $(N),$(RT_BOOTS))" $(call variant_or,rt) $(S)/test/rt-boots.sh

# The NTFS benchmark alone (docs/bench/ntfs.md).
.PHONY: bench-ntfs
bench-ntfs:
	@$(call variant_or,default) $(S)/bench/bench-ntfs.sh

tree:
	@$(S)/build/deps.sh && $(S)/build/tree.sh

export-patches:
	@$(S)/build/export-patches.sh

check-series:
	@$(S)/build/deps.sh && $(S)/build/check-series.sh

kernel:
	@$(S)/build/deps.sh && $(S)/build/tree.sh && $(S)/build/build-kernel.sh $(VARIANT)

modules:
	@$(S)/build/build-modules.sh $(VARIANT)

initramfs:
	@$(S)/build/prepare.sh $(VARIANT)

selftest-harness:
	@$(call variant_or,debug) $(S)/test/selftest-harness.sh

clean:
	rm -rf build/kernel-* build/modules-* build/initramfs-* build/tests build/logs

distclean:
	rm -rf build
