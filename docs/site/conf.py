"""Sphinx settings of the course's static book (`make site`, tools/site.py).

tools/site.py stages this file, index.md and the course's files into build/site-src/ with the
repository's own layout (notebooks/, exercises/, docs/results/...), so a notebook's relative
link to another notebook resolves as it does on GitHub, and writes ``_course.json`` beside it:
the repository URL from pyproject.toml's [project.urls] "Repository", or null.

A link to a file the book leaves out (solutions/, scripts/, docs/*.md) becomes a link to that
file in the repository when a URL is configured, and plain text otherwise (``setup`` below),
so that ``sphinx-build -W`` fails only on links that are really broken.

A chapter's Going-further part (cells tagged ``going-further``, headed by a heading
"Going further: ...") shows as a collapsed ``<details>`` element, the look of myst-nb's own
hidden cells: tools/site.py labels the part's heading ``part-going-further-...``, so the part is the
section that label names, and ``GoingFurtherParts`` below puts the section's content, its
code cells and their outputs included, in the dropdown. A part that does not come out whole
in a dropdown is a warning, so ``-W`` fails the build.
"""

import json
import posixpath
from html import escape
from pathlib import Path

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

HERE = Path(__file__).resolve().parent
COURSE = json.loads((HERE / "_course.json").read_text())
REPOSITORY = COURSE["repository"]  # "https://github.com/owner/name" or None
BRANCH = COURSE["branch"]
ROOT = Path(COURSE["root"])  # the repository's working tree

project = "d2lgpu: GPU acceleration in PyTorch"
author = "the d2lgpu authors"
extensions = ["myst_nb"]
exclude_patterns = ["_build", "readme.md", "_course.json", "**.ipynb_checkpoints"]
html_theme = "sphinx_book_theme"
html_title = "d2lgpu"
html_show_sourcelink = False
# course.css: inline code wraps on a phone, wide code and tables scroll in their own box, and
# the text column is at least 960 px in a 1,400 px window (tests/test_site.py checks both).
html_static_path = ["_static"]
html_css_files = ["course.css"]
html_copy_source = True  # the download button: the page's .ipynb or .md

# The stored outputs are the content: nothing is run.
nb_execution_mode = "off"
# A GPU cell stores its reference as text/html (a bordered block headed "Recorded on <GPU> with
# torch <version>, <date>", other GPUs' blocks in a closed <details>) with the same text as
# text/plain. myst-nb's default order for HTML already prefers text/html, and a plot's
# image/png, to text/plain, and it shows stored HTML as it is (no sanitizing), so the book
# shows the block and the plots: no nb_mime_priority_overrides.
myst_heading_anchors = 3
suppress_warnings = ["mystnb.unknown_mime_type"]  # tqdm's widgets: the chapters hide them

# The theme's repository button and, for whoever adds them, the launch links ("Open in Colab",
# "Open in Kaggle"): the repository URL is in html_context, empty where none is configured.
# A page's file in the repository is its docname plus its suffix (notebooks/04_amp.ipynb): the
# book keeps the repository's layout.
html_context = {"repository_url": REPOSITORY or "", "repository_branch": BRANCH}
html_theme_options = {
    "show_toc_level": 2,
    "home_page_in_toc": True,
    "launch_buttons": {},  # the hook for Colab/Kaggle launch buttons
}
if REPOSITORY:
    html_theme_options |= {
        "repository_url": REPOSITORY,
        "repository_branch": BRANCH,
        "use_repository_button": True,
    }


class LinksOutOfTheBook(SphinxPostTransform):
    """A MyST link to a repository file the book leaves out: to GitHub, or plain text.

    Runs before MyST's own resolver (priority 9), which would warn that the target is missing.
    """

    default_priority = 5

    def run(self, **kwargs) -> None:
        from sphinx import addnodes

        for node in list(self.document.findall(addnodes.pending_xref)):
            if node.get("reftype") != "myst":
                continue
            target = node["reftarget"].partition("#")[0]
            docdir = posixpath.dirname(self.env.docname)
            path = posixpath.normpath(posixpath.join(docdir, target)).rstrip("/")
            if path.startswith("..") or (HERE / path).is_file() or not (ROOT / path).exists():
                continue  # in the book, or missing from the repository too: MyST decides
            text = node[0].deepcopy() if len(node) else nodes.Text(target)
            if REPOSITORY:
                kind = "tree" if (ROOT / path).is_dir() else "blob"
                link = nodes.reference("", "", refuri=f"{REPOSITORY}/{kind}/{BRANCH}/{path}")
                link += text
                node.replace_self(link)
            else:
                node.replace_self(text)


# tools/site.py's label on a part's heading, and myst-nb's class on a cell tagged going-further.
PART_LABEL = "part-going-further-"
PART_CELL_CLASS = "tag_going-further"


class going_further(nodes.General, nodes.Element):
    """A Going-further part on the page: a collapsed ``<details>``, its heading as the summary."""


def visit_going_further(self, node) -> None:
    self.body.append(
        '<details class="admonition going-further">\n<summary aria-label="Show or hide">'
        f'<p class="admonition-title">{escape(node["title"])}</p></summary>\n'
    )


def depart_going_further(self, node) -> None:
    self.body.append("</details>\n")


class GoingFurtherParts(SphinxPostTransform):
    """Each section labelled ``part-going-further-*`` keeps its anchor; its content goes in a dropdown."""

    default_priority = 200
    formats = ("html",)

    def run(self, **kwargs) -> None:
        log = logging.getLogger(__name__)
        for name, node in list(self.document.ids.items()):
            if not name.startswith(PART_LABEL):
                continue
            if not isinstance(node, nodes.section) or not isinstance(node[0], nodes.title):
                log.warning(
                    f"a Going-further part ({name}) must start with a heading "
                    "(tools/main_path.py says what is wrong)",
                    location=node,
                )
                continue
            if any(isinstance(p, going_further) for p in _ancestors(node)):
                continue
            title, body = node[0], list(node.children[1:])
            part = going_further(title=title.astext())
            for child in node.children[:]:
                node.remove(child)
            part.extend(body)
            node.append(part)
        for cell in self.document.findall(nodes.container):
            if PART_CELL_CLASS in cell.get("classes", []) and not any(
                isinstance(p, going_further) for p in _ancestors(cell)
            ):
                log.warning(
                    "a cell tagged going-further is outside its part's dropdown: the part "
                    "must start with its heading and end at the next heading of the same or "
                    "a higher level (tools/main_path.py)",
                    location=cell,
                )


def _ancestors(node):
    while node.parent is not None:
        node = node.parent
        yield node


def setup(app):
    app.add_post_transform(LinksOutOfTheBook)
    app.add_node(going_further, html=(visit_going_further, depart_going_further))
    app.add_post_transform(GoingFurtherParts)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
