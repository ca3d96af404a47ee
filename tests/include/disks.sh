# The guest's name of an attached disk.  Sourced.
# shellcheck shell=sh

# disk_dev NAME: the /dev/vd* node of the disk named NAME in HX_DISK_NAMES
# (/hx/env, in the order QEMU attached them).  virtio_blk names them as sd
# does: vda..vdz, then vdaa..vdaz, vdba..: the write boot has more than 26.
disk_dev() {
	_want=$1
	_i=0
	for _n in $HX_DISK_NAMES; do
		if [ "$_n" = "$_want" ]; then
			echo "/dev/vd$(disk_suffix "$_i")"
			return 0
		fi
		_i=$((_i + 1))
	done
	return 1
}

# disk_suffix N: the letters of the disk of 0-based index N (N < 702).
disk_suffix() {
	_k=$1
	_hi=
	if [ "$_k" -ge 26 ]; then
		_hi=$(disk_letter $((_k / 26 - 1)))
		_k=$((_k % 26))
	fi
	echo "$_hi$(disk_letter "$_k")"
}

# disk_letter N: the Nth letter (0: a).
disk_letter() {
	set -- "$1" a b c d e f g h i j k l m n o p q r s t u v w x y z
	shift $(($1 + 1))
	echo "$1"
}
