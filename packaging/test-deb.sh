#!/usr/bin/env bash
# The Debian package, checked as a user would meet it (CTest runs it as
# packaging.deb): built with CPack from a configured and built tree, its
# files and Depends inspected with dpkg-deb, unpacked into a scratch root and
# run from there (modules found beside the binary, not through
# LD_LIBRARY_PATH), its desktop file and AppStream metadata validated, its
# man page and bash completion exercised, and an example IR given the irscope
# type by shared-mime-info.
# Usage: packaging/test-deb.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?usage: test-deb.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/irscope-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

version=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")
[[ -n $version ]] || fail "no CPACK_PACKAGE_VERSION in $build/CPackConfig.cmake"
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/out" > "$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "cpack"; }
deb="$work/out/irscope_${version}_amd64.deb"
[[ -f $deb ]] || fail "no $deb"

# ---- contents and Depends
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' > "$work/files"
for f in /usr/bin/irscope /usr/lib/irscope/libirscope_ir.so /usr/lib/irscope/libirscope_layout.so \
         /usr/lib/irscope/libirscope_modules.so /usr/lib/irscope/libirscope_diff.so \
         /usr/lib/irscope/libirscope_export.so /usr/lib/irscope/libirscope_catalog.so /usr/lib/irscope/libirscope_exec_terms.so \
         /usr/lib/irscope/libirscope_commands.so /usr/lib/irscope/libirscope_engine.so \
         /usr/lib/irscope/libirscope_gui.so /usr/lib/irscope/libirscope_charts.so /usr/share/irscope/examples/llama_block.json \
         /usr/share/applications/irscope.desktop /usr/share/icons/hicolor/scalable/apps/irscope.svg \
         /usr/share/icons/hicolor/16x16/apps/irscope.png /usr/share/icons/hicolor/256x256/apps/irscope.png \
         /usr/share/mime/packages/irscope.xml /usr/share/metainfo/io.github.irscope.irscope.metainfo.xml \
         /usr/share/man/man1/irscope.1.gz /usr/share/bash-completion/completions/irscope; do
  grep -qx "$f" "$work/files" || fail "the package lacks $f"
done
grep -q '^/usr/lib/irscope/.*test' "$work/files" && fail "test binaries in the package"
depends=$(dpkg-deb -f "$deb" Depends)
for p in libtorch1.13 libqt6core6 libqt6widgets6 libqt6charts6 libopenblas0-pthread; do
  [[ $depends == *"$p"* ]] || fail "Depends lacks $p: $depends"
done
[[ $depends != *irscope* ]] || fail "Depends names our own libraries: $depends"
[[ $(dpkg-deb -f "$deb" Version) == "$version" ]] || fail "Version field"

# ---- unpacked into a scratch root and run from there
root="$work/root"
dpkg-deb -x "$deb" "$root"
bin="$root/usr/bin/irscope"
ex="$root/usr/share/irscope/examples"
got=$(env -u LD_LIBRARY_PATH "$bin" --version)
[[ $got == "irscope $version (built with libtorch "* ]] || fail "--version said '$got'"
env -u LD_LIBRARY_PATH "$bin" info "$ex/mlp.json" | grep -q "SimpleMLP" || fail "info on an installed example"
# A torch command loads /usr/lib/irscope/libirscope_commands.so from beside the binary.
env -u LD_LIBRARY_PATH "$bin" run "$ex/llama_block.json" --weights "$ex/llama_block.weights.pt" \
  --inputs "$ex/llama_block.inputs.pt" --expected "$ex/llama_block.expected.pt" > "$work/run.txt" \
  || { cat "$work/run.txt"; fail "run on the installed example"; }
if ldd "$bin" "$root"/usr/lib/irscope/*.so | grep -q "not found"; then fail "unresolved libraries"; fi

# ---- desktop integration
desktop-file-validate "$root/usr/share/applications/irscope.desktop" || fail "desktop-file-validate"
grep -qx 'Exec=irscope %F' "$root/usr/share/applications/irscope.desktop" || fail "Exec line"
grep -qx 'MimeType=application/x-torch-ir+json;' "$root/usr/share/applications/irscope.desktop" || fail "MimeType line"
appstreamcli validate --no-net "$root/usr/share/metainfo/io.github.irscope.irscope.metainfo.xml" || fail "appstreamcli"
update-mime-database "$root/usr/share/mime" > "$work/mime.log" 2>&1 || { cat "$work/mime.log"; fail "update-mime-database"; }
mimetype_of() { XDG_DATA_DIRS="$root/usr/share:/usr/share" XDG_DATA_HOME="$work/nohome" xdg-mime query filetype "$1"; }
[[ $(mimetype_of "$ex/llama_block.json") == application/x-torch-ir+json ]] || fail "example IR: $(mimetype_of "$ex/llama_block.json")"
cp "$ex/mlp.json" "$work/model.ir.json"
[[ $(mimetype_of "$work/model.ir.json") == application/x-torch-ir+json ]] || fail "*.ir.json"
echo '{"a": [1, 2, 3]}' > "$work/plain.json"
[[ $(mimetype_of "$work/plain.json") == application/json ]] || fail "plain JSON: $(mimetype_of "$work/plain.json")"
touch "$work/w.safetensors"
[[ $(mimetype_of "$work/w.safetensors") == application/x-safetensors ]] || fail ".safetensors"

# ---- man page and completion
zcat "$root/usr/share/man/man1/irscope.1.gz" > "$work/irscope.1"
warnings=$(groff -man -Tutf8 -ww -z "$work/irscope.1" 2>&1 || true)
[[ -z $warnings ]] || fail "man page: $warnings"
for c in diff extract reduce run validate; do
  grep -q "^\.SS irscope $c$" "$work/irscope.1" || fail "man page lacks $c"
done
completions=$(PATH="$root/usr/bin:$PATH" bash -c '
  source "$1"
  COMP_WORDS=(irscope d); COMP_CWORD=1; _irscope; printf "%s\n" "${COMPREPLY[@]}"
  COMP_WORDS=(irscope diff A.json B.json --m); COMP_CWORD=4; _irscope; printf "%s\n" "${COMPREPLY[@]}"' \
  _ "$root/usr/share/bash-completion/completions/irscope")
grep -qx diff <<< "$completions" || fail "completion of 'd': $completions"
grep -qx -- --match <<< "$completions" || fail "completion of diff's --m: $completions"
echo "packaging ok: $(basename "$deb"), $(grep -c . "$work/files") paths, Depends: $depends"
