"""The names and counts of mutmut's mutants, for tools/mutation.py: which names belong to a
module (or to some of its functions), and a module's counts by status, read from mutmut's
``mutants/<module>.meta``, as a row of docs/mutation.md's tables."""

from __future__ import annotations

import json
from collections import Counter
from fnmatch import fnmatch
from pathlib import Path

# mutmut's statuses, in the order the table shows them; "reached" is every mutant that
# some test ran against, and its score counts a time-out as killed (as mutmut does).
COLUMNS = ("killed", "survived", "no tests", "timeout", "other")
REACHED = ("killed", "survived", "timeout", "other")


def mutant_module(path: str | Path) -> str:
    """The module whose functions the tests import from the file ``path`` (under d2lgpu/ or tools/).

    ``d2lgpu/checks/ch08_streams.py``: ``d2lgpu.checks.ch08_streams``; ``tools/work_copies.py``:
    ``work_copies``, since the tests put ``tools/`` on ``sys.path`` and import it by that name.
    """
    path = Path(path)
    if path.suffix != ".py" or len(path.parts) < 2 or path.parts[0] not in ("d2lgpu", "tools"):
        raise ValueError(f"module must be a .py file under d2lgpu/ or tools/, got {str(path)!r}")
    parts = path.with_suffix("").parts
    return ".".join(parts[1:] if parts[0] == "tools" else parts)


def mutant_pattern(module: str) -> str:
    """The glob of mutmut's names for the mutants of ``module`` (a path under d2lgpu/ or tools/)."""
    return mutant_module(module) + ".*"


def mutant_patterns(module: str, functions: list[str] | None = None) -> list[str]:
    """The globs of ``module``'s mutants, only of ``functions`` where given: a module's function
    by its name, a method as ``Class.method`` (mutmut's ``xǁClassǁmethod``)."""
    if not functions:
        return [mutant_pattern(module)]
    if bad := [f for f in functions if not f.replace(".", "").replace("_", "").isalnum()]:
        raise ValueError(f"functions must be names such as check_ddp or Class.method, got {bad}")
    names = ("xǁ" + f.replace(".", "ǁ") if "." in f else "x_" + f for f in functions)
    return [f"{mutant_module(module)}.{name}__mutmut_*" for name in names]


def count_statuses(exit_codes: dict[str, int | None]) -> Counter:
    """Count mutmut's exit codes (a ``.meta`` file's ``exit_code_by_key``) by status.

    Each of :data:`COLUMNS` gets a count (zero where none), plus "not checked" for the
    mutants not run yet; a status outside them (suspicious, segfault, skipped) is "other".
    """
    from mutmut.stats import status_by_exit_code

    counts = Counter({column: 0 for column in COLUMNS})
    for code in exit_codes.values():
        status = status_by_exit_code[code]
        if status == "caught by type check":
            status = "killed"
        counts[status if status in COLUMNS or status == "not checked" else "other"] += 1
    return counts


def score(counts: Counter) -> float | None:
    """The share of reached mutants that a test killed (or timed out), None if none was reached."""
    reached = sum(counts[s] for s in REACHED)
    return None if not reached else (counts["killed"] + counts["timeout"]) / reached


def read_counts(module: str, mutants_dir: Path, functions: list[str] | None = None) -> Counter:
    """The counts of ``module``'s mutants (of ``functions`` alone, where given) from the last
    run, all zero before any."""
    meta = mutants_dir / (module + ".meta")
    if not meta.exists():
        return count_statuses({})
    codes = json.loads(meta.read_text())["exit_code_by_key"]
    globs = mutant_patterns(module, functions)
    return count_statuses({k: v for k, v in codes.items() if any(fnmatch(k, g) for g in globs)})


def table_row(module: str, counts: Counter, wall_s: float | None) -> str:
    """One markdown row: module, the counts of COLUMNS, not checked, score, wall time."""
    s = score(counts)
    cells = [f"`{module}`", *(str(counts[c]) for c in COLUMNS), str(counts["not checked"])]
    cells.append("-" if s is None else f"{100 * s:.1f}%")
    cells.append("-" if wall_s is None else f"{wall_s / 60:.1f} min")
    return "| " + " | ".join(cells) + " |"


TABLE_HEADER = (
    "| module | killed | survived | no tests | timeout | other | not checked | score | wall |\n"
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
)
