#!/usr/bin/env bash
# Installs the Debian packages the tests use (Chromium for Playwright, a Secret Service for the keychain tests)
# when any is missing. Uses sudo when not root.
set -euo pipefail
packages=(chromium gnome-keyring dbus dbus-x11 libsecret-tools)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "Installing Debian packages: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
