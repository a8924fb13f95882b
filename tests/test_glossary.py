"""The glossary, ``docs/site/glossary.md``, and the rule that a term is defined before it is used.

The page: one ``###`` heading per term (its anchor is the heading's slug, as GitHub and the
book's MyST make it), a definition of one to three sentences, and a last paragraph starting
"See" that names, as links into ``notebooks/``, the chapter sections that explain or measure
the term. ``TERMS`` below lists the same terms, each with the spellings that count as a use:
case-sensitive, plurals and code spellings written out, matched as whole words (no letter,
digit, ``_`` or ``-`` next to them, so ``launch`` is not found in ``launch-bound`` nor
``node`` in ``--nproc-per-node``). The test checks both ways that the list and the page hold
the same terms.

**The rule.** Reading the markdown cells of chapters 1 to 11 in order (main path and
Going-further parts alike; fenced code blocks and link targets left out), the first cell that
uses a term must either

- link to the term's entry, ``[text](../docs/site/glossary.md#<anchor>)``, or
- define it: set one of its spellings in bold, ``**term**``, the course's mark for a term
  that its sentence defines (a parenthesis or an apposition right after it, as in
  "the **dispatcher** (the part of PyTorch that picks the kernel...)").

The test cannot read the sentence: that a bold first use is followed by its definition is
checked by whoever writes it. A cell counts as a whole: a term in a section heading is
defined by the bold or the link in the text under it.

Links from a chapter to the glossary are written relative to the chapter, as every link of
the course is; the book (``tools/site.py``) stages the page at the same path, and the lab's
copies (``tools/work_copies.py``) point them at the page in the course's repository.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "docs" / "site" / "glossary.md"
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
FROM_A_CHAPTER = "../docs/site/glossary.md"  # a chapter's link to the page
TO_A_CHAPTER = "../../notebooks/"  # the page's links to the chapters
MIN_TERMS, MAX_TERMS = 40, 60

# heading of the entry -> the spellings that count as a use of the term
TERMS: dict[str, tuple[str, ...]] = {
    # the GPU and CUDA
    "CUDA": ("CUDA",),
    "driver": ("driver", "drivers", "Driver"),
    "compute capability": ("compute capability", "compute capabilities"),
    "SM": ("SM", "SMs", "streaming multiprocessor", "streaming multiprocessors"),
    "tensor core": ("tensor core", "tensor cores", "Tensor Core", "Tensor Cores", "Tensor-Core"),
    "kernel": ("kernel", "kernels", "Kernel", "Kernels"),
    "launch": ("launch", "launches", "launched", "launching", "Launch", "Launching"),
    "stream": ("stream", "streams", "Stream", "Streams"),
    "event": ("event", "events", "Event", "Events"),
    "CUDA context": ("CUDA context", "CUDA contexts"),
    "atomic operation": (
        "atomic operation",
        "atomic operations",
        "atomics",
        "atomic addition",
        "atomic additions",
    ),
    # the libraries under PyTorch
    "dispatcher": ("dispatcher",),
    "cuBLAS": ("cuBLAS", "CuBLAS", "CUBLAS"),
    "cuDNN": ("cuDNN", "cudnn"),
    "Triton": ("Triton", "triton"),
    # memory and transfers
    "PCIe": ("PCIe",),
    "NVLink": ("NVLink", "NVLinks"),
    "NVSwitch": ("NVSwitch", "NVSwitches"),
    "copy engine": ("copy engine", "copy engines"),
    "pinned memory": ("pinned memory", "pinned", "Pinned", "page-locked", "pinning", "Pinning"),
    "caching allocator": ("caching allocator", "caching allocators"),
    "fragmentation": ("fragmentation", "fragmented", "Fragmentation"),
    "sync point": ("sync point", "sync points", "Sync points"),
    # numbers and precision
    "FLOP": ("FLOP", "FLOPs", "FLOP/s", "TFLOP/s", "GFLOP/s"),
    "bf16 and fp16": ("bf16", "fp16", "bfloat16", "float16", "BF16", "FP16"),
    "TF32": ("TF32", "tf32"),
    "AMP": (
        "AMP",
        "mixed precision",
        "Mixed precision",
        "automatic mixed precision",
        "Automatic mixed precision",
    ),
    "loss scaling": ("loss scaling", "loss scaler", "Loss scaling"),
    # performance
    "eager mode": ("eager mode", "eager", "Eager mode"),
    "fusion": ("fusion", "Fusion", "fuse", "fuses", "fused", "fusing", "Fuse", "Fusing", "Fused"),
    "launch-bound": ("launch-bound", "Launch-bound"),
    "CUDA graph": ("CUDA graph", "CUDA graphs"),
    "memory-bound and compute-bound": (
        "memory-bound",
        "compute-bound",
        "Memory-bound",
        "Compute-bound",
    ),
    "ridge point": ("ridge point", "ridge points", "arithmetic intensity"),
    "roofline": ("roofline", "Roofline"),
    "MFU": ("MFU", "model FLOPs utilization"),
    # training in less memory
    "micro-batch": (
        "micro-batch",
        "micro-batches",
        "microbatch",
        "microbatches",
        "Micro-batch",
        "Micro-batches",
    ),
    "gradient accumulation": ("gradient accumulation", "Gradient accumulation"),
    "activation checkpointing": (
        "activation checkpointing",
        "Activation checkpointing",
        "checkpointing",
        "Checkpointing",
    ),
    # distributed training
    "DDP": ("DDP", "DistributedDataParallel"),
    "process group": ("process group", "process groups", "Process groups"),
    "rank": ("rank", "ranks", "Rank", "Ranks", "local rank"),
    "world size": ("world size", "WORLD_SIZE"),
    "torchrun": ("torchrun",),
    "collective": ("collective", "collectives", "Collective", "Collectives"),
    "all-reduce": ("all-reduce", "all-reduces", "All-reduce", "allreduce", "all_reduce"),
    "all-gather": ("all-gather", "all-gathers", "all_gather"),
    "reduce-scatter": ("reduce-scatter", "reduce-scatters", "reduce_scatter"),
    "NCCL": ("NCCL", "nccl"),
    "gloo": ("gloo",),
    "DDP bucket": ("bucket", "buckets", "Bucket", "Buckets"),
    "bus bandwidth": ("bus bandwidth", "busbw", "algorithm bandwidth", "algbw"),
    "sharding": ("sharding", "Sharding", "shard", "shards", "sharded"),
    "FSDP": ("FSDP", "FSDP2", "FSDP1"),
    "ZeRO": ("ZeRO", "ZeRO-1", "ZeRO-2", "ZeRO-3"),
    "DTensor": ("DTensor", "DTensors"),
    "tensor parallelism": ("tensor parallelism", "Tensor parallelism", "tensor-parallel"),
    "pipeline parallelism": ("pipeline parallelism",),
    "pipeline bubble": ("bubble", "bubbles", "pipeline bubble"),
    "GPipe and 1F1B": ("GPipe", "1F1B"),
}


# --- reading the page and the chapters ---------------------------------------------------


def slug(heading: str) -> str:
    """The anchor of a heading, as MyST's ``myst_heading_anchors`` and GitHub make it."""
    text = re.sub(r"`([^`]*)`", r"\1", heading).strip().lower().replace(" ", "-")
    return re.sub(r"[^\w\-]", "", text)


def entries(text: str) -> dict[str, str]:
    """``{heading: body}`` of the page's ``###`` entries."""
    found: dict[str, str] = {}
    parts = re.split(r"^### (.+)$", text, flags=re.M)
    for heading, body in zip(parts[1::2], parts[2::2], strict=True):
        found[heading.strip()] = re.split(r"^#{1,2} ", body, flags=re.M)[0].strip()
    return found


def sentences(paragraph: str) -> int:
    """How many sentences a paragraph has: each ends with '.', '!' or '?' before a space or
    the end (a period inside a number, a name or a code span ends none)."""
    plain = re.sub(r"`[^`]*`", "code", paragraph)
    plain = re.sub(r"\]\([^)]*\)", "]", plain)
    return len(re.findall(r"[.!?](?=\s|$)", plain))


def source(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def chapter_cells(paths=CHAPTERS):
    """``(chapter stem, cell index, markdown)`` of every markdown cell, in reading order."""
    for path in paths:
        for index, cell in enumerate(json.loads(path.read_text())["cells"]):
            if cell["cell_type"] == "markdown":
                yield path.stem, index, source(cell)


def prose(markdown: str) -> str:
    """The text a reader reads: fenced code blocks and link targets out, one space between words."""
    text = re.sub(r"^```.*?^```", " ", markdown, flags=re.M | re.S)
    text = re.sub(r"\]\([^)\s]*\)", "]", text)
    return re.sub(r"\s+", " ", text)


def word(spelling: str) -> str:
    """A spelling as a whole word: no letter, digit, '_' or '-' right before or after it."""
    return rf"(?<![\w-]){re.escape(spelling)}(?![\w-])"


def uses(markdown: str, spellings) -> bool:
    text = prose(markdown)
    return any(re.search(word(s), text) for s in spellings)


def first_use(spellings, cells) -> tuple[str, int, str] | None:
    for stem, index, markdown in cells:
        if uses(markdown, spellings):
            return stem, index, markdown
    return None


def glossary_links(markdown: str, page: str = FROM_A_CHAPTER) -> list[str]:
    """The anchors of a cell's links to the glossary page."""
    return re.findall(rf"\]\({re.escape(page)}#([\w\-]+)\)", markdown)


def defines(markdown: str, spellings) -> bool:
    """Whether a cell sets one of the spellings in bold (``**...**``, the term among its words)."""
    text = re.sub(r"\s+", " ", markdown)
    bold = re.findall(r"\*\*(.+?)\*\*", text)
    return any(re.search(word(s), b) for b in bold for s in spellings)


def unmet(terms: dict[str, tuple[str, ...]], cells) -> dict[str, str]:
    """``{term: what is wrong}`` for each term whose first use neither links nor defines."""
    cells = list(cells)
    problems = {}
    for heading, spellings in terms.items():
        found = first_use(spellings, cells)
        if found is None:
            continue  # used nowhere: nothing to define
        stem, index, markdown = found
        if slug(heading) in glossary_links(markdown) or defines(markdown, spellings):
            continue
        problems[heading] = (
            f"first used in {stem} cell {index} without a link to the glossary "
            f"({FROM_A_CHAPTER}#{slug(heading)}) or a bold definition: "
            f"{prose(markdown)[:160]!r}"
        )
    return problems


def page() -> str:
    return GLOSSARY.read_text()


def section_headings(path: Path) -> set[str]:
    """The section numbers of a chapter's headings: ``{"2.7", "2.8", ...}``."""
    found = set()
    for _, _, markdown in chapter_cells([path]):
        found.update(re.findall(r"^#{2,4} (\d+\.\d+)\s", markdown, flags=re.M))
    return found


# --- the page --------------------------------------------------------------------------


def test_the_page_and_the_list_hold_the_same_terms():
    on_page = set(entries(page()))
    listed = set(TERMS)
    assert on_page - listed == set(), f"glossary entries missing from TERMS: {on_page - listed}"
    assert listed - on_page == set(), f"TERMS without a glossary entry: {listed - on_page}"
    assert MIN_TERMS <= len(listed) <= MAX_TERMS, len(listed)
    anchors = [slug(h) for h in TERMS]
    assert len(set(anchors)) == len(anchors), "two entries share an anchor"


def test_each_entry_defines_its_term_in_one_to_three_sentences():
    wrong = {}
    for heading, body in entries(page()).items():
        paragraphs = [p.strip() for p in body.split("\n\n") if p.strip()]
        definition = [p for p in paragraphs if not p.startswith("See ")]
        count = sum(sentences(p) for p in definition)
        if not 1 <= count <= 3:
            wrong[heading] = f"{count} sentences"
    assert not wrong, f"entries of other than one to three sentences: {wrong}"


def test_each_entry_names_the_sections_that_explain_it():
    chapters = {path.name: section_headings(path) for path in CHAPTERS}
    wrong = {}
    for heading, body in entries(page()).items():
        paragraphs = [p.strip() for p in body.split("\n\n") if p.strip()]
        see = paragraphs[-1] if paragraphs else ""
        links = re.findall(rf"\[([^\]]+)\]\({re.escape(TO_A_CHAPTER)}([^)#]+)\)", see)
        if not see.startswith("See ") or not links:
            wrong[heading] = "no last paragraph 'See' with links to the chapters"
            continue
        for text, notebook in links:
            number = re.search(r"\d+\.\d+", text)
            if notebook not in chapters:
                wrong[heading] = f"links to {notebook}, which is no chapter"
            elif number is None or number.group() not in chapters[notebook]:
                wrong[heading] = f"link text {text!r} names no section of {notebook}"
            elif not number.group().startswith(str(int(notebook[:2])) + "."):
                wrong[heading] = f"section {number.group()} is not in {notebook}"
    assert not wrong, wrong


def test_every_link_to_the_glossary_names_an_entry():
    anchors = {slug(h) for h in entries(page())}
    broken = [
        (stem, index, anchor)
        for stem, index, markdown in chapter_cells()
        for anchor in glossary_links(markdown)
        if anchor not in anchors
    ]
    # a link written another way (an absolute path, no anchor) is not followed by this test
    loose = [
        (stem, index)
        for stem, index, markdown in chapter_cells()
        if "glossary.md" in markdown
        and len(re.findall(r"glossary\.md", markdown)) != len(glossary_links(markdown))
    ]
    assert not broken, f"links to no glossary entry: {broken}"
    assert not loose, f"links to the glossary not written as ({FROM_A_CHAPTER}#anchor): {loose}"


# --- the rule ----------------------------------------------------------------------------


def test_every_term_is_linked_or_defined_at_its_first_use():
    problems = unmet(TERMS, chapter_cells())
    assert not problems, "\n".join(f"{term}: {why}" for term, why in problems.items())


def test_every_term_is_used_in_the_chapters():
    cells = list(chapter_cells())
    unused = [term for term, spellings in TERMS.items() if first_use(spellings, cells) is None]
    assert not unused, f"glossary terms that no chapter uses: {unused}"


# --- the rule on small cells: it fails when it should ----------------------------------


def cells(*texts):
    return [("01_x", i, t) for i, t in enumerate(texts)]


SPELLINGS = {"copy engine": ("copy engine", "copy engines")}


@pytest.mark.parametrize(
    "texts",
    [
        ["The GPU's copy engine moves it."],  # used, neither linked nor defined
        ["A [copy engine](../docs/site/glossary.md#kernel) moves it."],  # another entry
        ["A [copy engine](glossary.md#copy-engine) moves it."],  # not the chapters' path
        ["Two copy\nengines, one per direction.", "A **copy engine** moves data..."],  # later
        ["A *copy engine* moves data while..."],  # italics are not the mark
        ["## 2.7 The copy engine\n\nIt moves data."],  # a heading is a use too
    ],
)
def test_a_first_use_without_link_or_bold_fails(texts):
    assert set(unmet(SPELLINGS, cells(*texts))) == {"copy engine"}


@pytest.mark.parametrize(
    "texts",
    [
        ["A [copy engine](../docs/site/glossary.md#copy-engine) moves it."],
        ["A **copy engine**, a unit of the GPU that moves data, does it."],
        ["## 2.7 Transfers\n\nTwo **copy engines** (one per direction).", "a copy engine"],
        [
            "```python\ncopy engine = 1\n```",
            "A [copy engine](../docs/site/glossary.md#copy-engine).",
        ],
        ["The copy-engines' row."],  # no use: a hyphen joins another word
    ],
)
def test_a_first_use_with_link_or_bold_passes(texts):
    assert unmet(SPELLINGS, cells(*texts)) == {}


def test_spellings_match_whole_words_only():
    assert uses("one launch per kernel", ["launch"])
    assert not uses("a launch-bound run", ["launch"])
    assert not uses("torchrun --nproc-per-node=2", ["node"])
    assert not uses("`d2lgpu.launcher`", ["launch"])
    assert uses("cuBLAS's handle", ["cuBLAS"])
    assert not uses("[issue 212](https://github.com/NVIDIA/nccl-tests/issues/212)", ["nccl"])
    assert not uses("```bash\ntorchrun --nnodes=2\n```", ["torchrun"])


def test_slugs_are_those_of_the_book_and_github():
    assert slug("copy engine") == "copy-engine"
    assert slug("bf16 and fp16") == "bf16-and-fp16"
    assert slug("memory-bound and compute-bound") == "memory-bound-and-compute-bound"
    assert slug("GPipe and 1F1B") == "gpipe-and-1f1b"


def test_sentences_are_counted_at_their_end_only():
    assert sentences("A unit of the GPU. It moves data.") == 2
    assert sentences("Up to 2.5x, as `torch.cuda.synchronize()` says.") == 1
    assert sentences("See [1.2](../../notebooks/01_devices.ipynb).") == 1
