#!/bin/sh
# build-kernel.sh VARIANT: configure (tinyconfig + configs/ fragments) and
# build bzImage and modules in build/kernel-VARIANT, incrementally, with ccache.
set -eu
. "$(dirname "$0")/../lib.sh"

V=${1:?usage: build-kernel.sh VARIANT}
src=$(variant_src "$V")
frags=$(variant_fragments "$V")
out=$(kernel_out "$V")
log=$LOGS/kernel-$V.log
mkdir -p "$out"

export KBUILD_BUILD_TIMESTAMP="2024-01-01" KBUILD_BUILD_USER=harness KBUILD_BUILD_HOST=qemu
# BASEDIR: paths under the checkout hash alike in every clone (CI, fresh clones)
export CCACHE_SLOPPINESS=time_macros CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G} CCACHE_BASEDIR="$TOP"

kmake() {
	make -C "$src" O="$out" CC="ccache gcc" HOSTCC="ccache gcc" "$@"
}

frag_files() {
	for f in $frags; do
		echo "$TOP/configs/$f.config"
	done
}

# Every symbol a fragment sets must be in the final .config, or a missing
# dependency silently dropped it (KASAN without !SLUB_TINY, for one).
verify_config() {
	bad=0
	for f in $(frag_files); do
		while IFS= read -r line; do
			case "$line" in
			CONFIG_*=*)
				grep -qx "$line" "$out/.config" || {
					echo "config: $f asks for $line, .config has: $(grep "^${line%%=*}=" "$out/.config" || echo 'not set')" >&2
					bad=1
				} ;;
			"# CONFIG_"*" is not set")
				sym=${line#"# "}
				sym=${sym%% *}
				! grep -q "^$sym=" "$out/.config" || {
					echo "config: $f asks for $sym off, .config has it on" >&2
					bad=1
				} ;;
			esac
		done <"$f"
	done
	return $bad
}

configure() {
	say CONFIG "$V: tinyconfig + $frags"
	rm -f "$out/.config"
	run_logged "config ($V)" "$LOGS/config-$V.log" sh -c "
		make -C '$src' O='$out' tinyconfig &&
		'$src/scripts/kconfig/merge_config.sh' -m -O '$out' '$out/.config' $(frag_files | tr '\n' ' ') &&
		make -C '$src' O='$out' olddefconfig"
	verify_config || die "config ($V): requested symbols missing (see above); fix configs/"
}

hash=$(cat $(frag_files) | sha256sum | cut -d' ' -f1)
if [ ! -f "$out/.config" ] || [ "$(cat "$out/.frag-hash" 2>/dev/null)" != "$hash" ]; then
	configure
	echo "$hash" >"$out/.frag-hash"
fi

# Progress: kbuild prints thousands of lines; show a count every 20 s.
say BUILD "$V kernel in ${out#"$TOP/"} (log: ${log#"$TOP/"})"
start=$(date +%s)
build_progress "kernel build ($V)" 20 "$log" kmake -j"$JOBS" bzImage modules
say BUILD "$V: done in $(($(date +%s) - start)) s ($(grep -c '^  CC' "$log") files compiled)"
