"""`make site`: the course as a static HTML book, built with Sphinx and myst-nb from the stored notebooks.

Nothing is executed: the pages show the outputs stored in ``notebooks/`` (a GPU cell's
reference block included). The build runs offline, from the packages of the lock's ``site``
extra. Two steps:

1. **stage** ``build/site-src/`` (git-ignored), with the repository's own layout so that the
   notebooks' relative links resolve as they do on GitHub: ``docs/site/``'s ``conf.py`` and
   ``index.md`` at its root, its other pages (the glossary, ``docs/site/glossary.md``) at
   their own path, ``notebooks/*.ipynb``, the exercise prompts ``exercises/*.ipynb`` and a
   page for each exercise script ``exercises/*.py`` (never ``solutions/``), each GPU's bench (``docs/results/<GPU>/bench/``: its
   ``summary.md`` with its plots appended), the README's front matter (``readme.md``, which
   ``index.md`` includes: the sections in ``README_SECTIONS``) with the images it shows, and
   ``_course.json`` (the repository URL of pyproject.toml's [project.urls] "Repository", or
   null); a notebook's Going-further parts (cells tagged ``going-further``) become collapsed
   dropdowns, their code cells and outputs inside (``label_parts`` here, ``docs/site/conf.py``);
2. **build** ``build/site/`` with ``sphinx-build -W --keep-going``: any warning, a broken link
   or cross-reference among them, fails it. A link to a repository file the book leaves out
   (a solution, a script, a guide in ``docs/``) becomes a link into the repository, or plain
   text where no URL is configured (``docs/site/conf.py``).

    python tools/site.py [--src build/site-src] [--out build/site]
"""

from __future__ import annotations

import argparse
import configparser
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # d2lgpu from the checkout, as tools/setup_cell.py does

from d2lgpu import links  # noqa: E402

SITE_PATH = "docs/site"  # the book's own sources, in the repository and in the staged book
SITE = ROOT / SITE_PATH
BRANCH = links.BRANCH
# The README's sections the front page shows ("" is its top, the title and the first
# paragraphs): what the course is, where it runs, its chapters and exercises, its GPU results.
# The others are about a clone of the repository (`make lab` and every make target, measuring
# your own machine, DDP commands, troubleshooting, the layout) and stay there.
README_SECTIONS = (
    "",
    "What runs on your hardware",
    "Chapters",
    "Self-check an exercise",
    "Results on a GPU",
)
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")


def site_pages() -> list[Path]:
    """The book's own pages besides the front page: ``docs/site/*.md`` but ``index.md`` (the
    glossary). The book keeps them at their path in the repository, ``docs/site/``, so that a
    chapter's link to ``../docs/site/glossary.md#<term>`` resolves in the book as on GitHub."""
    return sorted(path for path in SITE.glob("*.md") if path.name != "index.md")


def repository_url() -> str | None:
    """The configured repository (:func:`d2lgpu.links.repository_url`), or None where none is."""
    try:
        return links.repository_url()
    except LookupError:
        return None


def readme_sections(text: str, wanted: tuple[str, ...] = README_SECTIONS) -> str:
    """The README's sections named in ``wanted``, in the README's order ("" is its top)."""
    parts = re.split(r"^(?=## )", text, flags=re.M)
    by_title = {"": parts[0]}
    for part in parts[1:]:
        by_title[part.splitlines()[0].removeprefix("## ").strip()] = part
    missing = [title for title in wanted if title not in by_title]
    if missing:
        raise ValueError(
            f"README_SECTIONS names sections that README.md does not have: {missing}; "
            f"its sections are {[t for t in by_title if t]}"
        )
    return "".join(part for title, part in by_title.items() if title in wanted)


def bench_page(bench: Path) -> str:
    """A GPU's ``summary.md`` with its plots below it."""
    plots = "".join(f"\n![{p.stem} on this GPU]({p.name})\n" for p in sorted(bench.glob("*.png")))
    return bench.joinpath("summary.md").read_text().rstrip() + "\n" + plots


def script_page(name: str) -> str:
    """The page of an exercise's script (chapter 5's DDP script): the prompt's code, shown."""
    return (
        f"# `{name}`\n\n"
        f"The exercise's script as `make lab` copies it, into `work/exercises/{name}`; the\n"
        "exercise notebook of its chapter says what to change.\n\n"
        f"```{{literalinclude}} {name}\n:language: python\n```\n"
    )


def copy(source: Path, src: Path) -> None:
    target = src / source.relative_to(ROOT)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, target)


def _sanitize_regex(section: str) -> str:
    """The regex of ``section`` in tests/sanitize.cfg, nbval's list of what it leaves out."""
    parser = configparser.ConfigParser()
    parser.read(ROOT / "tests" / "sanitize.cfg")
    return parser[section]["regex"]


# A GPU block caption's note comparing the recording torch with the torch of the machine that
# stored the outputs ("(this machine has torch 2.14.1)"): on a website that machine is nobody's,
# and nbval leaves it out too. The blocks of other GPUs stay collapsed in their <details>.
OTHER_TORCH = re.compile(_sanitize_regex("torch-of-this-machine"))
# The line a GPU cell prints where it skips ("Skipped: this cell needs a CUDA GPU; 0 are visible
# here."): the machine that stored the outputs is nobody's on a website. Above a reference block,
# which says where it was recorded, the line goes; where no block follows, it says only what
# the cell needs and that no run of it is recorded.
SKIP_LINE = re.compile(r"^Skipped: this cell needs ([^;\n]*); \d+ (?:is|are) visible here\.", re.M)


def shows_reference(cell: dict) -> bool:
    """Whether a cell's outputs hold a GPU reference block (d2lgpu.references)."""
    return any(
        "<strong>Recorded on " in "".join(output.get("data", {}).get("text/html", ""))
        for output in cell.get("outputs", [])
    )


def launch_cell(path: str, repository: str) -> dict:
    """A markdown cell of links that open the notebook ``path`` in Colab and in Kaggle."""
    colab, kaggle = links.colab_url(path, repository), links.kaggle_url(path, repository)
    return {
        "cell_type": "markdown",
        "id": "launch",
        "metadata": {"tags": ["launch"]},
        "source": f"[Open in Colab]({colab}) · [Open in Kaggle]({kaggle})",
    }


# A Going-further part (CONTRIBUTING.md): consecutive cells with this tag, headed by a heading.
GOING_FURTHER = "going-further"


def label_parts(notebook: dict, stem: str) -> int:
    """Label the heading of each Going-further part ``part-going-further-<stem>-<cell id>``.

    docs/site/conf.py shows the section that label names as a collapsed dropdown (the part's
    cells and their outputs inside it); a part that does not start with a markdown cell is not
    labelled, and its cells then fail the build. Returns how many parts were labelled.
    """
    count, inside = 0, False
    for cell in notebook["cells"]:
        tagged = GOING_FURTHER in cell.get("metadata", {}).get("tags", [])
        if tagged and not inside and cell["cell_type"] == "markdown":
            count += 1
            label = re.sub(
                r"[^a-z0-9]+", "-", f"part-going-further-{stem}-{cell.get('id')}".lower()
            )
            text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            cell["source"] = f"({label})=\n{text}"
        inside = tagged
    return count


def copy_notebook(source: Path, src: Path, repository: str | None = None) -> None:
    """Copy a notebook into ``src`` for the book: without the line naming the torch that stored
    its outputs, nor a GPU cell's skip line above its reference block, with its set-up cell
    (for Colab and Kaggle) left off the page, its Going-further parts labelled for their
    dropdown (:func:`label_parts`), and, where a repository is configured, links that open it
    in Colab and Kaggle under its title."""
    notebook = json.loads(source.read_text())
    label_parts(notebook, source.stem)
    for cell in notebook["cells"]:
        tags = cell.setdefault("metadata", {}).get("tags", [])
        if "setup" in tags:
            cell["metadata"]["tags"] = [*tags, "remove-cell"]
        reference = shows_reference(cell)
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream":
                text = "".join(output.get("text", ""))
                if reference:  # the whole line, with what follows it on that line
                    text = re.sub(SKIP_LINE.pattern + r"[^\n]*\n?", "", text, flags=re.M)
                output["text"] = SKIP_LINE.sub(
                    r"This cell needs \1; no GPU run of it is recorded.", text
                )
        cell["outputs"] = [
            o for o in cell.get("outputs", []) if o.get("output_type") != "stream" or o["text"]
        ]
        for output in cell.get("outputs", []):
            for mime, text in output.get("data", {}).items():
                if mime in ("text/plain", "text/html"):
                    joined = "".join(text) if isinstance(text, list) else text
                    output["data"][mime] = OTHER_TORCH.sub("", joined)
    if repository:
        relative = source.relative_to(ROOT).as_posix()
        after_title = (
            1 if notebook["cells"] and notebook["cells"][0]["cell_type"] == "markdown" else 0
        )
        notebook["cells"].insert(after_title, launch_cell(relative, repository))
    target = src / source.relative_to(ROOT)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n")


def stage(src: Path) -> list[str]:
    """Write the Sphinx source folder ``src`` (emptied first); return its pages."""
    if src.exists():
        shutil.rmtree(src)
    src.mkdir(parents=True)
    pages, own = ["index"], site_pages()
    for path in SITE.iterdir():
        if path in own:  # at its path in the repository, as a notebook is
            target = src / SITE_PATH / path.name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)
            pages.append(f"{SITE_PATH}/{path.stem}")
        elif path.is_file():
            shutil.copy2(path, src / path.name)
        elif path.name == "_static":  # the book's own CSS (html_static_path)
            shutil.copytree(path, src / path.name)
    course = {"repository": repository_url(), "branch": BRANCH, "root": str(ROOT)}
    (src / "_course.json").write_text(json.dumps(course, indent=1) + "\n")

    readme = readme_sections((ROOT / "README.md").read_text())
    (src / "readme.md").write_text(readme)
    for image in IMAGE.findall(readme):
        if "://" not in image and (ROOT / image).is_file():
            copy(ROOT / image, src)

    for folder in ("notebooks", "exercises"):
        for notebook in sorted((ROOT / folder).glob("[0-9]*.ipynb")):
            copy_notebook(notebook, src, course["repository"])
            pages.append(f"{folder}/{notebook.stem}")
    for script in sorted((ROOT / "exercises").glob("[0-9]*.py")):
        copy(script, src)
        page = src / "exercises" / f"{script.stem}.md"
        page.write_text(script_page(script.name))
        pages.append(f"exercises/{script.stem}")
    for summary in sorted((ROOT / "docs" / "results").glob("*/bench/summary.md")):
        bench = summary.parent
        for plot in bench.glob("*.png"):
            copy(plot, src)
        page = src / summary.relative_to(ROOT)
        page.write_text(bench_page(bench))
        pages.append(page.relative_to(src).with_suffix("").as_posix())
    return pages


def build(src: Path, out: Path, jobs: str = "1") -> subprocess.CompletedProcess:
    """``sphinx-build -W`` from ``src`` into ``out`` (emptied first); its output captured."""
    doctrees = src.parent / f"{src.name}-doctrees"
    for folder in (out, doctrees):  # a clean build: Sphinx warns only about the pages it reads
        if folder.exists():
            shutil.rmtree(folder)
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q"]
    command += ["-j", jobs, "-d", str(doctrees), str(src), str(out)]
    return subprocess.run(command, capture_output=True, text=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=ROOT / "build" / "site-src")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "site")
    parser.add_argument("-j", "--jobs", default="1", help="sphinx-build's -j (default 1)")
    args = parser.parse_args(argv)
    if args.src.resolve() == args.out.resolve():
        parser.error("--src and --out must be different folders")
    pages = stage(args.src)
    done = build(args.src, args.out, args.jobs)
    sys.stdout.write(done.stdout)
    sys.stderr.write(done.stderr)
    if done.returncode != 0:
        print(f"sphinx-build failed (exit {done.returncode}); warnings count as errors (-W)")
        return done.returncode
    print(f"{len(pages)} pages in {args.out}; open {args.out / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
