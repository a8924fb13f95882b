"""How the ``05.ddp`` checker launches the learner's script: ``torchrun`` with ``NPROC``
processes, or ``nproc`` (:func:`d2lgpu.launcher.launch`) within the check's time limit, each rank
importing :mod:`._ch05_rank`'s recorder first (a ``sitecustomize`` on its ``PYTHONPATH``:
the script's own collectives, and how it ended), and what a failed launch says, read from
torchrun's output and those records: a rank that left early (``sys.exit``, or returned) while another lost its peer, the script's
own Python error and where it was raised, an exit code without one, a time-out, or a rank
killed by a signal (tried once more: a busy machine or a teardown race can cause it).

What it is not: the comparison of what the script trained (:mod:`.ch05_ddp`).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

from ..ranks import lost_peer
from ._ch05_rank import RECORD_ENV_VAR, SITE
from ._util import CheckFailed

__all__ = ["LAUNCH_TIMEOUT_S", "NPROC", "launch_script", "left_early_hint"]

LAUNCH_TIMEOUT_S = 240
NPROC = 2


def _records(folder, nproc: int = NPROC) -> list[dict]:
    """What each rank recorded (:mod:`._ch05_rank`), rank 0 first; {} for a rank that did not."""
    records = []
    for rank in range(nproc):
        path = Path(folder) / f"rank{rank}.json"
        records.append(json.loads(path.read_text()) if path.is_file() else {})
    return records


def launch_script(path: Path, args: list[str], nproc: int = NPROC) -> list[dict]:
    """Run the learner's script with ``args`` under torchrun, ``nproc`` processes, within the
    check's time limit; what each rank recorded (its collectives, how it ended). A failure
    becomes a :class:`CheckFailed` that says what went wrong."""
    from ..launcher import LaunchError, launch
    from ._guard import remaining_s

    for attempt in (1, 2):
        # Within the check's time limit, leaving time to stop torchrun and report.
        left = remaining_s()
        timeout = LAUNCH_TIMEOUT_S if left is None else max(5.0, min(LAUNCH_TIMEOUT_S, left - 25))
        with tempfile.TemporaryDirectory(prefix="d2lgpu-ddp-") as folder:
            Path(folder, "sitecustomize.py").write_text(SITE)
            # the ranks import it first: it records their collectives and how they end
            paths = [folder, os.environ.get("PYTHONPATH", "")]
            env = {RECORD_ENV_VAR: folder, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
            try:
                launch(path, nproc=nproc, args=args, timeout_s=timeout, env=env, echo=False,
                       tail_lines=15)  # fmt: skip
                return _records(folder, nproc)
            except LaunchError as caught:
                records, failure = _records(folder, nproc), caught
        if failure.timed_out:
            raise CheckFailed(_timed_out_hint(failure, timeout)) from None
        script_error = _script_error(failure.result.output)
        if lost_peer(script_error):  # the rank whose own error made the other lose its peer
            script_error = _own_error(records) or script_error
        early = left_early_hint(records, script_error)
        if early is not None:
            raise CheckFailed(early) from None
        if script_error is not None:
            raise CheckFailed(
                f"the script failed under torchrun with {nproc} processes: {script_error}. "
                "Run it yourself to see all of its output: torchrun --standalone "
                f"--nproc-per-node={nproc} {path}"
            ) from None
        exit_code = _exit_code(failure.result.output)
        if exit_code is not None and exit_code > 0:
            raise CheckFailed(_exit_code_hint(failure, exit_code)) from None
        if attempt == 2:
            raise CheckFailed(_no_script_error_hint(failure)) from None
        # No Python error from the script: a rank was killed by a signal, which can be
        # the machine's doing (a busy machine, a stray signal) rather than the script's.
    raise AssertionError("unreachable: the second attempt returns or raises")


def _own_error(records) -> str | None:
    """A rank's own error as :mod:`._ch05_rank` recorded it (not a lost peer), or None."""
    for rank, record in enumerate(records):
        ended = record.get("ended", {})
        if ended.get("how") == "error" and not lost_peer(ended.get("what")):
            where = f" (line {ended['line']}: `{ended['text']}`)" if "line" in ended else ""
            return f"rank {rank}: {ended['what']}{where}"
    return None


def left_early_hint(records: list[dict], script_error: str | None) -> str | None:
    """The hint when a rank's script ended (``sys.exit``, or returned) while another lost its
    peer (``script_error`` is gloo's for a lost peer); None otherwise."""
    ended = [(rank, r.get("ended", {})) for rank, r in enumerate(records)]
    exits = [(rank, e) for rank, e in ended if e.get("how") == "exit"]
    left = exits or [(rank, e) for rank, e in ended if e.get("how") == "returned"]
    if not left or not lost_peer(script_error):
        return None
    rank, e = left[0]
    if e["how"] == "exit":
        where = f" at line {e['line']} (`{e['text']}`)" if "line" in e else ""
        what = f"called sys.exit({e['code']}){where}"
    else:
        what = "returned from the script"
    return (
        f"rank {rank} {what}: it left early while the others still waited in a collective, "
        "which then lost their peer (gloo's 'Connection closed by peer' is their error, not "
        "the cause). Every rank must reach the same collectives "
        "(DDP's all-reduces, dist.barrier(), destroy_process_group) and end the script "
        "normally; rank 0 alone saves, and the others go on to the barrier too"
    )


def _script_lines(output: str) -> list[str]:
    """The output without torchrun's own report (its traceback when it stops the workers)."""
    lines = output.strip().splitlines()
    keep = []
    for line in lines:
        if "torch/distributed/elastic" in line or "torch.distributed.elastic" in line:
            break
        keep.append(line)
    return keep


def _timed_out_hint(error, seconds: float) -> str:
    tail = "\n".join(_script_lines(error.result.output)[-15:]) or "(nothing)"
    return (
        f"torchrun was stopped after {seconds:.0f} s: the script did not finish in time. A rank "
        "that waits forever (in a collective that another rank never reaches, at a barrier, "
        "in an endless loop) keeps the job running; make every rank take the same steps. "
        f"The last lines the script printed:\n{tail}"
    )


def _script_error(output: str) -> str | None:
    """The worker's own Python error and where it was raised, or None if it raised none."""
    lines = [line.strip() for line in output.splitlines()]
    for i, line in enumerate(lines):
        text = re.sub(r"^\[[^\]]*\]:?\s*", "", line)  # "[rank1]: ValueError: ..."
        if "ChildFailedError" in text or "SignalException" in text:  # torchrun's own errors
            return None
        if re.match(r"^[A-Za-z_][\w.]*(Error|Exception|Interrupt)\b.*:", text):
            frames = [f for f in lines[:i] if "File " in f]
            where = f" ({re.sub(r'^.*?File ', 'File ', frames[-1])})" if frames else ""
            return text + where
    return None


def _exit_code(output: str) -> int | None:
    """The exit code torchrun reports for the first failed rank (negative: a signal's number)."""
    found = re.search(r"exitcode\s*:\s*(-?\d+)", output)
    return int(found.group(1)) if found else None


def _exit_code_hint(error, code: int) -> str:
    rank = re.search(r"rank\s*:\s*(\d+)", error.result.output)
    who = f"rank {rank.group(1)}" if rank else "a rank"
    tail = "\n".join(_script_lines(error.result.output)[-15:]) or "(nothing)"
    return (
        f"{who} of the script exited with code {code}, without a Python error: something in "
        f"it called sys.exit({code}) (or exit(), os._exit(), argparse refusing an option). "
        "Every rank must train to the end and return normally; the checker passes the "
        "script's own options (--epochs, --batch-size, --lr, --seed, --out), so keep them. "
        f"The last lines the script printed:\n{tail}"
    )


def _no_script_error_hint(error) -> str:
    lines = error.result.output.strip().splitlines()
    hint = (
        "torchrun failed twice without a Python error from the script: a rank was killed by "
        "a signal"
    )
    if any("terminate called" in line for line in lines):
        hint += (
            "; a rank aborted ('terminate called ...'), typically while leaving: call "
            "dist.barrier() before dist.destroy_process_group(), so the ranks leave together"
        )
    tail = "\n".join(lines[-24:])
    return f"{hint}. The last lines of its output:\n{tail}"
