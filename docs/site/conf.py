"""Sphinx settings of the course's static book (`make site`, tools/site.py).

tools/site.py stages this file, index.md and the course's files into build/site-src/ with the
repository's own layout (notebooks/, exercises/, docs/results/...), so a notebook's relative
link to another notebook resolves as it does on GitHub, and writes ``_course.json`` beside it:
the repository URL from pyproject.toml's [project.urls] "Repository", or null.

A link to a file the book leaves out (solutions/, scripts/, docs/*.md) becomes a link to that
file in the repository when a URL is configured, and plain text otherwise (``setup`` below),
so that ``sphinx-build -W`` fails only on links that are really broken.
"""

import json
import posixpath
from pathlib import Path

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

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


def setup(app):
    app.add_post_transform(LinksOutOfTheBook)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
