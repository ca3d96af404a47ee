# Top-level entry points.  Everything lands in build/ (ignored by git).
# See README.md for what each target does.

VARIANT ?= default
S := scripts

# Suites that make check runs in the debug VM (directories under tests/).
CHECK_SUITES ?= smoke futex futex-selftests

.PHONY: all run check bench tree export-patches check-series kernel modules \
	initramfs selftest-harness deps clean distclean help

all: help

help:
	@echo "make run            boot the demo VM (VARIANT=default|debug|rt|stock|stock-rt)"
	@echo "                    CMD='...' runs a command in it; IMG='a.img b.img' attaches images (RW=1 writable)"
	@echo "make check          the whole test suite (debug kernel: KASAN, UBSAN, lockdep)"
	@echo "make bench          benchmarks: ours vs the stock Debian tree, same run"
	@echo "make tree           patched kernel tree in build/src/linux, one commit per patch"
	@echo "make export-patches write the tree's commits back to patches/"
	@echo "make check-series   build every patch of the series and checkpatch it"
	@echo "make kernel         build one kernel (VARIANT=...)"
	@echo "make selftest-harness  prove the harness catches failures, oopses and hangs"

deps:
	@$(S)/deps.sh

run:
	@$(S)/run.sh $(VARIANT)

check:
	@SUITES="$(CHECK_SUITES)" $(S)/check.sh

bench:
	@$(S)/bench.sh

tree:
	@$(S)/deps.sh && $(S)/tree.sh

export-patches:
	@$(S)/export-patches.sh

check-series:
	@$(S)/deps.sh && $(S)/check-series.sh

kernel:
	@$(S)/deps.sh && $(S)/tree.sh && $(S)/build-kernel.sh $(VARIANT)

modules:
	@$(S)/build-modules.sh $(VARIANT)

initramfs:
	@$(S)/prepare.sh $(VARIANT)

selftest-harness:
	@$(S)/selftest-harness.sh

clean:
	rm -rf build/kernel-* build/modules-* build/initramfs-* build/tests build/logs

distclean:
	rm -rf build
