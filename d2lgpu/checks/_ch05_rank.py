"""What runs in each torchrun rank of the ``05.ddp`` check: the learner's script, watched.

``python _ch05_rank.py SCRIPT ARGS...`` runs ``SCRIPT`` as ``__main__`` with ``ARGS`` (as
``python SCRIPT ARGS`` would: ``sys.argv`` and ``sys.path[0]`` are the script's), with its
collectives watched (:class:`._kit_collectives.CollectiveWatch`: DDP's own all-reduces run
in C++ and are not seen, so what is seen is the script's own), and writes to
``$D2LGPU_CH05_RECORD/rank<RANK>.json``: each collective the script called, and how the
script ended: returned, ``sys.exit`` (with its code and the script's line), or an error.

What it is not: the launch and its hints (:mod:`._ch05_launch`).
"""

from __future__ import annotations

import json
import os
import runpy
import sys
import traceback

RECORD_ENV_VAR = "D2LGPU_CH05_RECORD"


def _script_line(error: BaseException, script: str) -> dict:
    """The last frame of ``error``'s traceback in ``script``: its line number and text."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == script]
    if not frames:
        return {}
    return {"line": frames[-1].lineno, "text": (frames[-1].line or "").strip()}


def main() -> None:
    script = os.path.abspath(sys.argv[1])
    sys.argv = [script, *sys.argv[2:]]
    sys.path[0] = os.path.dirname(script)
    from d2lgpu.checks._kit_collectives import CollectiveWatch

    ended: dict = {"how": "returned"}
    watch = CollectiveWatch()
    try:
        with watch:
            runpy.run_path(script, run_name="__main__")
    except SystemExit as error:
        ended = {"how": "exit", "code": repr(error.code), **_script_line(error, script)}
        raise
    except BaseException as error:
        what = f"{type(error).__name__}: {error}"[:400]
        ended = {"how": "error", "what": what, **_script_line(error, script)}
        raise
    finally:
        calls = [{"kind": c.kind, "shape": list(c.shape), "nbytes": c.nbytes} for c in watch.calls]
        folder = os.environ.get(RECORD_ENV_VAR)
        if folder:
            path = os.path.join(folder, f"rank{os.environ.get('RANK', '0')}.json")
            with open(path, "w") as out:
                json.dump({"calls": calls, "ended": ended}, out)


if __name__ == "__main__":
    main()
