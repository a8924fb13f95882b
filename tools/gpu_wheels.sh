#!/usr/bin/env bash
# Download, into .whl/, the wheels that `make check` needs on a GPU machine
# without network whose Python (3.12) already has torch, torchvision, numpy,
# matplotlib, tqdm and pytest: the test and notebook tools, at the lock's versions.
#
#   bash tools/gpu_wheels.sh            # here, where pip reaches a registry
#   # there:
#   python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl
#   export PYTHONPATH=/tmp/site:$PWD && make check CHECK_PY=python3
#
# Versions come from requirements.lock, so the GPU run tests what CI tests.
set -euo pipefail
cd "$(dirname "$0")/.."
names=(
    nbval ruff pytest-randomly pytest-xdist execnet ipykernel ipython jupyter_client jupyter_core nbformat nbclient
    pyzmq tornado traitlets comm debugpy matplotlib-inline nest-asyncio2 jedi parso
    prompt_toolkit wcwidth pexpect ptyprocess stack-data asttokens executing pure_eval
    ipython_pygments_lexers fastjsonschema jsonschema jsonschema-specifications
    referencing rpds-py platformdirs ipywidgets widgetsnbextension jupyterlab_widgets
)
pins=()
for name in "${names[@]}"; do
    # A lock line is `name==version [; markers] [# via ...]`: keep `name==version`.
    pin=$(grep -i -E "^${name//[-_]/[-_]}==" requirements.lock | awk '{print $1}') || true
    if [ -z "$pin" ]; then
        echo "$name is not in requirements.lock" >&2
        exit 1
    fi
    if [ "$(wc -l <<<"$pin")" != 1 ]; then
        echo "$name has several pins in requirements.lock (one per Python?): $pin" >&2
        exit 1
    fi
    pins+=("$pin")
done
mkdir -p .whl
python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.12 \
    --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
    --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
    --platform manylinux_2_5_x86_64 --platform manylinux1_x86_64 --platform any \
    -d .whl "${pins[@]}"
du -sh .whl
