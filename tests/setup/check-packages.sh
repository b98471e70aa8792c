#!/usr/bin/env bash
# The set-up check (ctest `setup_packages`): every file that the configure step and the build took
# from this machine's system directories belongs to a Debian package that `make deps` installs on
# a clean Debian 12 machine, that is a package named in the Makefile's PACKAGES or one they pull in
# through Depends / Pre-Depends. Recommends do not count, because `make deps` installs with
# --no-install-recommends. That is how libqt6opengl6-dev went missing: Qt Charts' CMake package
# needs Qt6OpenGL's, which qt6-base-dev only recommends, so a clean machine failed to configure
# while every developer machine, which had it for other reasons, built fine.
#
# Usage: check-packages.sh SOURCE_DIR BUILD_DIR
#   BUILD_DIR is configured with -G Ninja, as the Makefile does.
# Exit status: 0 when every file is accounted for, 1 when one is not (one line per package at
# fault, naming it), 77 (ctest: skipped) when apt has no package lists to compute the closure.
set -euo pipefail
export LC_ALL=C # sort and comm agree on order; dpkg and apt speak English

src=$(realpath "$1")
build=$(realpath "$2")
cache="$build/CMakeCache.txt"
ninja_file="$build/build.ninja"
started=$(date +%s.%N)

if [[ ! -f $cache || ! -f $ninja_file ]]; then
    echo "FAIL: $build is not a configured Ninja build (no CMakeCache.txt or build.ninja);" \
        "configure it as the Makefile does: cmake -S $src -B $build -G Ninja"
    exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --- 1. The packages the Makefile installs, read from the Makefile itself so that the list has one
# source. `make test` runs ctest, so this script may inherit the outer make's flags: drop them.
packages=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -C "$src" \
    print-packages)
if [[ -z $packages ]]; then
    echo "FAIL: 'make print-packages' in $src printed no packages"
    exit 1
fi

# --- 2. Their dependency closure without recommends, as apt-get computes it on a clean machine.
# One `apt-cache depends --recurse` call prints every package reachable through any dependency
# with its own Depends/Pre-Depends lines (about 300 packages, a few seconds). That listing follows
# every alternative of an or-group (fontconfig-config's "fonts-dejavu-core | ttf-bitstream-vera |
# fonts-liberation | ..."), which a clean machine never installs all of, so the walk below takes
# only what apt-get would pick: the first alternative that exists, and for a virtual package
# (printed <name>, ":any" included, e.g. <perl:any>) the real packages that provide it.
# (apt-cache reads every package list on each call when apt keeps no binary cache, as in Docker
# images and here: a second or two each, so it is called once.)
# shellcheck disable=SC2086 # PACKAGES is a list of words
if ! apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
    --no-replaces --no-enhances $packages >"$work/depends.txt" 2>"$work/apt-errors.txt"; then
    if ! compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null; then
        echo "SKIP: apt has no package lists (apt-get update fills them), so the closure of" \
            "PACKAGES is unknown"
        exit 77
    fi
    echo "FAIL: apt-cache depends on the Makefile's PACKAGES failed:"
    cat "$work/apt-errors.txt"
    exit 1
fi
awk -v roots="$packages" '
    # "name:any", "name:amd64" -> "name"; "<name>" -> "name"
    function bare(name) { gsub(/[<>]/, "", name); sub(/:.*/, "", name); return name }
    # An or-group is complete: keep the first alternative apt-get could install.
    function endGroup(   i) {
        for (i = 1; i <= count; i++) {
            if (!virtual[i]) { needs[owner] = needs[owner] " " alt[i]; break }
            if (providers[i] != "") { needs[owner] = needs[owner] providers[i]; break }
        }
        count = 0; closing = 0
    }
    /^[^ ]/ { endGroup(); owner = bare($0); next }            # a package: its needs follow
    /^ [ |][A-Za-z-]+: / {                                   # "  Depends: x" or " |Depends: x"
        if (closing) endGroup()
        count++; alt[count] = bare($2); virtual[count] = ($2 ~ /^</); providers[count] = ""
        closing = (substr($0, 2, 1) != "|")                  # no "|": the group ends here
        next
    }
    /^    / { providers[count] = providers[count] " " bare($1); next }  # provides the line above
    END {
        endGroup()
        n = split(roots, queue, " ")
        for (i = 1; i <= n; i++) seen[queue[i]] = 1
        for (i = 1; i <= n; i++) {
            m = split(needs[queue[i]], next_, " ")
            for (j = 1; j <= m; j++)
                if (!(next_[j] in seen)) { seen[next_[j]] = 1; queue[++n] = next_[j] }
        }
        for (p in seen) print p
    }' "$work/depends.txt" | sort -u >"$work/allowed.txt"

# --- 3. The files the configure step and the build took from the system, one "kind<TAB>path" line
# each. Sources chosen because each is the build's own record, complete by construction:
#  - config: every CMake file the configure step read (package configs, the files they include,
#    find modules such as FindSQLite3 and Qt's FindWrapOpenGL). CMake lists them as the inputs of
#    build.ninja's RERUN_CMAKE edge, since Ninja re-runs the configure step when any of them
#    changes. The cache's <Pkg>_DIR entries would only name config-mode packages' directories
#    (no find modules, and a guess at each config file's name); a --trace run would need a second
#    configure.
#  - library: every library a target links, from build.ninja's LINK_LIBRARIES: what the configs
#    and the find modules resolved to (libsqlite3.so from find_package(SQLite3), a find module
#    with no config file of its own). Optional finds that nothing links (FindOpenGL's GLU on a
#    machine that has it) stay in the cache and are rightly not checked.
#  - header: every header the compiler read, from Ninja's dependency log (sqlite3.h, Qt's, GL's).
#    `make test` builds before ctest runs, so the log is there; before a first build it is empty.
#  - tool: the compiler and ninja, as the cache names them.
#  - the fuzz build (tests/fuzz, build/fuzz, configured with clang by the main build): its
#    headers and compiler the same way, and libFuzzer's runtime, which clang links by itself
#    (no link line names it), as the main configure found it (HOURGLASS_FUZZER_RUNTIME).
fuzz="$build/fuzz"
{
    sed -n 's/^build build\.ninja: RERUN_CMAKE | //p' "$ninja_file" | tr ' ' '\n' |
        sed 's/^/config\t/'
    sed -n 's/^ *LINK_LIBRARIES = //p' "$ninja_file" | tr ' ' '\n' | sed -n 's/^\//library\t\//p'
    { ninja -C "$build" -t deps 2>/dev/null || true; } | sed -n 's/^    \(\/.*\)/header\t\1/p'
    sed -n 's/^\(CMAKE_CXX_COMPILER\|CMAKE_MAKE_PROGRAM\):FILEPATH=/tool\t/p' "$cache"
    if [[ -f $fuzz/build.ninja && -f $fuzz/CMakeCache.txt ]]; then
        { ninja -C "$fuzz" -t deps 2>/dev/null || true; } | sed -n 's/^    \(\/.*\)/header\t\1/p'
        sed -n 's/^CMAKE_CXX_COMPILER:FILEPATH=/tool\t/p' "$fuzz/CMakeCache.txt"
    fi
    sed -n 's/^HOURGLASS_FUZZER_RUNTIME:FILEPATH=/library\t/p' "$cache"
} | awk -F '\t' -v src="$src/" -v build="$build/" '
    # Only absolute paths outside the project: relative ones and ours are the build'\''s own.
    $2 ~ /^\// && index($2, src) != 1 && index($2, build) != 1 && !seen[$2]++' >"$work/files.txt"

# --- 4. Who owns each file. One dpkg -S call for all of them (about a second); dpkg knows a file
# by the path its package installed, so a file reached another way is asked again by its real
# path (/usr/bin/c++ is an alternatives link to g++-12's compiler) and by its merged-/usr twin
# (/lib/x86_64-linux-gnu/... is /usr/lib/x86_64-linux-gnu/... on Debian 12).
owners() { # paths on stdin -> "package[, package...]: path" lines, "diversion by" lines dropped
    xargs -r -d '\n' dpkg -S 2>/dev/null | grep -v '^diversion by' || true
}
cut -f2 "$work/files.txt" | owners >"$work/owners.txt"
sed -n 's/^[^/]*: //p' "$work/owners.txt" | sort -u >"$work/owned.txt"
cut -f2 "$work/files.txt" | sort -u | comm -23 - "$work/owned.txt" >"$work/unowned.txt"
while IFS= read -r file; do
    real=$(realpath -e "$file" 2>/dev/null || echo "$file")
    case $real in
    /usr/lib/* | /usr/bin/* | /usr/sbin/*) twin=${real#/usr} ;;
    /lib/* | /bin/* | /sbin/*) twin=/usr$real ;;
    *) twin=$real ;;
    esac
    for candidate in "$real" "$twin"; do
        line=$(echo "$candidate" | owners | head -n1)
        if [[ -n $line ]]; then # keep the path we were asked about
            echo "${line%%: /*}: $file" >>"$work/owners.txt"
            break
        fi
    done
done <"$work/unowned.txt"

# --- 5. The verdict: a file is fine when one of its owners is allowed. One line per package at
# fault, naming the most telling of its files (a package config, then a library, header, tool).
status=0
awk -F '\t' -v allowed="$work/allowed.txt" -v owners="$work/owners.txt" '
    BEGIN {
        while ((getline p < allowed) > 0) ok[p] = 1
        while ((getline line < owners) > 0) {
            split(line, parts, ": /"); path = "/" parts[2]
            owner[path] = parts[1]; gsub(/:[a-z0-9]+/, "", owner[path])  # drop ":amd64"
        }
        rank["config"] = 1; rank["library"] = 2; rank["header"] = 3; rank["tool"] = 4
    }
    function isConfig(kind, path) { return kind == "config" && path ~ /(Config|-config)\.cmake$/ }
    function describe(kind, path,   name) {
        name = path; sub(/.*\//, "", name)
        if (isConfig(kind, path)) {
            sub(/(Config|-config)\.cmake$/, "", name)
            return name "'\''s config " path
        }
        if (kind == "config") return "the CMake file " path
        return "the " kind " " path
    }
    {
        kind = $1; path = $2; files++
        if (!(path in owner)) {
            unowned++
            printf "FAIL: %s belongs to no Debian package (installed by hand?), so a clean" \
                " machine would not have it\n", describe(kind, path)
            next
        }
        n = split(owner[path], pkgs, ", "); fine = 0
        for (i = 1; i <= n; i++) if (pkgs[i] in ok) fine = 1
        if (fine) { used[owner[path]] = 1; next }
        p = owner[path]; r = isConfig(kind, path) ? 0 : rank[kind]
        if (!(p in best) || r < bestRank[p]) { best[p] = describe(kind, path); bestRank[p] = r }
        more[p]++
    }
    END {
        for (p in best) {
            bad++
            others = more[p] > 1 ? sprintf(" (as do %d more files the build uses)", more[p] - 1) : ""
            printf "FAIL: %s comes from %s%s, which is neither in the Makefile'\''s PACKAGES nor" \
                " pulled in by them without recommends: add it to PACKAGES\n", best[p], p, others
        }
        for (p in used) packages++
        if (bad || unowned) exit 1
        printf "%d files from %d packages, all in PACKAGES or their closure without" \
            " recommends\n", files, packages
    }' "$work/files.txt" || status=$?
echo "closure: $(wc -l <"$work/allowed.txt") packages; checked in" \
    "$(awk -v t="$started" -v now="$(date +%s.%N)" 'BEGIN { printf "%.1f s", now - t }')"
exit $status
