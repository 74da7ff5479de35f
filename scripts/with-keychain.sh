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
  # The login keyring is unlocked with a throwaway password. Should its daemon ever be replaced by one D-Bus
  # activates on its own (a race at start on a loaded machine, or the daemon going away), that one finds the keyring
  # locked and every keychain call fails with "unlock prompt was dismissed": so wait until it answers before the
  # command starts, and watch it while the command runs, unlocking it again if it stops answering.
  unlock() { eval "$(printf test | gnome-keyring-daemon "$@" --unlock --components=secrets)"; }
  answers() { [ "$(timeout 20 secret-tool lookup mentor-admin-keychain probe 2>/dev/null)" = ok ]; }
  store_probe() { printf ok | timeout 20 secret-tool store --label=probe mentor-admin-keychain probe 2>/dev/null; }
  unlock
  for attempt in 1 2 3 4 5 6 7 8 9 10; do
    store_probe && answers && break
    [ "$attempt" = 10 ] && { echo "with-keychain: the Secret Service does not answer" >&2; exit 1; }
    sleep 1
    unlock --replace
  done
  export GNOME_KEYRING_CONTROL MENTOR_ADMIN_KEYCHAIN_READY=1
  ( while sleep 2; do
      answers || { echo "with-keychain: the Secret Service stopped answering; unlocking it again" >&2; unlock --replace; store_probe; }
    done ) &
  watchdog=$!
  "$@" && status=0 || status=$?
  kill "$watchdog" 2>/dev/null
  exit "$status"' with-keychain "$@"
