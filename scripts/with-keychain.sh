#!/usr/bin/env bash
# Runs a command against a real, private OS keychain: gnome-keyring's Secret Service on a private D-Bus session,
# with HOME and the XDG folders in a temp folder so a developer's own keychain is never touched.
set -euo pipefail
if ! command -v dbus-run-session >/dev/null || ! command -v gnome-keyring-daemon >/dev/null; then
  echo "with-keychain: needs the Debian packages dbus, dbus-x11 and gnome-keyring (see .ci/run)" >&2
  exit 1
fi
# npm and other tools keep using the real caches.
export npm_config_cache="${npm_config_cache:-$HOME/.npm}"
keyring_home=$(mktemp -d)
trap 'rm -rf "$keyring_home"' EXIT
export HOME="$keyring_home" XDG_DATA_HOME="$keyring_home/.local/share" XDG_RUNTIME_DIR="$keyring_home/run"
export XDG_CONFIG_HOME="$keyring_home/.config" XDG_CACHE_HOME="$keyring_home/.cache"
mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME"
chmod 700 "$XDG_RUNTIME_DIR"
exec dbus-run-session -- bash -c '
  eval "$(printf test | gnome-keyring-daemon --unlock --components=secrets)"
  export GNOME_KEYRING_CONTROL MENTOR_ADMIN_KEYCHAIN_READY=1
  exec "$@"' with-keychain "$@"
