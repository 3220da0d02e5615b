#!/bin/sh
# Builds dist/ncclcheck-VERSION-py3-none-manylinux_2_17_ARCH.whl around a portable binary, offline,
# with Debian's packaging tools (python3-build, python3-setuptools, python3-wheel: no PyPI).
#   usage: packaging/wheel.sh BINARY OUTDIR LICENSES   (LICENSES: the static libraries' licence texts)
set -eu
usage="usage: wheel.sh BINARY OUTDIR LICENSES"
bin=$(readlink -f "${1:?$usage}")
out=$(mkdir -p "${2:?$usage}" && cd "$2" && pwd)
licenses=$(readlink -f "${3:?$usage}")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/project.env"
. "$here/binarch.sh"
version=$(bin_run "$bin" --version | awk '{ print $2 }')
arch=$(bin_arch "$bin")	# the manylinux tag's machine: x86_64 or aarch64
# Debian's interpreter: a pyenv or conda python3 on PATH lacks Debian's build modules
py=/usr/bin/python3
"$py" -c 'import build, setuptools, wheel' 2>/dev/null ||
	{ echo "wheel.sh: needs python3-build python3-setuptools python3-wheel (scripts/deps.sh)" >&2; exit 1; }

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp -r "$here/python/." "$stage/"
mkdir "$stage/bin"
cp "$bin" "$stage/bin/ncclcheck"
chmod 755 "$stage/bin/ncclcheck"
cp "$here/../README.md" "$stage/README.md"
cp "$licenses" "$stage/ncclcheck/THIRD-PARTY-LICENSES"
urls=""
[ -n "$HOMEPAGE" ] && urls="[project.urls]
Homepage = \"$HOMEPAGE\"
Documentation = \"$HOMEPAGE#readme\"
"
MAINTAINER_NAME=${MAINTAINER% <*}
MAINTAINER_EMAIL=$(echo "$MAINTAINER" | sed 's/.*<\(.*\)>.*/\1/')
export VERSION="$version" SUMMARY LICENSE_ID PYTHON_REQUIRES URLS="$urls" MAINTAINER_NAME MAINTAINER_EMAIL
"$py" - "$stage/pyproject.toml" "$stage/ncclcheck/__init__.py" <<'PY'
import os, re, sys
for path in sys.argv[1:]:
    text = open(path).read()
    text = re.sub(r"@([A-Z_]+)@", lambda m: os.environ[m.group(1)], text)
    open(path, "w").write(text)
PY
(cd "$stage" && NCCLCHECK_WHEEL_ARCH=$arch SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-0} \
	"$py" -m build --wheel --no-isolation --outdir "$out" >"$stage/build.log" 2>&1) ||
	{ tail -n 30 "$stage/build.log" >&2; exit 1; }
whl="$out/ncclcheck-$version-py3-none-manylinux_2_17_$arch.whl"
[ -f "$whl" ] || { echo "wheel.sh: $whl was not made" >&2; ls "$out" >&2; exit 1; }
echo "$whl"
