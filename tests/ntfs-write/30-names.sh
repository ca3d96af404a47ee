#!/bin/sh
# names: Unicode names (Latin accents, CJK, emoji as surrogate pairs,
# combining marks), case twins (Name, name, NAME as three files), names
# Windows cannot use (POSIX namespace), and the length limit: 255 UTF-16
# units is the longest name (also when it is 510 or 509 UTF-8 bytes, which
# tmpfs cannot hold: those are added to the expected tree explicitly),
# 256 units is ENAMETOOLONG, whether in ASCII, accents or surrogate pairs.
# Renames between such names.  Frame: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh

workload() {
	d=$1
	x OK "mkdir unicode" mkdir "$d/unicode"
	seed=400
	for n in "é" "Ünïcödé ñame" "日本語のファイル名" "中文目录" "😀 emoji" \
		"🎉🎊 two pairs" "e\xcc\x81 combining" "Ω≈ç√∫" "ﬁ ligature" "a b  c" \
		" leading space" "trailing.dot." "..." "-dash" "x"; do
		n=$(printf "$n")
		seed=$((seed + 1))
		x OK "create '$n'" pwrite "$d/unicode/$n" 0 $((seed * 3)) $seed
	done
	x OK "mkdir a directory with a Unicode name" mkdir "$d/unicode/ディレクトリ 📁"
	x OK "a file in it" pwrite "$d/unicode/ディレクトリ 📁/ファイル" 0 1000 450
	x OK "rename a Unicode name to another" rename "$d/unicode/😀 emoji" "$d/unicode/😀 renamed ✓"
	x ENOENT "the old Unicode name is gone" unlink "$d/unicode/😀 emoji"

	x OK "mkdir case" mkdir "$d/case"
	x OK "Name" pwrite "$d/case/Name" 0 10 460
	x OK "name (a case twin)" pwrite "$d/case/name" 0 20 461
	x OK "NAME (a third)" pwrite "$d/case/NAME" 0 30 462
	x OK "Ä" pwrite "$d/case/Ä" 0 40 463
	x OK "ä (non-ASCII case twin)" pwrite "$d/case/ä" 0 50 464
	x OK "a directory Dir" mkdir "$d/case/Dir"
	x OK "and a file dir" pwrite "$d/case/dir" 0 60 465
	x EEXIST "create of an existing twin" create "$d/case/name"
	x OK "unlink one twin" unlink "$d/case/NAME"
	is 20 "the other twins stay: name" stat -c %s "$d/case/name"
	is 10 "the other twins stay: Name" stat -c %s "$d/case/Name"
	x OK "rename a twin onto another (replaces it)" rename "$d/case/Ä" "$d/case/ä"
	x OK "rename to a different case only" rename "$d/case/dir" "$d/case/DIR"

	x OK "mkdir posix" mkdir "$d/posix"
	for n in 'a:b' 'star*' 'q?' 'quote"' 'lt<gt>' 'pipe|' 'back\slash' 'CON' 'nul.txt' 'tail '; do
		seed=$((seed + 1))
		x OK "create '$n' (not a Windows name)" pwrite "$d/posix/$n" 0 7 $seed
	done

	x OK "mkdir long" mkdir "$d/long"
	a255=$("$FSOPS" name a 255)
	x OK "255 ASCII characters" pwrite "$d/long/$a255" 0 255 480
	x ENAMETOOLONG "256 ASCII characters" create "$d/long/$("$FSOPS" name a 256)"
	x ENAMETOOLONG "256 é (256 units, 512 bytes)" create "$d/long/$("$FSOPS" name é 256)"
	x ENAMETOOLONG "128 emoji (256 units as surrogate pairs)" create "$d/long/$("$FSOPS" name 😀 128)"
	x ENAMETOOLONG "mkdir with 256 units" mkdir "$d/long/$("$FSOPS" name b 256)"
	x ENAMETOOLONG "rename to 256 units" rename "$d/long/$a255" "$d/long/$("$FSOPS" name c 256)"
	x OK "rename 255 to another 255-unit name" rename "$d/long/$a255" "$d/long/$("$FSOPS" name z 255)"
	e255=$("$FSOPS" name é 255)
	p255=$("$FSOPS" name 😀 127 x)
	expect_file "long/$e255" 510 481
	expect_file "long/$p255" 509 482
	if on_volume; then
		x OK "255 é (255 units, 510 bytes)" pwrite "$d/long/$e255" 0 510 481
		x OK "127 emoji + 1 (255 units, 509 bytes)" pwrite "$d/long/$p255" 0 509 482
	fi
}

run_workload names
write_done
