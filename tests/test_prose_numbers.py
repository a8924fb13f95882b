"""Prose that cannot drift: no measured number typed into a chapter's or an exercise's text.

A number with a unit of time, size, rate, speed-up ("7.1x", "7.1 x", "7.1 times", "7-fold")
or share ("45%", "45 percent") in a markdown cell of ``notebooks/`` or ``solutions/`` (the
source of ``exercises/``) must be printed, with that unit, by the code cells the paragraph
talks about: the nearest code cell above it and the nearest below, and the cells of any
section of the notebook it names ("section 4.10"), with their stored outputs and the GPU
reference blocks those outputs show. A number printed somewhere else in the notebook does not
count. A hardware-dependent number belongs in a cell's output, printed from the measurement,
and the prose says what it means. Numbers that are no measurement (a datasheet figure, a size
the code sets, a default of PyTorch's, an assert's threshold) are allowed through ``ALLOWED``,
one entry per notebook, each with its source.

A sentence that cites a GPU's run ("the H100 reference", "an H200's run", "on the H100
machine") needs a reference block recorded on that GPU among the stored outputs of those same
cells: the learner must see what the sentence cites. A link to records under ``docs/results/``
is not enough; a block on the page is.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("notebooks", "solutions")

UNITS = r"ms|µs|us|ns|s|GB/s|TB/s|MB/s|GFLOP/s|TFLOP/s|KiB|MiB|GiB|kB|MB|GB"
VALUE = r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"
# "3.5 ms", "64 MiB", "45%", "45 percent", "7.1x", "2×", "3 x faster", "2.44 times",
# "3-fold"; not "1024 x 1024" or "2 x batch" (a shape, a formula) nor "8 bytes" (no unit here)
NUMBER = re.compile(
    VALUE
    + rf"(?:\s?(?P<unit>{UNITS})(?![\w/])"
    + r"|\s?(?P<percent>%)|\s(?P<percent_word>percent)\b"
    + r"|(?P<fold>-fold)\b"
    + r"|(?P<attached>[x×])(?!\w)"
    + r"|\s(?P<spaced>[x×])(?=[.,;:!?)]|\s*$|\s+(?:faster|slower|more|less|fewer|as|the|over)\b)"
    + r"|\s+(?P<times>times)\b)",
    re.UNICODE,
)
# "chapter 2 times it", "step 3 times the ...": a number that names something, not a count
NAMES_A_THING = re.compile(r"(?:chapter|section|cell|exercise|step|figure|table)\s*$", re.I)

# A sentence citing a GPU's run: "the H100 reference", "an H200's run", "on the H100 machine",
# "the course's H100 records", "printed on an H100", "on an H100 it shows".
GPU = r"(\b[A-Z]{1,2}\d{2,3}[A-Z]?\b)"
RECORD_WORD = r"(?:references?|runs?|records?|machines?|bench|measurements?|traces?)\b"
CITATION = re.compile(
    rf"{GPU}(?:'s)?\s+(?:SXM\s+)?{RECORD_WORD}"
    rf"|\b(?:printed|measured|recorded|ran)\s+on\s+(?:an?|the|that)\s+{GPU}"
    rf"|\bon\s+(?:an?|the|that)\s+{GPU},?\s+(?:it\s+)?(?:shows?|showed|printed|measured|made|took)\b"
)
# "Recorded on NVIDIA H200 with torch 2.11.0+cu130, 2026-11-28" (the caption of
# d2lgpu.references) and the older "Recorded on an NVIDIA H200, torch 2.11.0+cu130 ..."
RECORDED_ON = re.compile(r"Recorded on (?:an? )?(.+?)(?:,| with) torch")

# (notebook, "number unit") -> where it comes from. Never "*": a constant is allowed where it
# is used, and a measured number never goes here.
ALLOWED = {
    ("notebooks/04_amp.ipynb", "64 times"): "arithmetic: (1024 / 256) ** 3, the work of a product",
    ("notebooks/04_amp.ipynb", "8x"): "arithmetic: 2 ** 3, n ** 3 work per doubling of n",
    ("notebooks/04_amp.ipynb", "2.5 times"): "the threshold cell 55 asserts, bf16 against fp32",
    ("notebooks/04_amp.ipynb", "15 times"): (
        "datasheet: H100 SXM bf16 989.4 / fp32 66.9 TFLOP/s in d2lgpu/hardware.py"
    ),
    ("notebooks/04_amp.ipynb", "15x"): (
        "datasheet: H100 SXM bf16 989.4 / fp32 66.9 TFLOP/s in d2lgpu/hardware.py"
    ),
    ("notebooks/06_performance.ipynb", "1,000 times"): "a made-up call count, no measurement",
    ("notebooks/06_performance.ipynb", "16 times"): "the size the code sets, 16 * tiny_n",
    ("notebooks/06_performance.ipynb", "4 MiB"): (
        "CUBLAS_WORKSPACE_CONFIG=:4096:8, 4096 KiB buffers (cuBLAS documentation)"
    ),
    ("notebooks/06_performance.ipynb", "16 KiB"): (
        "CUBLAS_WORKSPACE_CONFIG=:16:8, 16 KiB buffers (cuBLAS documentation)"
    ),
    ("notebooks/06_performance.ipynb", "43%"): (
        "published: torch.compile's mean training speed-up over 163 models on an A100, the "
        "PyTorch 2.0 release page (pytorch.org/get-started/pytorch-2.0)"
    ),
    ("notebooks/07_triton.ipynb", "4x"): (
        "arithmetic: the 1074 MB against 268 MB that cells 16 and 25 print, five kernels against one"
    ),
    ("notebooks/08_streams.ipynb", "2x"): (
        "the bound of overlapping two equal stages, c + (n - 1) max(c, k) + k"
    ),
    ("notebooks/08_streams.ipynb", "32 MiB"): "the batch the code sets, 8192 x 1024 float32",
    ("notebooks/08_streams.ipynb", "1 ms"): "the simulated stage time the code sets, no GPU's",
    ("notebooks/08_streams.ipynb", "80%"): "the threshold cells 17 and 25 assert",
    ("notebooks/08_streams.ipynb", "90%"): "the threshold cell 25 asserts",
    ("notebooks/09_model_parallel.ipynb", "35%"): (
        "arithmetic on cell 36's printed bytes, 736.0 KiB / 544.0 KiB (no hardware in it)"
    ),
    ("notebooks/09_model_parallel.ipynb", "4.7 times"): (
        "arithmetic on cell 36's printed bytes, 2.5 MiB / 544 KiB (no hardware in it)"
    ),
    ("notebooks/09_model_parallel.ipynb", "50%"): "the bubble formula (p - 1) / (m + p - 1), m = 1",
    ("notebooks/09_model_parallel.ipynb", "20%"): "the bubble formula (p - 1) / (m + p - 1), m = 4",
    ("notebooks/10_inside_ddp.ipynb", "25 MiB"): (
        "DDP's default bucket_cap_mb, _DEFAULT_BUCKET_CAP_MB in torch/nn/parallel/distributed.py"
    ),
    ("notebooks/10_inside_ddp.ipynb", "1 MiB"): (
        "DDP's first bucket, dist._DEFAULT_FIRST_BUCKET_BYTES (torch/nn/parallel/distributed.py)"
    ),
    ("notebooks/10_inside_ddp.ipynb", "256 MiB"): "the largest of SIZES under nccl, 4 KiB * 4**8",
    ("notebooks/10_inside_ddp.ipynb", "4 KiB"): "the smallest of SIZES, set in the code",
    ("notebooks/10_inside_ddp.ipynb", "0.5 MiB"): "CAPS_MB, the bucket_cap_mb values compared",
    ("notebooks/10_inside_ddp.ipynb", "100 MiB"): "CAPS_MB, the bucket_cap_mb values compared",
    (
        "notebooks/10_inside_ddp.ipynb",
        "16 times",
    ): "arithmetic: 64 KiB / 4 KiB, sizes the code sets",
    ("notebooks/10_inside_ddp.ipynb", "4 times"): "the threshold 10.5's claim cell claims",
    ("notebooks/10_inside_ddp.ipynb", "10 times"): "the threshold 10.5's claim cell claims",
    ("notebooks/10_inside_ddp.ipynb", "64 MiB"): "copy_bandwidth's nbytes in scripts/inside_ddp.py",
    ("notebooks/10_inside_ddp.ipynb", "1.5 times"): (
        "arithmetic: three collectives of half an all-reduce's bytes (FSDP2, ZeRO-1's broadcast)"
    ),
    ("notebooks/10_inside_ddp.ipynb", "450 GB/s"): (
        "datasheet: NVLink 900 GB/s both directions on H100/H200 SXM (d2lgpu/collectives.py), half"
    ),
    ("notebooks/10_inside_ddp.ipynb", "370 GB/s"): (
        "published: NCCL's developers, github.com/NVIDIA/nccl-tests/issues/212 (ring busbw, 8 GPUs)"
    ),
    ("notebooks/10_inside_ddp.ipynb", "480 GB/s"): (
        "published: NCCL's developers, github.com/NVIDIA/nccl-tests/issues/212 (NVLS, 8 GPUs)"
    ),
    (
        "solutions/02_tensors.ipynb",
        "10 us",
    ): "launch_s of the simulated device, checks/ch02_time_fn.py",
    ("solutions/02_tensors.ipynb", "2 ms"): "the job the checker times, checks/ch02_time_fn.py",
    ("solutions/02_tensors.ipynb", "1000 times"): "the exercise's step count, one sync per step",
    ("solutions/02_tensors.ipynb", "2x"): (
        "arithmetic, labelled so in the prose: two lanes at most halve two equal products' time"
    ),
    (
        "notebooks/11_planning.ipynb",
        "25 MiB",
    ): "DDP's default bucket_cap_mb, PyTorch's documentation",
    ("notebooks/11_planning.ipynb", "1.5 times"): (
        "arithmetic from the plan: FSDP2's two all-gathers and a reduce-scatter, 3 x 4Ψ(N-1)/N, "
        "against DDP's all-reduce, 2 x 4Ψ(N-1)/N"
    ),
    (
        "notebooks/11_planning.ipynb",
        "38%",
    ): "Dubey et al. 2024, The Llama 3 Herd of Models, Table 4",
    (
        "notebooks/11_planning.ipynb",
        "43%",
    ): "Dubey et al. 2024, The Llama 3 Herd of Models, Table 4",
    ("notebooks/11_planning.ipynb", "450 GB/s"): (
        "NVIDIA H100 datasheet (SXM): NVLink 900 GB/s both ways, printed by 11.4's link cell"
    ),
    ("notebooks/11_planning.ipynb", "64 GB/s"): (
        "NVIDIA H100 datasheet: PCIe Gen5 x16 128 GB/s both ways, printed by 11.4's link cell"
    ),
    ("notebooks/11_planning.ipynb", "50 GB/s"): (
        "400 Gb/s InfiniBand NDR per GPU (NVIDIA DGX H100 datasheet), printed by 11.4's link cell"
    ),
    ("solutions/11_planning.ipynb", "10%"): "11.plan's headroom, d2lgpu.plan.HEADROOM",
    ("solutions/11_planning.ipynb", "1.5x"): (
        "11.plan's margin on the step time, SLOWER in d2lgpu/checks/ch11_plan.py"
    ),
    ("solutions/04_amp.ipynb", "65536 times"): "GradScaler's init_scale default, 2.0**16",
    ("solutions/08_streams.ipynb", "32 MiB"): "the batch size of d2lgpu/checks/_stream_gpu.py",
    ("solutions/10_inside_ddp.ipynb", "16 MiB"): "the exercise's made-up example, said so there",
    ("solutions/10_inside_ddp.ipynb", "1.5 times"): (
        "arithmetic: DDP's all-reduce plus a broadcast, half an all-reduce's bytes"
    ),
}


def source_of(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def prose_of(cell: dict) -> str:
    """A markdown cell's text without code blocks, inline code, link targets and comments."""
    text = source_of(cell)
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"`[^`\n]*`", " ", text)
    text = re.sub(r"\]\([^)\s]*\)", "]", text)  # the target of [text](target)
    return re.sub(r"<!--.*?-->", " ", text, flags=re.S)


def number_unit(match: re.Match) -> tuple[float, str, str]:
    """(value, normalized unit, as quoted) of a ``NUMBER`` match."""
    value = match.group(1)
    if match.group("unit"):
        unit = match.group("unit")
        quoted = f"{value} {unit}"
        unit = "µs" if unit == "us" else unit
    elif match.group("percent"):
        unit, quoted = "%", f"{value}%"
    elif match.group("percent_word"):
        unit, quoted = "%", f"{value} percent"
    elif match.group("times"):
        unit, quoted = "x", f"{value} times"
    elif match.group("fold"):
        unit, quoted = "x", f"{value}-fold"
    else:
        sign = match.group("attached") or match.group("spaced")
        unit, quoted = "x", f"{value}{sign}" if match.group("attached") else f"{value} {sign}"
    return float(value.replace(",", "")), unit, quoted


def numbers_in(text: str, prose: bool = False) -> list[tuple[float, str, str]]:
    found = []
    for match in NUMBER.finditer(text):
        if prose and match.group("times") and NAMES_A_THING.search(text[: match.start()]):
            continue
        found.append(number_unit(match))
    return found


def outputs_of(cell: dict) -> str:
    """What a code cell printed, GPU reference blocks included."""
    texts = []
    for output in cell.get("outputs", []):
        texts.append("".join(output.get("text", "")))
        for mime, value in output.get("data", {}).items():
            if mime.startswith("text/"):
                texts.append("".join(value))
    return "\n".join(texts)


def neighbours(cells: list[dict], index: int) -> list[dict]:
    """The nearest code cell above ``index`` and the nearest below, where there are any."""
    above = [c for c in cells[:index] if c["cell_type"] == "code"][-1:]
    below = [c for c in cells[index + 1 :] if c["cell_type"] == "code"][:1]
    return above + below


HEADING = re.compile(r"\s*#{1,2}\s+(?:(\d+\.\d+)\s)?")  # "## 8.7 What breaks", "## Summary"
NAMED_SECTION = re.compile(r"\bsections?\s+(\d+\.\d+)\b", re.I)


def sections(cells: list[dict]) -> dict[str, list[dict]]:
    """The code cells of each numbered section of a notebook: "8.7" -> the code cells from the
    heading "## 8.7 ..." to the next heading of level 1 or 2."""
    found, current = {}, None
    for cell in cells:
        heading = cell["cell_type"] == "markdown" and HEADING.match(source_of(cell))
        if heading:
            current = found.setdefault(heading.group(1), []) if heading.group(1) else None
        elif cell["cell_type"] == "code" and current is not None:
            current.append(cell)
    return found


def talked_about(cells: list[dict], index: int) -> str:
    """The stored outputs, reference blocks included, of the code cells the paragraph at
    ``index`` talks about: its neighbours, and the cells of the sections of this notebook it
    names."""
    named = sections(cells)
    about = neighbours(cells, index)
    for number in NAMED_SECTION.findall(prose_of(cells[index])):
        about += named.get(number, [])
    return "\n".join(outputs_of(c) for c in about)


def name_of(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def typed_numbers(path: Path) -> list[str]:
    """Numbers in ``path``'s prose that the cells it talks about did not print, as
    'cell N: 3 ms'."""
    cells = json.loads(path.read_text())["cells"]
    found = []
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        printed = {(value, unit) for value, unit, _ in numbers_in(talked_about(cells, index))}
        for value, unit, quoted in numbers_in(prose_of(cell), prose=True):
            if (value, unit) not in printed and (name_of(path), quoted) not in ALLOWED:
                found.append(f"cell {index}: {quoted}")
    return found


def sentences(text: str) -> list[str]:
    return [" ".join(s.split()) for s in re.split(r"(?<=[.!?;])\s+", text) if s.strip()]


def unseen_citations(path: Path) -> list[str]:
    """Sentences of ``path``'s prose citing a GPU's run whose record the learner is not shown:
    no block of that GPU among the stored outputs of the cells the paragraph talks about."""
    cells = json.loads(path.read_text())["cells"]
    found = []
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        shown = RECORDED_ON.findall(talked_about(cells, index))
        for sentence in sentences(prose_of(cell)):
            for match in CITATION.finditer(sentence):
                gpu = next(g for g in match.groups() if g)
                if not any(re.search(rf"\b{gpu}\b", device) for device in shown):
                    found.append(f"cell {index}: {gpu} ({match.group(0)!r})")
    return found


NOTEBOOKS = sorted(p for folder in FOLDERS for p in (ROOT / folder).glob("*.ipynb"))


def test_every_allowed_entry_names_one_notebook_and_a_source():
    wildcards = [key for key in ALLOWED if key[0] not in {name_of(p) for p in NOTEBOOKS}]
    assert not wildcards, f"ALLOWED entries must name an existing notebook, no '*': {wildcards}"
    sourceless = [key for key, source in ALLOWED.items() if len(source.split()) < 3]
    assert not sourceless, f"ALLOWED entries must say where the number comes from: {sourceless}"


def test_every_allowed_number_is_still_in_the_prose():
    # An entry whose number left the prose would let the next typed one through unseen.
    quoted = {
        name_of(p): {
            q
            for cell in json.loads(p.read_text())["cells"]
            if cell["cell_type"] == "markdown"
            for _, _, q in numbers_in(prose_of(cell), prose=True)
        }
        for p in NOTEBOOKS
    }
    unused = [key for key in ALLOWED if key[1] not in quoted.get(key[0], set())]
    assert not unused, f"ALLOWED entries no prose quotes any more, remove them: {unused}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=name_of)
def test_the_prose_types_no_number_its_cells_did_not_print(path):
    typed = typed_numbers(path)
    assert not typed, (
        f"{path.relative_to(ROOT)}: numbers in the prose that the code cells next to it (the "
        f"nearest above and below, the sections it names, with their GPU references) do not "
        f"print: {typed}. Make it what the output says, point at the output instead of typing "
        "a number, or, for a constant that is no measurement, add it to ALLOWED for this "
        "notebook with its source."
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=name_of)
def test_the_prose_cites_only_gpu_runs_it_shows(path):
    unseen = unseen_citations(path)
    assert not unseen, (
        f"{path.relative_to(ROOT)}: sentences cite a GPU's run that no reference block under "
        f"the code cells next to them (or in a section they name) shows: {unseen}. A link to "
        "docs/results/ is no block on the page. Name the GPU whose reference is shown, or point "
        "at what is shown."
    )


MARKDOWN = {"cell_type": "markdown", "metadata": {}, "source": ""}
CODE = {"cell_type": "code", "metadata": {}, "source": "", "execution_count": 1}


def write(tmp_path: Path, cells: list[dict]) -> Path:
    folder = tmp_path / "notebooks"
    folder.mkdir(exist_ok=True)
    path = folder / "99_x.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}}))
    return path


def printing(text: str) -> dict:
    return {**CODE, "outputs": [{"output_type": "stream", "name": "stdout", "text": text}]}


def test_the_scan_finds_a_typed_number_and_accepts_a_printed_one(tmp_path):
    code = printing("step: 3.25 ms, 7.1x, 2.19x, 45%")
    cases = {
        "Measured: 3.25 ms, 7.1x faster, 7.1 x faster, 7.1 times, 45% of it.": [],
        "It took 4.2 ms, 12x faster, over 64 MiB at 55 GB/s.": [
            "cell 0: 4.2 ms",
            "cell 0: 12x",
            "cell 0: 64 MiB",
            "cell 0: 55 GB/s",
        ],  # fmt: skip
        # the forms the first version missed: the drift of "2.44 times" against a printed 2.19x
        "Fused is 2.44 times faster, 3× and 5 x faster, and loading takes 50%.": [
            "cell 0: 2.44 times",
            "cell 0: 3×",
            "cell 0: 5 x",
            "cell 0: 50%",
        ],  # fmt: skip
        "A large matmul reaches 90 percent, 3-fold what a small one does; 45 percent is printed.": [
            "cell 0: 90 percent",
            "cell 0: 3-fold",
        ],  # fmt: skip
        "A `4.2 ms` in code, a [link](../docs/H100-80GB/x.md), a 1024 x 1024 shape.": [],
        "A 2 x batch formula; chapter 2 times it.": [],
        "DDP's buckets of 25 MiB.": ["cell 0: 25 MiB"],  # ALLOWED for chapter 10 only
        "The 3.25 ms unit matters: 3.25x is not printed.": ["cell 0: 3.25x"],
    }
    for prose, expected in cases.items():
        path = write(tmp_path, [{**MARKDOWN, "source": prose}, code])
        assert typed_numbers(path) == expected, prose


def test_a_number_printed_elsewhere_in_the_notebook_does_not_count(tmp_path):
    # 2.44x is printed, but by a cell two code cells away from the paragraph
    cells = [
        printing("fused: 2.44x"),
        {**CODE, "outputs": []},
        {**MARKDOWN, "source": "Fused ran 2.44 times as fast."},
        printing("fused: 1.66x"),
    ]
    assert typed_numbers(write(tmp_path, cells)) == ["cell 2: 2.44 times"]
    cells[1] = printing("fused: 2.44x")  # now the nearest cell above prints it
    assert typed_numbers(write(tmp_path, cells)) == []


def test_a_reference_block_under_the_nearest_cell_counts(tmp_path):
    block = (
        "Recorded on NVIDIA H200 with torch 2.11.0+cu130, 2026-11-28 (this machine has torch "
        "2.14.1)\n    fused 413 us 2.58x"
    )
    cells = [{**MARKDOWN, "source": "On the GPU fused Adam was 2.58x faster."}, printing(block)]
    assert typed_numbers(write(tmp_path, cells)) == []


def test_a_wildcard_or_sourceless_allowed_entry_fails(monkeypatch):
    for key, source in (
        (("*", "2x"), "the bound of overlapping two equal stages"),
        (("notebooks/08_streams.ipynb", "4x"), ""),
    ):
        monkeypatch.setitem(ALLOWED, key, source)
        with pytest.raises(AssertionError):
            test_every_allowed_entry_names_one_notebook_and_a_source()
        monkeypatch.delitem(ALLOWED, key)


def test_a_citation_needs_that_gpus_block_beside_it(tmp_path):
    h200 = printing(
        "Skipped: this cell needs a CUDA GPU\nRecorded on NVIDIA H200 with torch 2.11.0+cu130, "
        "2026-11-28\n    per-step .item() costs 2.1x"
    )
    h100_summary = "../docs/results/NVIDIA-H100-80GB-HBM3/bench/summary.md"
    h200_summary = "../docs/results/NVIDIA-H200/bench/summary.md"
    cases = {
        "Much slower (see the H100 reference under the cell).": ["cell 0: H100"],
        "The reference under it shows an H200's run.": [],
        "The reference under it shows an H100's run.": ["cell 0: H100"],
        "On the H100 machine, loading took half the epoch.": ["cell 0: H100"],
        "The course's H100 records show it; on an H100 it shows more.": [
            "cell 0: H100",
            "cell 0: H100",
        ],  # fmt: skip
        # a link to the records is no block on the page; the H200's block beside it is
        f"The course's H100 bench measured its own: see [its summary]({h100_summary}).": [
            "cell 0: H100"
        ],
        f"The H200 bench measured its own: see [its summary]({h200_summary}).": [],
        "An H100 has 132 SMs, and the H200 run agrees.": [],
    }
    for prose, expected in cases.items():
        path = write(tmp_path, [{**MARKDOWN, "source": prose}, h200])
        assert [f.split(" (")[0] for f in unseen_citations(path)] == expected, prose
    # a block two code cells away is not beside the sentence
    cells = [h200, {**CODE, "outputs": []}, {**MARKDOWN, "source": "See the H200 reference."}]
    assert unseen_citations(write(tmp_path, cells)) == ["cell 2: H200 ('H200 reference')"]


def test_a_block_collapsed_under_other_gpus_is_on_the_page_too(tmp_path):
    from d2lgpu import references

    h100 = {"device": "NVIDIA H100 80GB HBM3", "torch": "2.11.0+cu130", "cuda": "13.0",
            "date": "2026-11-23", "origin": "a test", "output": "fused 2.58x\n"}  # fmt: skip
    h200 = dict(h100, device="NVIDIA H200", date="2026-11-28", output="fused 2.44x\n")
    block = references.reference_bundle([h100, h200], "2.14.1")
    assert "<details" in block["text/html"]  # the H100's block is the collapsed one
    cell = {**CODE, "outputs": [{"output_type": "display_data", "data": block}]}
    prose = {**MARKDOWN, "source": "The H100 reference shows fused at 2.58x, the H200's 2.44x."}
    path = write(tmp_path, [prose, cell])
    assert unseen_citations(path) == [] and typed_numbers(path) == []
    prose["source"] = "The A100 reference shows it at 2.58x."
    assert unseen_citations(write(tmp_path, [prose, cell])) == ["cell 0: A100 ('A100 reference')"]


def test_a_section_the_paragraph_names_counts_and_only_that_one(tmp_path):
    h200 = printing(
        "Recorded on NVIDIA H200 with torch 2.11.0+cu130, 2026-11-28\n    bf16 step 4.1x faster"
    )
    cells = [
        {**MARKDOWN, "source": "## 9.1 Speed\n\nThe GPU cell."},
        h200,
        {**MARKDOWN, "source": "## 9.2 Memory\n\nNo GPU here."},
        {**CODE, "outputs": []},
        {**MARKDOWN, "source": "### A sub-heading of 9.2"},
        {**CODE, "outputs": []},
        {**MARKDOWN, "source": "In section 9.1 bf16 was 4.1x faster, an H200's run."},
        {**CODE, "outputs": []},
    ]
    path = write(tmp_path, cells)
    assert typed_numbers(path) == [] and unseen_citations(path) == []
    cells[6] = {**MARKDOWN, "source": "In section 9.2 bf16 was 4.1x faster, an H200's run."}
    path = write(tmp_path, cells)
    assert typed_numbers(path) == ["cell 6: 4.1x"]
    assert unseen_citations(path) == ['cell 6: H200 ("H200\'s run")']
