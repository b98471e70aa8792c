#!/usr/bin/env bash
# secret-service.sh with|without COMMAND...: runs COMMAND in a home of its own (a temporary HOME
# and XDG folders, removed afterwards), so that nothing touches the user's keyring or settings:
#   with     in a private D-Bus session (dbus-run-session) where gnome-keyring-daemon serves the
#            Secret Service: a real keychain, its login keyring made and unlocked with a
#            throwaway password;
#   without  with no D-Bus session bus at all, and nothing that could start one (no DISPLAY for
#            an autolaunch, an empty runtime folder), as on a server or in a bare container.
# COMMAND finds the temporary home in $HOME. Exit status: COMMAND's; 77 (ctest: skipped) when
# `with` finds dbus-run-session or gnome-keyring-daemon missing (the Makefile's PACKAGES have them).
set -euo pipefail

mode=${1:?usage: secret-service.sh with|without COMMAND...}
shift

home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
mkdir -p "$home/.config" "$home/.local/share" "$home/.cache" "$home/run"
chmod 700 "$home/run"
export HOME=$home XDG_CONFIG_HOME=$home/.config XDG_DATA_HOME=$home/.local/share \
    XDG_CACHE_HOME=$home/.cache XDG_RUNTIME_DIR=$home/run
# The tests refuse to run without this: they would touch the real keyring and settings.
export HOURGLASS_PRIVATE_HOME=$home
unset DBUS_SESSION_BUS_ADDRESS DISPLAY WAYLAND_DISPLAY GNOME_KEYRING_CONTROL XDG_CURRENT_DESKTOP

case $mode in
without)
    "$@"
    ;;
with)
    for tool in dbus-run-session dbus-send gnome-keyring-daemon; do
        if ! command -v "$tool" >/dev/null; then
            echo "SKIP: $tool is missing"
            exit 77
        fi
    done
    # Inside the session: the daemon in the foreground of a background job (so that its pid is
    # known and it is ended by it), then bounded polling until the Secret Service has its name.
    # shellcheck disable=SC2016 # expanded by the inner shell
    dbus-run-session -- bash -c '
        set -euo pipefail
        printf throwaway | gnome-keyring-daemon --foreground --unlock --components=secrets \
            >"$HOME/keyring.log" 2>&1 &
        daemon=$!
        trap "kill $daemon 2>/dev/null || true" EXIT
        for _ in $(seq 100); do
            if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
                org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null |
                grep -q "boolean true"; then
                "$@"
                exit
            fi
            sleep 0.1
        done
        echo "FAIL: gnome-keyring-daemon did not serve the Secret Service within 10 s:"
        cat "$HOME/keyring.log"
        exit 1
    ' secret-service "$@"
    ;;
*)
    echo "usage: secret-service.sh with|without COMMAND..." >&2
    exit 2
    ;;
esac
