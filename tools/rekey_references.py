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

Any other reference is removed: the cell then says that no reference exists, until the
next GPU run records one. Each decision is printed with its reason. References that
already carry the new key (``body_sha256``) are left as they are.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from d2lgpu import references  # noqa: E402
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


def migrate(results: Path, write: bool, root: Path = ROOT) -> tuple[int, int, int]:
    """Re-key or remove the old references under ``results``; notebooks and git from ``root``."""
    rekeyed = stale = kept = 0
    for path in sorted(results.glob("*/cells/*.json")):
        data = json.loads(path.read_text())
        notebook = data["notebook"]
        for cell_id, entry in sorted(data["cells"].items()):
            where = f"{path.parent.parent.name} {notebook} {cell_id}"
            if "body_sha256" in entry:
                kept += 1
                print(f"kept      {where}: already under the new key")
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
    print(f"{rekeyed} re-keyed, {stale} stale (removed), {kept} already under the new key")
    return 0


if __name__ == "__main__":
    sys.exit(main())
