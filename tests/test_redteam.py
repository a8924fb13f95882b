"""The red-team answers: learners' answers written from an exercise's prompt and chapter
alone, before anyone read them against its checker (docs/graders.md, "Red-team record").

Each file in ``tests/redteam/<exercise id>/`` starts with two comment lines:

- ``# expect: pass`` or ``# expect: fail <the mistake, in words>``;
- ``# hint: <regex>``: a wrong answer's hint must match it (case-insensitive), so that the
  hint names the mistake the answer made; empty for a right answer;
- optionally ``# name: <function>`` when the answer is not called ``answer``;
- optionally, on a wrong answer the checker still passes, ``# open: <why>``: what case the
  checker lacks. It is held as a strict expected failure, so that the fix that names it
  makes the test fail until the line goes (docs/graders.md lists them).

A wrong answer must FAIL with such a hint, a right one must PASS. An exercise whose folder
holds ``said.json`` has each answer's whole report recorded there (the hint and the lines
that passed), and every report must be that record word for word: a changed hint shows in
review as a change of the record, made by ``make said EXERCISE=<id>``. Every exercise keeps
one whose checker says the same from run to run: not one whose hint reads the learner's own
profile (06.slowest_op), nor those whose checkers start ranks (SLOW below), where timing and
addresses choose among hints. The Triton exercises'
answers are graded in one fresh Python per session with Triton's interpreter switched on
before triton is imported, as their exercise notebook does (tests/test_checks_ch07.py).
"""

import functools
import importlib.util
import json
import os
import re
import sys
from pathlib import Path

import cloudpickle
import pytest
from ddp_helpers.procs import fresh_python
from session_once import once_per_session

from d2lgpu.checks._kit_process import (
    _OWNERS,
    defaults,
    defaults_put_back,
    left_changed,
    replaced,
    settings,
)
from d2lgpu.grading import CHECKERS, check

HERE = Path(__file__).resolve().parent / "redteam"
ANSWERS = sorted(HERE.glob("*/*.py"))
# Exercises whose checkers start gloo ranks or torchrun: seconds per answer.
SLOW = (
    "05.",
    "07.",
    "09.tensor_parallel",
    "10.allreduce_grads",
    "10.overlap_ddp",
    "10.shard_optimizer",
)
# Exercises whose checker's words change from run to run: no said.json (see above).
UNSAID = ("06.slowest_op", *SLOW)
# Exercises graded in a fresh Python with TRITON_INTERPRET=1; in this process where it was
# started with the interpreter on (`make mutation`'s "--triton-interpret"), where mutants reach.
INTERPRETED = ("07.",)
INTERPRETED_HERE = os.environ.get("TRITON_INTERPRET") == "1"


def header(path: Path) -> dict[str, str]:
    """The answer file's comment lines ``# key: value`` before its first line of code."""
    fields = {}
    for line in path.read_text().splitlines():
        match = re.match(r"# (expect|hint|name|open):(.*)", line)
        if not match:
            break
        fields[match[1]] = match[2].strip()
    return fields


def load(path: Path):
    """Import the answer file as a module of its own, registered so that ranks can reach it."""
    name = f"redteam_{path.parent.name.replace('.', '_')}_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    # Ranks started by a fork server cannot import it: its functions travel by value.
    cloudpickle.register_pickle_by_value(module)
    spec.loader.exec_module(module)
    return module


def grade(path: Path) -> dict:
    """The checker's verdict on one answer file: ``status``, ``ok``, ``hint`` and ``passed``.
    torch's functions that the file replaces as it is imported are put back after (the
    checker names them; the answers graded after it must not meet them), as is every
    process-wide setting it changes as it is imported; ``left`` names what the check itself
    left changed, which no checker may (the answers graded after it would meet it)."""
    fields = header(path)
    saved = {owner: dict(vars(owner)) for owner in _OWNERS.values()}
    loaded, loaded_defaults = settings(), defaults()
    left: list[str] = []
    try:
        answer = getattr(load(path), fields.get("name") or "answer")
        before, kept = settings(), defaults()  # what the file's import changed is its own
        try:
            result = check(path.parent.name, answer, quiet=True)
        finally:
            left = left_changed(before) + defaults_put_back(kept)
    finally:
        for owner, name, _ in replaced():
            if name in saved[owner]:
                setattr(owner, name, saved[owner][name])
            else:
                delattr(owner, name)
        left_changed(loaded)  # what the import changed: not the checker's to name
        defaults_put_back(loaded_defaults)
    return {
        "status": result.status,
        "ok": result.ok,
        "hint": result.hint or "",
        "passed": list(result.passed),
        "left": left,
    }


SAID = "said.json"  # an exercise's record of what its checker says to each answer


def report(result: dict) -> dict:
    """What ``said.json`` keeps of a verdict from :func:`grade`: the hint and the lines passed."""
    return {"hint": result["hint"], "passed": result["passed"]}


@functools.cache
def said(exercise: str) -> dict[str, dict] | None:
    """The recorded report of each answer of ``exercise``, by file stem; None if none is kept."""
    path = HERE / exercise / SAID
    return json.loads(path.read_text()) if path.is_file() else None


def record_said(exercise: str) -> Path:
    """Grade every answer of ``exercise`` and write what its checker said to ``said.json``."""
    folder = HERE / exercise
    answers = sorted(folder.glob("*.py"))
    if not answers:
        names = sorted(p.name for p in HERE.iterdir() if p.is_dir())
        raise SystemExit(f"EXERCISE={exercise!r} has no red-team answers; one of: {names}")
    if exercise.startswith(UNSAID):
        raise SystemExit(f"EXERCISE={exercise!r}: its checker's words change from run to run")
    record = {}
    for path in answers:
        record[path.stem] = report(grade(path))
    (folder / SAID).write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    said.cache_clear()  # this process reads the new record from now on
    return folder / SAID


def _grade_all(paths: list[str]) -> None:
    """In a fresh Python: print the JSON verdicts of the answer files named."""
    print(json.dumps({p: grade(Path(p)) for p in paths}))


# The Triton answers are graded in chunks of this many, each in one fresh Python, so that no
# test waits on more than a chunk's grading (pytest-timeout stops a test at 600 s).
CHUNK = 12


def _interpreted_chunks() -> dict[str, list[str]]:
    """The Triton answers, by chunk name: each exercise's answers in runs of ``CHUNK``."""
    chunks: dict[str, list[str]] = {}
    for exercise in sorted(
        {p.parent.name for p in ANSWERS if p.parent.name.startswith(INTERPRETED)}
    ):
        paths = [str(p) for p in ANSWERS if p.parent.name == exercise]
        for i in range(0, len(paths), CHUNK):
            chunks[f"redteam_interpreted_{exercise}_{i // CHUNK}"] = paths[i : i + CHUNK]
    return chunks


@pytest.fixture(scope="session")
def interpreted(tmp_path_factory):
    """The verdict of a Triton answer, its chunk graded once per session in a Python of its
    own (with the interpreter switched on) the first time one of its answers asks."""
    chunks = _interpreted_chunks()
    chunk_of = {path: name for name, paths in chunks.items() for path in paths}
    verdicts: dict[str, dict] = {}

    def verdict(path: Path) -> dict:
        name = chunk_of[str(path)]
        if name not in verdicts:
            paths = chunks[name]

            def make(folder):
                root = HERE.parent.parent
                env = dict(os.environ, CUDA_VISIBLE_DEVICES="", TRITON_INTERPRET="1")
                env["PYTHONPATH"] = os.pathsep.join([str(root), str(root / "tests")])
                code = "import sys, test_redteam; test_redteam._grade_all(sys.argv[1:])"
                out = fresh_python("-c", code, *paths, timeout=540, env=env)
                assert out.returncode == 0, out.stderr[-3000:]
                return json.loads(out.stdout.strip().splitlines()[-1])

            verdicts[name] = once_per_session(tmp_path_factory, name, make)[1]
        return verdicts[name][str(path)]

    return verdict


def _param(path: Path):
    marks = [pytest.mark.slow] if path.parent.name.startswith(SLOW) else []
    return pytest.param(path, id=f"{path.parent.name}/{path.stem}", marks=marks)


def test_every_answer_file_names_an_exercise_and_what_it_expects():
    assert len(ANSWERS) >= 200, f"only {len(ANSWERS)} red-team answers under {HERE}"
    for path in ANSWERS:
        assert path.parent.name in CHECKERS, f"{path}: no exercise {path.parent.name!r}"
        fields = header(path)
        assert fields.get("expect", "").split(" ")[0] in ("pass", "fail"), (
            f"{path}: its first line must be '# expect: pass' or '# expect: fail <mistake>'"
        )
        if fields["expect"].startswith("fail"):
            assert fields.get("hint"), f"{path}: a wrong answer needs '# hint: <regex>'"
            re.compile(fields["hint"])


def test_answers_read_nothing_outside_the_repository():
    # A clean clone has only what is committed: an answer that imports a helper from /tmp or
    # a home folder would pass where it was written and fail (or hang) everywhere else. A
    # learner's own helper module lives beside the answers, in <exercise>/helpers/.
    for path in ANSWERS + sorted(HERE.glob("*/helpers/*.py")):
        outside = re.findall(r"[\"'](/(?:tmp|home|root|work|Users)/[^\"']*)", path.read_text())
        assert not outside, f"{path.relative_to(HERE)} reads {outside}: put it in helpers/"


@pytest.mark.parametrize("path", [_param(p) for p in ANSWERS])
def test_red_team_answer(path, request):
    fields = header(path)
    if path.parent.name.startswith(INTERPRETED) and not INTERPRETED_HERE:
        result = request.getfixturevalue("interpreted")(path)
    else:
        result = grade(path)
        assert not result["left"], (
            f"grading {path.stem} left the process changed ({', '.join(result['left'])}): every "
            "answer graded after it in this process meets it, and its verdict may change. The "
            "checker's watch on process-wide state (checks/_kit_process) misses this setting"
        )
    if fields.get("open"):
        assert fields["expect"].startswith("fail") and result["status"] == "passed", (
            f"{path.stem} is marked '# open: {fields['open']}', but the checker now fails it: "
            "remove that line, and record what it says (make said)"
        )
        pytest.xfail(f"a wrong answer the checker still passes: {fields['open']}")
    if fields["expect"].startswith("pass"):
        assert result["ok"], f"a right answer failed ({fields['expect']}): {result}"
    else:
        assert result["status"] == "failed", f"a wrong answer ({fields['expect']}) got {result}"
        assert re.search(fields["hint"], result["hint"], re.I | re.S), (
            f"the hint does not name the mistake ({fields['expect']}; wanted /{fields['hint']}/): "
            f"{result['hint']}"
        )
    record = said(path.parent.name)
    if record is not None:
        wanted = record.get(path.stem)
        assert wanted is not None, (
            f"{path.stem} is not in {SAID}: make said EXERCISE={path.parent.name}"
        )
        got = report(result)
        assert got == wanted, (
            f"the checker no longer says what {SAID} records (if the change is meant, "
            f"make said EXERCISE={path.parent.name}): {got} != {wanted}"
        )


def test_each_record_of_what_a_checker_said_names_exactly_the_answers_beside_it():
    folders = sorted(p.parent for p in HERE.glob(f"*/{SAID}"))
    kept = sorted(p.parent for p in ANSWERS if not p.parent.name.startswith(UNSAID))
    assert folders == sorted(set(kept)), f"each exercise but {UNSAID} keeps a {SAID}"
    for folder in folders:
        stems = {p.stem for p in folder.glob("*.py")}
        recorded = said(folder.name)
        assert recorded is not None and set(recorded) == stems, (
            f"{folder.name}/{SAID} is out of date: make said EXERCISE={folder.name}"
        )
        for stem, report in recorded.items():
            assert set(report) == {"hint", "passed"}, (folder.name, stem)
            fields = header(folder / f"{stem}.py")
            wrong = fields["expect"].startswith("fail") and not fields.get("open")  # open: passes
            assert bool(report["hint"]) == wrong, (folder.name, stem)


if __name__ == "__main__":  # make said EXERCISE=<id>
    if len(sys.argv) != 2 or not sys.argv[1]:
        raise SystemExit("EXERCISE=<id> is needed: make said EXERCISE=02.concurrency")
    print(f"wrote {record_said(sys.argv[1])}")
