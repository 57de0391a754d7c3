#!/usr/bin/env bash
# The dependency floors, checked: a fresh virtual environment with every dependency of
# pyproject.toml at its lowest allowed version (the ">=" bound), the package installed from this
# checkout (`pip install --no-deps .`), then an import of the core and the app and a small fit
# of every catalogue estimator. Needs the network (PyPI). Not part of .ci/run: it downloads and
# installs ~300 MB (PySide6, scipy, dask, ...) and took 4.5-7.5 minutes on the shared 2 cores
# (2026-11-27: every floor installs and passes); run it when a floor or a newly used library
# feature changes:  bash .ci/floors.sh   (keeps the venv with KEEP=1). Tracked files only.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
VENV=$(mktemp -d)/floors
"$PY" -m venv "$VENV"
trap '[ "${KEEP:-0}" = 1 ] || rm -rf "$(dirname "$VENV")"' EXIT
mapfile -t PINS < <("$PY" - <<'PYEOF'
import re, sys
try:
    import tomllib
except ModuleNotFoundError:          # Python 3.10
    import tomli as tomllib
with open("pyproject.toml", "rb") as f:
    deps = tomllib.load(f)["project"]["dependencies"]
py = sys.version_info[:2]
for dep in deps:
    req, _, marker = dep.partition(";")
    marker = marker.strip()
    if marker:                       # the markers used here: python_version < / >= 'X.Y'
        m = re.fullmatch(r"python_version\s*(<|>=)\s*'(\d+)\.(\d+)'", marker)
        if m is None:
            sys.exit(f"floors.sh: cannot read the marker {marker!r}")
        bound = (int(m[2]), int(m[3]))
        if (py < bound) != (m[1] == "<"):
            continue
    m = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+(?:\[[^\]]*\])?)\s*>=\s*([^,\s]+).*", req)
    if m is None:
        sys.exit(f"floors.sh: no '>=' floor in {dep!r}")
    print(f"{m[1]}=={m[2]}")
PYEOF
)
echo "floors: ${PINS[*]}"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${PINS[@]}"
# install from a copy of the tracked files (as a clean checkout; the build leaves nothing here)
SRC="$(dirname "$VENV")/src"
mkdir -p "$SRC"
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$SRC"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps "$SRC"
cd "$(dirname "$VENV")"            # import the installed package, not the checkout
QT_QPA_PLATFORM=offscreen "$VENV/bin/python" - <<'PYEOF'
import warnings
import numpy as np
import robust_subspace_lab.app.main_window  # noqa: F401  (the app's modules import)
from robust_subspace_lab.core import catalogue, datasets

warnings.simplefilter("ignore")
X = datasets.load_builtin("faces").X[:40, :200]
rng = np.random.default_rng(0)
for info in catalogue.methods(None):
    k = {"n_components": 2} if "n_components" in info.defaults() else {}
    est = info.create(**k)
    if info.task == "regression":
        y = rng.integers(0, 2, len(X)) if "lda" in info.key else X[:, :3] @ [1.0, 2.0, 3.0]
        est.fit(X[:, 3:20], y)
        est.predict(X[:5, 3:20])
    else:
        est.fit(X)
        est.inverse_transform(est.transform(X[:5]))
print("floors OK:", len(catalogue.methods(None)), "estimators fitted")
PYEOF
