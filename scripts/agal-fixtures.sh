#!/bin/sh
# Regenerates the AGAL fixtures' bytes with the real AGALMiniAssembler
# (openfl 8.9.6's JavaScript port, under node): for every
# tests/agal/asm/NAME.agalasm, NAME.agal holds what the assembler makes of
# it, for the stage and version its first line names (`// AGAL2 vertex ...`).
# Also checks that ruffle's sources (tests/agal/ruffle/*.source) assemble to
# ruffle's recorded bytes.
#
# Tests never run this (they compare nvp4c's assembler with the committed
# bytes); run it after adding or changing a fixture. Needs node and npm;
# the openfl package goes to a scratch directory (default /tmp/agal-node,
# or $AGAL_NODE_DIR), never into the repository.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=${AGAL_NODE_DIR:-/tmp/agal-node}
mkdir -p "$scratch"
cd "$scratch"
if [ ! -d node_modules/openfl ]; then
    npm pack openfl@8.9.6 >/dev/null
    tar xzf openfl-8.9.6.tgz
    mkdir -p node_modules
    mv package node_modules/openfl
fi
cat > agalasm.js <<'JS'
global.window = globalThis;   // lime's getTimer() reads window.performance
const AGALMiniAssembler = require('openfl/lib/openfl/utils/AGALMiniAssembler').default;
const [mode, version, file] = process.argv.slice(2);
const asm = new AGALMiniAssembler(false);
const ba = asm.assemble(mode, require('fs').readFileSync(file, 'utf8'), Number(version));
if (asm.error) { console.error(asm.error); process.exit(1); }
const out = Buffer.alloc(ba.length); ba.position = 0;
for (let i = 0; i < ba.length; i++) out[i] = ba.readUnsignedByte();
process.stdout.write(out);
JS
for src in "$root"/tests/agal/asm/*.agalasm; do
    header=$(head -n 1 "$src")
    version=$(printf '%s\n' "$header" | sed -E 's|^// AGAL([0-9]+) .*|\1|')
    stage=$(printf '%s\n' "$header" | awk '{print $3}')
    node agalasm.js "$stage" "$version" "$src" > "${src%.agalasm}.agal" 2>/dev/null
    echo "$(basename "$src"): AGAL$version $stage, $(wc -c < "${src%.agalasm}.agal") bytes"
done
for src in "$root"/tests/agal/ruffle/*.source; do
    name=$(basename "$src" .source)
    stage=vertex
    case $name in *fragment*) stage=fragment ;; esac
    version=$(od -An -tu1 -j1 -N1 "${src%.source}.agal" | tr -d ' ')
    node agalasm.js "$stage" "$version" "$src" | cmp - "${src%.source}.agal"
    echo "$name: ruffle's bytes reproduced"
done
# 3000 random lines, valid and odd, with what the assembler makes of each.
python3 "$root/scripts/agal/random_lines.py" \
    | node "$root/scripts/agal/assemble_all.js" > "$root/tests/agal/random-lines.json"
echo "random-lines.json: $(grep -c '"text"' "$root/tests/agal/random-lines.json") lines"
