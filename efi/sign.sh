#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# efi/sign.sh APP SIGNED KEY CERT: sign the EFI application for Secure Boot with sbsign, then prove
# the signature with sbverify against CERT. KEY may be encrypted: its passphrase comes from the
# environment (SB_KEY_PASS) and the key is decrypted into a private temporary file, removed at
# once. SB_ENGINE names an OpenSSL engine (pkcs11, for a key that stays in a token): KEY is then
# the engine's key id and is passed to sbsign as it is.
# Debian's OVMF test pair, /usr/share/ovmf/PkKek-1-snakeoil.{key,pem} (passphrase "snakeoil"),
# is the default of `make efi-signed`: only OVMF_VARS_4M.snakeoil.fd trusts it, and since its
# private key is public, a real machine must never enroll it (docs/secure-boot.md).
set -euo pipefail
app=${1:?usage: efi/sign.sh APP SIGNED KEY CERT}
out=${2:?usage: efi/sign.sh APP SIGNED KEY CERT}
key=${3:?usage: efi/sign.sh APP SIGNED KEY CERT}
cert=${4:?usage: efi/sign.sh APP SIGNED KEY CERT}
for t in sbsign sbverify openssl; do
	command -v "$t" >/dev/null || { echo "efi-signed: $t is not installed (apt-get install sbsigntool openssl)" >&2; exit 2; }
done
[ -f "$app" ] || { echo "efi-signed: $app is missing (make efi)" >&2; exit 2; }
[ -f "$cert" ] || { echo "efi-signed: SB_CERT=$cert: no such certificate" >&2; exit 2; }
[ -n "${SB_ENGINE:-}" ] || [ -f "$key" ] || { echo "efi-signed: SB_KEY=$key: no such key" >&2; exit 2; }
subject=$(openssl x509 -in "$cert" -noout -subject 2>/dev/null) ||
	{ echo "efi-signed: SB_CERT=$cert is not a PEM certificate" >&2; exit 2; }

mkdir -p "$(dirname "$out")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
engine=()
if [ -n "${SB_ENGINE:-}" ]; then
	engine=(--engine "$SB_ENGINE")
elif [ -z "${SB_KEY_PASS:-}" ] && grep -q ENCRYPTED "$key"; then
	echo "efi-signed: SB_KEY=$key is encrypted: give its passphrase in SB_KEY_PASS" >&2
	exit 2
elif [ -n "${SB_KEY_PASS:-}" ]; then
	(umask 077 && openssl pkey -in "$key" -passin env:SB_KEY_PASS -out "$tmp/key.pem") ||
		{ echo "efi-signed: SB_KEY=$key cannot be decrypted with SB_KEY_PASS" >&2; exit 2; }
	key=$tmp/key.pem
fi
# sbsign's "gaps between PE/COFF sections" warning is objcopy's file alignment in gnu-efi's
# layout: the firmware hashes the image the same way sbsign does (docs/secure-boot.md)
sbsign "${engine[@]}" --key "$key" --cert "$cert" --output "$tmp/signed.efi" "$app" </dev/null 2> "$tmp/sbsign.err" ||
	{ grep -v 'gaps between PE/COFF' "$tmp/sbsign.err" >&2; echo "efi-signed: sbsign failed" >&2; exit 1; }
if ! sbverify --cert "$cert" "$tmp/signed.efi" > "$tmp/verify.out" 2>&1; then
	grep -v 'gaps between PE/COFF' "$tmp/verify.out" >&2
	echo "efi-signed: sbverify does not accept the signature against $cert" >&2
	exit 1
fi
mv "$tmp/signed.efi" "$out"
echo "efi-signed: $out signed and verified against $cert ($subject)"
# the same certificate as the snakeoil one (when the ovmf package is there to compare with)
snakeoil=$(openssl x509 -in /usr/share/ovmf/PkKek-1-snakeoil.pem -noout -fingerprint -sha256 2>/dev/null || true)
if [ -n "$snakeoil" ] && [ "$(openssl x509 -in "$cert" -noout -fingerprint -sha256)" = "$snakeoil" ]; then
	echo "efi-signed: this is Debian's OVMF snakeoil TEST key, whose private half is public: only" \
		"OVMF_VARS_4M.snakeoil.fd trusts it; never enroll it on a real machine"
fi
