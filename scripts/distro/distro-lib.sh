# Debian's own 6.12 kernels for check-distro.sh and friends: pick a version
# apt offers, download its packages with apt-get download (nothing is
# installed on the host), unpack them under build/distro/KVER/root and build
# our module against the headers with DKMS in a private tree.  Sourced
# after lib.sh.
# shellcheck shell=sh

DISTRO=$BUILD/distro
DEBS=$DISTRO/debs
mkdir -p "$DEBS"

# distro_versions FLAVOUR: the ABIs ("6.12.118+deb12") with a
# linux-headers-ABI-FLAVOUR package in apt's lists, oldest first.
distro_versions() {
	apt-cache search --names-only "^linux-headers-6\.12\.[0-9]+\+deb[0-9]+-$1\$" |
		sed -n "s/^linux-headers-\(6\.12\.[0-9]*+deb[0-9]*\)-$1 .*/\1/p" | sort -V
}

# distro_abi FLAVOUR [WANT]: the newest ABI, or the one WANT names
# ("6.12.115", "6.12.115+deb12" or "6.12.115+deb12-amd64").
distro_abi() {
	all=$(distro_versions "$1")
	[ -n "$all" ] || die "apt offers no linux-headers-6.12.*-$1; run apt-get update (bookworm-backports or bookworm-security must be in sources.list)"
	want=${2:-}
	if [ -z "$want" ]; then
		echo "$all" | tail -n 1
		return
	fi
	want=${want%-"$1"}
	case "$want" in *+*) ;; *) want=$want+deb12 ;; esac
	echo "$all" | grep -qx "$want" ||
		die "DISTRO_KERNEL=$2: apt offers no linux-headers-$want-$1; it offers: $(echo "$all" | tr '\n' ' ')"
	echo "$want"
}

# distro_download PKG...: .debs into build/distro/debs, once.
distro_download() {
	for _pkg in "$@"; do
		ls "$DEBS/${_pkg}_"*.deb >/dev/null 2>&1 && continue
		say APT "download $_pkg"
		(cd "$DEBS" && apt-get download "$_pkg" >"$LOGS/distro-apt-$_pkg.log" 2>&1) ||
			{ cat "$LOGS/distro-apt-$_pkg.log" >&2; die "apt-get download $_pkg failed"; }
	done
}

# distro_fetch KVER [image]: the headers of KVER (and, with "image", the
# kernel image) downloaded and unpacked into $DISTRO/KVER/root.  Sets
# DROOT, KHDR (the headers' build directory) and DEBS_USED (the .debs).
distro_fetch() {
	k=$1
	pkgs="linux-headers-$k"
	# linux-headers-KVER needs its -common (-common-rt) and linux-kbuild
	pkgs="$pkgs $(apt-cache show --no-all-versions "linux-headers-$k" | sed -n 's/^Depends: //p' |
		tr ',' '\n' | sed 's/(.*//; s/|.*//; s/ //g' | grep -E '^linux-(headers|kbuild)-' | tr '\n' ' ')"
	if [ "${2:-}" = image ]; then
		if apt-cache show "linux-image-$k-unsigned" >/dev/null 2>&1; then
			pkgs="$pkgs linux-image-$k-unsigned"
		else
			pkgs="$pkgs linux-image-$k"
		fi
	fi
	# shellcheck disable=SC2086
	distro_download $pkgs
	DROOT=$DISTRO/$k/root
	KHDR=$DROOT/usr/src/linux-headers-$k
	DEBS_USED=""
	for _pkg in $pkgs; do
		DEBS_USED="$DEBS_USED $(ls "$DEBS/${_pkg}_"*.deb | tail -n 1)"
	done
	# already unpacked (maybe with more, e.g. the image): nothing to do
	have=$(cat "$DROOT/.hx-debs" 2>/dev/null || true)
	missing=""
	for _deb in $DEBS_USED; do
		case " $have " in *" $_deb "*) ;; *) missing="$missing $_deb" ;; esac
	done
	[ -z "$missing" ] && return
	say UNPACK "$pkgs-> ${DROOT#"$TOP/"}"
	rm -rf "$DROOT"
	mkdir -p "$DROOT"
	for _deb in $DEBS_USED; do
		dpkg-deb -x "$_deb" "$DROOT" || die "dpkg-deb -x $_deb failed"
	done
	# The headers' Makefile includes the -common tree by its installed
	# path, /usr/src/...: point it at the unpacked copy.
	sed -i "s|^include /usr/src/|include $DROOT/usr/src/|" "$KHDR/Makefile"
	echo "$DEBS_USED" >"$DROOT/.hx-debs"
}

# distro_dkms_build KVER: ntfs3/ built by DKMS ("dkms add" + "dkms build",
# ntfs3/dkms.conf) against the unpacked headers, in a private DKMS tree
# (build/distro/KVER/dkms, or DISTRO_DKMS_TREE); no /var/lib/dkms, no /lib/modules on the host.
# Fails on a compiler warning.  Sets DKO to the built ntfs3.ko.
distro_dkms_build() {
	k=$1
	ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$TOP/ntfs3/dkms.conf")
	_t=${DISTRO_DKMS_TREE:-$DISTRO/$k/dkms}
	_log=$LOGS/distro-dkms-$k.log
	rm -rf "$_t"
	mkdir -p "$_t/src" "$_t/tree" "$_t/inst"
	cp -r "$TOP/ntfs3" "$_t/src/ntfs3-$ver"
	rm -f "$_t/src/ntfs3-$ver"/*.o "$_t/src/ntfs3-$ver"/*.ko
	say DKMS "ntfs3 $ver for $k (private tree ${_t#"$TOP/"}, log: ${_log#"$TOP/"})"
	for step in add build; do
		run_logged "dkms $step ntfs3 $ver for $k" "$_log.$step" \
			dkms "$step" --dkmstree "$_t/tree" --sourcetree "$_t/src" --installtree "$_t/inst" \
			-m ntfs3 -v "$ver" -k "$k" --kernelsourcedir "$KHDR"
	done
	cat "$_log.add" "$_log.build" "$_t/tree/ntfs3/$ver/$k"/*/log/make.log >"$_log" 2>/dev/null
	rm -f "$_log.add" "$_log.build"
	if grep -q 'warning:' "$_log"; then
		grep 'warning:' "$_log" >&2
		die "ntfs3 builds with warnings against Debian's $k headers; log: $_log"
	fi
	DKO=$(find "$_t/tree/ntfs3/$ver/$k" -name ntfs3.ko | head -n 1)
	[ -n "$DKO" ] || die "dkms build for $k made no ntfs3.ko; log: $_log"
	vm=$(modinfo -F vermagic "$DKO" | cut -d' ' -f1)
	[ "$vm" = "$k" ] || die "the DKMS-built ntfs3.ko has vermagic '$vm', not $k"
}

# stage_modules ROOT KVER STAGE MODULE...: copy MODULEs of the kernel KVER
# unpacked under ROOT, with everything they depend on, into STAGE's
# lib/modules/KVER, decompressed (busybox's modprobe and insmod hand the
# file to init_module as it is), with modules.builtin and modules.order.
stage_modules() {
	_root=$1 _k=$2 _stage=$3
	shift 3
	_mods=$_root/lib/modules/$_k
	for _m in "$@"; do
		modprobe -d "$_root" -S "$_k" --show-depends "$_m" ||
			die "module $_m is not in the kernel $_k under ${_root#"$TOP/"}"
	done | awk '$1 == "insmod" { print $2 }' | sort -u | while read -r _f; do
		_rel=${_f#"$_mods/"}
		mkdir -p "$(dirname "$_stage/lib/modules/$_k/$_rel")"
		case "$_f" in
		*.xz) xz -dc "$_f" >"$_stage/lib/modules/$_k/${_rel%.xz}" ;;
		*.zst) zstd -qdc "$_f" >"$_stage/lib/modules/$_k/${_rel%.zst}" ;;
		*.gz) gzip -dc "$_f" >"$_stage/lib/modules/$_k/${_rel%.gz}" ;;
		*) cp "$_f" "$_stage/lib/modules/$_k/$_rel" ;;
		esac
	done
	cp "$_mods/modules.builtin" "$_mods/modules.builtin.modinfo" "$_mods/modules.order" \
		"$_stage/lib/modules/$_k/"
}
