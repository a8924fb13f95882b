"""Move GPU references stored under their cell's code alone to the key that covers the code above.

    .venv/bin/python tools/rekey_references.py [--dry-run] [--results docs/results]

A reference used to be stored under the SHA-256 of its cell's body; it is now stored
under :func:`d2lgpu.references.cell_key`, which also covers the earlier statements the
cell reads (a size set in an earlier cell, say). An old reference is moved to its new key
only when git shows that what it ran with is what the notebook has today:

1. its provenance names the commit the GPU ran (``origin``: "... at commit <hash>");
2. at that commit, the cell with its id has the code the reference was recorded for
   (the stored SHA-256 is that cell's body hash);
3. today that cell has the same code, and the earlier statements it reads
   (:func:`d2lgpu.references.dependencies`) are the same as at that commit.

Any other old reference is removed: the cell then says that no reference exists, until
the next GPU run records one.

A reference under the current kind of key (it has ``body_sha256``) whose key is no
longer the cell's key is moved to the cell's key when the only change is in assert
messages (an assert's message runs only when the assert fails, so the GPU computed and
printed the same). Git shows what the key was made from:

1. a commit has the notebook with that cell whose :func:`~d2lgpu.references.cell_key`
   is the stored key (the commit its ``origin`` names is tried first, then the
   notebook's history, newest first);
2. the cell's code then and today, and the earlier statements it reads then and today
   (:func:`~d2lgpu.references.dependencies`, found with every assert message left out,
   so that a message reading another name does not count), are equal as ``ast.dump``
   with every ``Assert.msg`` removed (the ``%%requires_gpu`` line dropped).

Any other change leaves the reference where it is, under a key no cell has, and says so.
Each decision is printed with its reason.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from d2lgpu import _cell_statements, references  # noqa: E402
from d2lgpu.magics import gpus_needed  # noqa: E402

COMMIT = re.compile(r"\bat commit ([0-9a-f]{7,40})\b")


def notebook_at(root: Path, commit: str | None, notebook: str) -> dict | None:
    """The notebook's JSON at ``commit`` (None: the working tree); None if it has none."""
    if commit is None:
        path = root / notebook
        return json.loads(path.read_text()) if path.exists() else None
    shown = subprocess.run(
        ["git", "show", f"{commit}:{notebook}"], cwd=root, capture_output=True, text=True
    )
    return json.loads(shown.stdout) if shown.returncode == 0 else None


def find_cell(nb: dict, cell_id: str) -> dict | None:
    return next((c for c in nb["cells"] if c.get("id") == cell_id), None)


def source_of(cell: dict) -> str:
    source = cell.get("source", "")
    return source if isinstance(source, str) else "".join(source)


def first_lines(statements: list[str]) -> str:
    return "; ".join(repr(s.splitlines()[0][:60]) for s in statements)


def decide(
    root: Path, notebook: str, cell_id: str, entry: dict
) -> tuple[str | None, list[str], str]:
    """(the new key or None for stale, the statements it covers, why)."""
    found = COMMIT.search(entry.get("origin", ""))
    if not found:
        return None, [], f"its origin {entry.get('origin')!r} names no commit to check against"
    commit = found.group(1)
    then_nb = notebook_at(root, commit, notebook)
    then_cell = then_nb and find_cell(then_nb, cell_id)
    if not then_cell:
        return None, [], f"{notebook} has no cell {cell_id} at {commit}"
    then_source = source_of(then_cell)
    if references.body_sha256(references.cell_body(then_source)) != entry["sha256"]:
        return None, [], f"its recorded code is not the cell's code at {commit}: unverifiable"
    now_nb = notebook_at(root, None, notebook)
    now_cell = now_nb and find_cell(now_nb, cell_id)
    if not now_cell or not gpus_needed(now_cell.get("metadata", {}).get("tags", [])):
        return None, [], "the notebook has no such GPU cell today"
    now_source = source_of(now_cell)
    if references.body_sha256(references.cell_body(now_source)) != entry["sha256"]:
        return None, [], f"the cell's code changed since {commit}"
    then_reads = references.dependencies(
        then_source, references.earlier_sources(then_nb["cells"], cell_id)
    )
    now_earlier = references.earlier_sources(now_nb["cells"], cell_id)
    now_reads = references.dependencies(now_source, now_earlier)
    if then_reads != now_reads:
        gone = [s for s in then_reads if s not in now_reads]
        new = [s for s in now_reads if s not in then_reads]
        changes = []
        if gone:
            changes.append(f"ran after {first_lines(gone)}")
        if new:
            changes.append(f"reads now {first_lines(new)}")
        if not changes:
            changes.append("the same statements in another order")
        return None, [], f"what it reads above changed since {commit}: " + "; ".join(changes)
    key = references.cell_key(now_source, now_earlier)
    return (
        key,
        now_reads,
        f"its code and the {len(now_reads)} statements it reads are as at {commit}",
    )


def without_assert_messages(source: str) -> str:
    """The cell as Python (``%%requires_gpu`` line dropped) with every assert's message removed.

    A source that is not Python is returned as it is.
    """
    tree = _tree_without_messages(source)
    return source if tree is None else ast.unparse(tree)


def _tree_without_messages(source: str) -> ast.Module | None:
    try:
        tree = ast.parse(_cell_statements.python_source(source))
    except (SyntaxError, ValueError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            node.msg = None
    return tree


def code_without_messages(source: str, earlier: list[str]) -> list[str]:
    """``ast.dump`` of the cell and of the earlier statements it reads, assert messages removed.

    The statements it reads are found with the messages removed too: a message may read a
    name that the code does not.
    """
    body = _tree_without_messages(source)
    reads = references.dependencies(
        without_assert_messages(source), [without_assert_messages(s) for s in earlier]
    )
    dumps = [ast.dump(body) if body is not None else references.cell_body(source)]
    for statement in reads:
        tree = _tree_without_messages(statement)
        dumps.append(ast.dump(tree) if tree is not None else statement)
    return dumps


def notebook_commits(root: Path, notebook: str, first: str | None) -> list[str]:
    """The commits to look for a recorded version in: ``first``, then the notebook's history."""
    log = subprocess.run(
        ["git", "log", "--format=%H", "--", notebook], cwd=root, capture_output=True, text=True
    )
    history = log.stdout.split() if log.returncode == 0 else []
    return ([first] if first else []) + history


def recorded_version(
    root: Path, notebook: str, cell_id: str, entry: dict
) -> tuple[str, str, list[str]] | None:
    """``(commit, source, earlier sources)`` of the cell as it was when its key was made."""
    found = COMMIT.search(entry.get("origin", ""))
    seen = set()
    for commit in notebook_commits(root, notebook, found and found.group(1)):
        if commit in seen:
            continue
        seen.add(commit)
        nb = notebook_at(root, commit, notebook)
        cell = nb and find_cell(nb, cell_id)
        if not cell:
            continue
        recorded_body = entry.get("body_sha256")
        if (
            recorded_body
            and references.body_sha256(references.cell_body(source_of(cell))) != recorded_body
        ):
            continue  # not the code it recorded: no need to work out the code above
        earlier = references.earlier_sources(nb["cells"], cell_id)
        if references.cell_key(source_of(cell), earlier) == entry["sha256"]:
            return commit, source_of(cell), earlier
    return None


def follow_assert_messages(
    root: Path, notebook: str, cell_id: str, entry: dict
) -> tuple[str | None, str]:
    """(the cell's key today if only assert messages changed since its GPU run, else None; why)."""
    now_nb = notebook_at(root, None, notebook)
    now_cell = now_nb and find_cell(now_nb, cell_id)
    if not now_cell or not gpus_needed(now_cell.get("metadata", {}).get("tags", [])):
        return None, "the notebook has no such GPU cell today; left as it is"
    now_source = source_of(now_cell)
    now_earlier = references.earlier_sources(now_nb["cells"], cell_id)
    key = references.cell_key(now_source, now_earlier)
    if key == entry["sha256"]:
        return None, "already under the cell's current key"
    then = recorded_version(root, notebook, cell_id, entry)
    if then is None:
        return None, (
            "its key is not the cell's key today, and no commit of the notebook has the cell "
            "with that key: left as it is (lost until a GPU records the cell again)"
        )
    commit, then_source, then_earlier = then
    then_code = code_without_messages(then_source, then_earlier)
    now_code = code_without_messages(now_source, now_earlier)
    if then_code != now_code:
        what = "its code" if then_code[0] != now_code[0] else "what it reads above"
        return None, (
            f"{what} changed since {commit[:12]} beyond assert messages: left under its old "
            "key (lost until a GPU records the cell again)"
        )
    return key, (
        f"its code and the {len(now_code) - 1} statements it reads differ from those at "
        f"{commit[:12]} only in assert messages, which run only when an assert fails"
    )


def migrate(results: Path, write: bool, root: Path = ROOT) -> tuple[int, int, int]:
    """Re-key or remove the references under ``results``; notebooks and git from ``root``.

    Returns how many were re-keyed, removed as stale and kept as they are.
    """
    rekeyed = stale = kept = 0
    for path in sorted(results.glob("*/cells/*.json")):
        data = json.loads(path.read_text())
        notebook = data["notebook"]
        for cell_id, entry in sorted(data["cells"].items()):
            where = f"{path.parent.parent.name} {notebook} {cell_id}"
            if "body_sha256" in entry:
                key, why = follow_assert_messages(root, notebook, cell_id, entry)
                if key is None:
                    kept += 1
                    print(f"kept      {where}: {why}")
                    continue
                rekeyed += 1
                nb = notebook_at(root, None, notebook)
                source = source_of(find_cell(nb, cell_id))
                earlier = references.earlier_sources(nb["cells"], cell_id)
                entry.update(
                    sha256=key,
                    body_sha256=references.body_sha256(references.cell_body(source)),
                    reads=references.dependencies(source, earlier),
                )
                print(f"re-keyed  {where}: {why}")
                continue
            key, reads, why = decide(root, notebook, cell_id, entry)
            if key is None:
                stale += 1
                del data["cells"][cell_id]
                print(f"stale     {where}: {why}")
            else:
                rekeyed += 1
                entry.update(sha256=key, body_sha256=entry["sha256"], reads=reads)
                print(f"re-keyed  {where}: {why}")
        if write:
            if data["cells"]:
                path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
            else:
                path.unlink()
                print(f"removed   {path.relative_to(results)}: no reference left")
    return rekeyed, stale, kept


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dry-run", action="store_true", help="print the decisions only")
    parser.add_argument(
        "--results", type=Path, default=references.RESULTS_DIR, help="default: %(default)s"
    )
    args = parser.parse_args(argv)
    if not args.results.is_dir():
        parser.error(f"--results must be a folder of GPU results, got {args.results}")
    rekeyed, stale, kept = migrate(args.results, write=not args.dry_run)
    print(f"{rekeyed} re-keyed, {stale} stale (removed), {kept} kept as they are")
    return 0


if __name__ == "__main__":
    sys.exit(main())
