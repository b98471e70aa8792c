#!/bin/sh
# The broker's one write path (engine/BrokerWrite.h): no file of the engine waits on the store
# (waitDurable) but the write path and the store itself, and no file of the broker (one that
# includes BrokerImpl.h or BrokerWrite.h) locks the broker's mutex but the write path. Fails
# naming each file and line that does; comments are not code.
#   check-write-path.sh <path to engine/>
set -u
engine=${1:?usage: check-write-path.sh <engine dir>}
cd "$engine" || exit 2

files=$(find . -path ./store -prune -o \( -name '*.cpp' -o -name '*.h' \) -print | sort |
    grep -v -x -e './BrokerWrite.h' -e './BrokerWrite.cpp')
found=0
for file in $files; do
    broker=0
    if grep -q -E '#[[:space:]]*include[[:space:]]*"(BrokerImpl|BrokerWrite)\.h"' "$file"; then
        broker=1
    fi
    hits=$(awk -v broker="$broker" -v name="engine/${file#./}" '
        {
            code = $0
            sub(/\/\/.*/, "", code)
            if (code ~ /waitDurable/)
                printf "%s:%d: waits on the store outside the write path: %s\n", name, FNR, $0
            else if (broker && code ~ /(lock_guard|unique_lock|scoped_lock|MutexLock)[^;]*m_mutex|m_mutex[.](lock|unlock|try_lock)[(]/)
                printf "%s:%d: locks the broker mutex outside the write path: %s\n", name, FNR, $0
        }' "$file")
    if [ -n "$hits" ]; then
        printf '%s\n' "$hits"
        found=$((found + $(printf '%s\n' "$hits" | wc -l)))
    fi
done
if [ "$found" -gt 0 ]; then
    echo "$found line(s) bypass BrokerWrite.h: lock with BrokerWrite or BrokerRead, wait with commit() or Logged::durable()"
    exit 1
fi
echo "engine/: only BrokerWrite.h and BrokerWrite.cpp lock the broker mutex and wait on the store"
