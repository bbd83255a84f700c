#!/bin/bash
# Print the Debian 6.12 kernel release to build and boot against: the newest
# 6.12.*-amd64 for which both the headers (/lib/modules/$KVER/build) and the
# image (/boot/vmlinuz-$KVER) are installed. KVER in the environment wins.
set -u
if [ -n "${KVER:-}" ]; then
	if [ -e "/lib/modules/$KVER/build/Makefile" ] && [ -e "/boot/vmlinuz-$KVER" ]; then
		echo "$KVER"; exit 0
	fi
	echo "kver: KVER=$KVER is set but its headers or image are missing" >&2
	exit 1
fi

headers="" images="" both=""
for d in /lib/modules/6.12.*-amd64; do
	[ -e "$d/build/Makefile" ] && headers="$headers ${d##*/}"
done
for f in /boot/vmlinuz-6.12.*-amd64; do
	[ -e "$f" ] && images="$images ${f#/boot/vmlinuz-}"
done
for k in $headers; do
	case " $images " in *" $k "*) both="$both $k" ;; esac
done
if [ -z "$both" ]; then
	cat >&2 <<MSG
kver: no Debian 6.12 kernel has both headers and image installed.
  headers found:${headers:- none}
  images found: ${images:- none}
  Install (or upgrade together) linux-headers-6.12-amd64 and
  linux-image-6.12-amd64 so their versions agree: run 'make deps'.
MSG
	exit 1
fi
printf '%s\n' $both | sort -V | tail -n 1
