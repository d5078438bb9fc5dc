#!/usr/bin/env bash
# Regenerates the Cg fixtures in tests/fixtures/cg/ from the sources in
# tests/fixtures/cg/src/ with NVIDIA's Cg compiler, cgc 3.1 (Debian package
# nvidia-cg-toolkit, non-free). The output is committed; no test runs this
# script or needs cgc.
#
# What it does:
#   1. Downloads nvidia-cg-toolkit and libcg (the .debs only, with a private
#      apt configuration: nothing is installed, /etc is not touched, root is
#      not needed), checks their sha256 and unpacks them into $CG_DIR.
#   2. Compiles every source for every profile of its stage:
#        vertex        arbvp1 vp20 vp30 vp40 gp4vp gp5vp     -> <profile>/<name>.vp
#        fragment      arbfp1 fp20 fp30 fp40 gp4fp gp5fp     -> <profile>/<name>.fp
#        geometry      gp4gp gp5gp                           -> <profile>/<name>.gp
#        tess-control  gp5tcp                                -> <profile>/<name>.tcp
#        tess-eval     gp5tep                                -> <profile>/<name>.tep
#      A Cg source (.cg) names its stage in a `// fixture: <stage>` line; a
#      GLSL source's extension does (.vert, .frag, .geom, .tesc, .tese) and
#      it is compiled with -oglsl. A line `// cgc <profile>...: <arguments>` adds arguments
#      for those profiles (e.g. `-inline none` where the profile keeps CAL).
#   3. Keeps cgc's output exactly as written; where cgc rejects a source for
#      a profile, writes its messages to <profile>/FAILED.md instead.
#   4. Rewrites the tables in tests/fixtures/cg/README.md between the
#      `<!-- table -->` and `<!-- end table -->` markers.
#
# Usage: scripts/cg-fixtures.sh            (scratch directory: $CG_DIR,
#        CG_DIR=/work/cg scripts/cg-fixtures.sh      default /tmp/nvp4c-cg)
set -euo pipefail
cd "$(dirname "$0")/.."
fixtures=$PWD/tests/fixtures/cg
cg_dir=${CG_DIR:-/tmp/nvp4c-cg}
mirror=${CG_MIRROR:-http://deb.debian.org/debian}

# The packages the fixtures were made with (Debian 12 "bookworm", non-free).
version=3.1.0013-5+b1
declare -A sha256=(
  [nvidia-cg-toolkit]=ea1d2831879fc8640304dd14cc05105b891d037a65e14b7386189a05a80012f1
  [libcg]=a003f5235487930316a0822a30a87d529aa96f854b183500bc33557f0a7b1437
)

cgc=$cg_dir/root/usr/bin/cgc
export LD_LIBRARY_PATH=$cg_dir/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

fetch_cgc() {
  mkdir -p "$cg_dir"/apt/lists/partial "$cg_dir"/apt/cache/archives/partial "$cg_dir"/debs
  echo "deb $mirror bookworm main contrib non-free" >"$cg_dir/apt/sources.list"
  local apt=(-o "Dir::Etc::SourceList=$cg_dir/apt/sources.list"
             -o Dir::Etc::SourceParts=/dev/null
             -o "Dir::State::Lists=$cg_dir/apt/lists"
             -o "Dir::Cache=$cg_dir/apt/cache"
             -o APT::Sandbox::User="$(id -un)")
  apt-get -qq "${apt[@]}" update
  (cd "$cg_dir/debs" && apt-get -qq "${apt[@]}" download \
    "nvidia-cg-toolkit=$version" "libcg=$version")
  local pkg deb
  for pkg in nvidia-cg-toolkit libcg; do
    deb=$(ls "$cg_dir/debs/${pkg}_"*.deb)
    echo "${sha256[$pkg]}  $deb" | sha256sum --check --quiet
    dpkg-deb -x "$deb" "$cg_dir/root"
  done
}

[ -x "$cgc" ] || fetch_cgc
"$cgc" -v 2>&1 | grep -q 'cgc: version 3.1.0013,' || {
  echo "cg-fixtures.sh: $cgc is not cgc 3.1.0013" >&2
  exit 1
}

declare -A stage_profiles=(
  [vertex]="arbvp1 vp20 vp30 vp40 gp4vp gp5vp"
  [fragment]="arbfp1 fp20 fp30 fp40 gp4fp gp5fp"
  [geometry]="gp4gp gp5gp"
  [tess-control]="gp5tcp"
  [tess-eval]="gp5tep"
)
declare -A stage_ext=([vertex]=vp [fragment]=fp [geometry]=gp [tess-control]=tcp [tess-eval]=tep)
profile_order="arbvp1 vp20 vp30 vp40 gp4vp gp5vp arbfp1 fp20 fp30 fp40 gp4fp gp5fp gp4gp gp5gp gp5tcp gp5tep"

for p in $profile_order; do
  rm -rf "${fixtures:?}/$p"
  mkdir -p "$fixtures/$p"
done

tables=$(mktemp -d)
trap 'rm -rf "$tables"' EXIT

cd "$fixtures/src"
for source in *.cg *.vert *.frag *.geom *.tesc *.tese; do
  [ -e "$source" ] || continue
  name=${source%.*}
  language=()
  case $source in
    *.cg) stage=$(sed -n 's|^// fixture: *\([a-z-]*\).*|\1|p' "$source" | head -n 1) ;;
    *.vert) stage=vertex; language=(-oglsl) ;;
    *.frag) stage=fragment; language=(-oglsl) ;;
    *.geom) stage=geometry; language=(-oglsl) ;;
    *.tesc) stage=tess-control; language=(-oglsl) ;;
    *.tese) stage=tess-eval; language=(-oglsl) ;;
  esac
  [ -n "${stage_profiles[$stage]:-}" ] || {
    echo "cg-fixtures.sh: $source: no '// fixture: <stage>' line" >&2
    exit 1
  }
  ext=${stage_ext[$stage]}
  row="| [\`$source\`](src/$source) |"
  for p in ${stage_profiles[$stage]}; do
    # `// cgc gp4fp gp5fp: -inline none` lines that name this profile.
    extra=()
    while IFS= read -r line; do
      profiles=${line%%:*}
      if [[ " $profiles " == *" $p "* ]]; then
        read -r -a args <<<"${line#*:}"
        extra+=("${args[@]}")
      fi
    done < <(sed -n 's|^// cgc \([a-z0-9 ]*:.*\)|\1|p' "$source")
    out=../$p/$name.$ext
    log=$(mktemp)
    if "$cgc" "${language[@]}" -profile "$p" "${extra[@]}" -o "$out" "$source" >"$log" 2>&1; then
      cell="[✓]($p/$name.$ext)"
      [ ${#extra[@]} -eq 0 ] || cell="$cell \`${extra[*]}\`"
    else
      rm -f "$out"
      {
        [ -s "../$p/FAILED.md" ] || printf '# %s: sources cgc 3.1 rejects\n\nEach section is what cgc printed (its listing on stderr) for the command shown, run in `src/`.\n' "$p"
        printf '\n## %s\n\n```\n$ cgc %s\n' "$source" "${language[*]:+${language[*]} }-profile $p ${extra[*]:+${extra[*]} }$source"
        cat "$log"
        printf '```\n'
      } >>"../$p/FAILED.md"
      # The first error, for the table.
      reason=$(grep -m 1 -o 'error C[0-9]*: .*' "$log" | sed 's/^error //; s/|/\\|/g; s/ *$//' || true)
      cell="✗ ${reason:-cgc failed}"
    fi
    rm -f "$log"
    row="$row $cell |"
  done
  echo "$row" >>"$tables/$stage"
done
cd "$fixtures"

# Replace the tables between the markers in README.md.
{
  for stage in vertex fragment geometry tess-control tess-eval; do
    [ -s "$tables/$stage" ] || continue
    printf '\n### %s programs\n\n| source |' "$stage"
    for p in ${stage_profiles[$stage]}; do printf ' %s |' "$p"; done
    printf '\n|---|'
    for p in ${stage_profiles[$stage]}; do printf -- '---|'; done
    printf '\n'
    cat "$tables/$stage"
  done
  echo
} >"$tables/all"
awk -v all="$tables/all" '
  /<!-- table -->/ { print; while ((getline line < all) > 0) print line; skip = 1; next }
  /<!-- end table -->/ { skip = 0 }
  !skip' README.md >README.md.new
mv README.md.new README.md

for p in $profile_order; do
  n=$(find "$p" -type f ! -name FAILED.md | wc -l)
  f=$( [ -f "$p/FAILED.md" ] && grep -c '^## ' "$p/FAILED.md" || echo 0)
  printf '%-7s %3d fixtures, %2d failures\n' "$p" "$n" "$f"
done
