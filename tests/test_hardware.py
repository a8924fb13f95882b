import dataclasses
import re
import textwrap
import tomllib
from pathlib import Path

import pytest
import torch
from ddp_helpers.procs import fresh_python

from d2lgpu import hardware
from d2lgpu.checks.ch01_devices import H100, T4, GpuProfile


@pytest.mark.parametrize(
    ("torch_name", "part", "bf16_tflops", "tbs"),
    [
        ("NVIDIA H100 80GB HBM3", "NVIDIA H100 SXM5 80GB", 989.4, 3.35),
        ("NVIDIA H100 PCIe", "NVIDIA H100 PCIe 80GB", 756.0, 2.0),
        ("NVIDIA H200", "NVIDIA H200 SXM 141GB", 989.4, 4.8),
        ("NVIDIA A100-SXM4-80GB", "NVIDIA A100 SXM4 80GB", 312.0, 2.039),
        ("NVIDIA A100-PCIE-40GB", "NVIDIA A100 PCIe 40GB", 312.0, 1.555),
        ("NVIDIA A100-SXM4-40GB", "NVIDIA A100 SXM4 40GB", 312.0, 1.555),
        ("NVIDIA A10G", "NVIDIA A10G", None, 0.6),  # no published rates: none listed
        ("NVIDIA L4", "NVIDIA L4", 121.0, 0.3),
        ("Tesla T4", "NVIDIA T4", None, 0.32),
        ("NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 4090", 165.2, 1.008),
    ],
)
def test_names_torch_reports_map_to_their_entries(torch_name, part, bf16_tflops, tbs):
    entry = hardware.datasheet(torch_name)
    assert entry is not None and entry.part == part
    assert entry.source and entry.form_factor
    assert hardware.peak_bandwidth(torch_name) == pytest.approx(tbs * 1e12)
    expected = None if bf16_tflops is None else pytest.approx(bf16_tflops * 1e12)
    assert hardware.peak_flops(torch_name, torch.bfloat16) == expected


def test_every_part_of_the_datasheet_file_is_read_as_written():
    # datasheets.toml is what an instructor edits: each [[part]] must reach the table with its
    # own fields, and with the peaks of the compute it names where it names one.
    table = tomllib.loads(Path(hardware.__file__).with_name("datasheets.toml").read_text())
    entries = hardware._load_datasheets()
    assert entries == hardware.DATASHEETS and len(entries) == len(table["part"])
    for part, entry in zip(table["part"], entries, strict=True):
        assert (entry.part, entry.form_factor, entry.memory, entry.source, entry.url) == (
            part["part"], part["form_factor"], part["memory"], part["source"], part["url"]
        )  # fmt: skip
        assert entry.bandwidth_tbs == part["bandwidth_tbs"]
        assert entry.torch_names == tuple(part["torch_names"])
        tflops = table["compute"][part["compute"]] if "compute" in part else part["tflops"]
        assert entry.tflops == tflops, entry.part
    # both kinds are in the file: shared peaks (the H100 SXM5, the H200) and a part's own
    kinds = {"compute" in part for part in table["part"]}
    assert kinds == {True, False}


def test_precisions_of_one_entry():
    name = "NVIDIA H100 80GB HBM3"
    assert hardware.peak_flops(name, "tf32") == pytest.approx(494.7e12)
    assert hardware.peak_flops(name, torch.float32) == pytest.approx(66.9e12)
    assert hardware.peak_flops(name, "fp32") == hardware.peak_flops(name, torch.float32)
    assert hardware.peak_flops(name, torch.float64) == pytest.approx(33.5e12)
    assert hardware.peak_flops(name, torch.float16) == pytest.approx(989.4e12)
    assert hardware.peak_flops("Tesla T4", torch.float16) == pytest.approx(65e12)
    assert hardware.peak_flops("NVIDIA L4", torch.float32) == pytest.approx(30.3e12)
    # a precision's name in any case, as a learner may type it
    assert hardware.peak_flops(name, "BF16") == hardware.peak_flops(name, torch.bfloat16)
    assert hardware.peak_flops(name, "Float32") == pytest.approx(66.9e12)
    # bandwidth in bytes per second: the datasheet's TB/s times 10**12, no more
    assert hardware.peak_bandwidth("NVIDIA H200") == pytest.approx(4.8e12, rel=1e-15)


def test_dense_peaks_are_ordered_as_the_hardware_is():
    # Tensor-core rates beat the vector rates; halving a sparse figure twice would break this.
    for entry in hardware.DATASHEETS:
        t = entry.tflops
        assert entry.bandwidth_tbs > 0
        if not t:  # a part whose maker publishes no rates (the A10G) says so, and lists none
            assert "no peak rates listed" in entry.source
            continue
        assert t["fp32"] > 0
        if "bf16" in t:
            assert t["bf16"] > t["fp32"]
        if "tf32" in t:
            # rel: the L4's datasheet rounds its sparse tf32 figure to 120 against 242 bf16
            assert t["bf16"] == pytest.approx(2 * t["tf32"], rel=0.02)


def test_matching_ignores_case_and_spaces_and_accepts_the_part_name():
    assert hardware.datasheet("  nvidia h100 80gb   HBM3 ").part == "NVIDIA H100 SXM5 80GB"
    assert hardware.datasheet("NVIDIA H100 SXM5 80GB").torch_names == ("NVIDIA H100 80GB HBM3",)


@pytest.mark.parametrize(
    "name", ["cpu", "", "NVIDIA H100 NVL", "NVIDIA H200 NVL", "NVIDIA A10", "AMD MI300X"]
)
def test_unknown_devices_have_no_entry(name):
    assert hardware.datasheet(name) is None
    assert hardware.peak_flops(name, torch.bfloat16) is None
    assert hardware.peak_bandwidth(name) is None
    assert hardware.format_datasheet_entry(name) == f"{name}: no datasheet entry"


def test_a_precision_the_part_lacks_is_none_not_an_error():
    assert hardware.peak_flops("Tesla T4", "tf32") is None


@pytest.mark.parametrize("bad", [torch.int8, "fp8", "int4", None, torch.complex64])
def test_bad_dtype_is_rejected_naming_the_argument_and_the_choices(bad):
    with pytest.raises(ValueError, match=r"dtype must be one of bf16, fp16, tf32, fp32, fp64"):
        hardware.peak_flops("NVIDIA H100 80GB HBM3", bad)
    # Also for a device without an entry: a typo must not hide behind "no entry".
    with pytest.raises(ValueError, match=r"got"):
        hardware.peak_flops("cpu", bad)


def test_device_name_must_be_a_string():
    with pytest.raises(TypeError, match="device_name must be a str .* got device$"):
        hardware.datasheet(torch.device("cpu"))
    with pytest.raises(TypeError, match="got int$"):
        hardware.datasheet(4090)


def test_table_lists_every_entry_with_its_source():
    table = hardware.format_datasheet_table()
    assert "dense" in table and "TB/s" in table
    for entry in hardware.DATASHEETS:
        assert entry.part in table
        assert f"{entry.source}, {entry.url}" in table
        assert entry.url.startswith("https://")
        for name in entry.torch_names:
            assert name in table
        assert f"{entry.bandwidth_tbs:g}" in table
    assert "989.4" in table and "0.32" in table


def test_the_table_lines_up_numbers_on_the_right_and_names_on_the_left():
    lines = hardware.format_datasheet_table().split("\n")
    assert lines[0] == (
        "Datasheet peaks: dense TFLOP/s (no sparsity) per precision, memory bandwidth in TB/s"
    )
    header, rule, *rest = lines[1:]
    spans = [m.span() for m in re.finditer(r"-+", rule)]
    assert rule == "  ".join("-" * (end - start) for start, end in spans)
    rows = rest[: len(hardware.DATASHEETS)]
    names = ["part", "form factor", *hardware.DTYPES, "TB/s", "torch reports"]
    for line in [header, *rows]:
        assert line == line.rstrip(), line  # no blanks left at the end of a line
        cells = [line[start:end].ljust(end - start) for start, end in spans]
        for i, cell in enumerate(cells):
            if 2 <= i <= len(hardware.DTYPES) + 2:  # the peaks and the bandwidth
                assert not cell.endswith(" "), (line, names[i])
            else:
                assert not cell.startswith(" "), (line, names[i])
    assert [header[a:b].strip() for a, b in spans] == names
    t4 = next(r for r in rows if r.startswith("NVIDIA T4 "))
    t4_cells = [t4[a:b].strip() for a, b in spans]
    assert t4_cells == ["NVIDIA T4", "PCIe, low profile", "-", "65", "-", "8.1", "-", "0.32",
                        "Tesla T4"]  # fmt: skip
    assert rest[len(rows) :][:3] == [
        "",
        "'-': not in this table. fp32 and fp64: without tensor cores; tf32: fp32 inputs on tensor cores.",
        "Sources:",
    ]


def test_a_part_torch_names_in_two_ways_lists_both(monkeypatch):
    # the same part under two names (a driver that reports it differently): both in the table
    first = hardware.DATASHEETS[0]
    renamed = dataclasses.replace(first, torch_names=(*first.torch_names, "NVIDIA H100 SXM"))
    monkeypatch.setattr(hardware, "DATASHEETS", (renamed, *hardware.DATASHEETS[1:]))
    row = hardware.format_datasheet_table().splitlines()[3]
    assert row.endswith("  NVIDIA H100 80GB HBM3, NVIDIA H100 SXM"), row


def test_entry_line_names_part_peaks_and_source():
    line = hardware.format_datasheet_entry("NVIDIA A100-SXM4-80GB")
    assert line.startswith("NVIDIA A100-SXM4-80GB: NVIDIA A100 SXM4 80GB (SXM4)")
    assert "bf16 312" in line and "2.039 TB/s" in line and "datasheet" in line
    assert ", dense TFLOP/s bf16 312, fp16 312, tf32 156, fp32 19.5, fp64 9.7; 80 GB HBM2e" in line


A100 = GpuProfile("NVIDIA A100-SXM4-80GB", (8, 0), 80 * 2**30, 108, peer_access=True)


def test_the_plan_of_a_gpu_other_than_the_current_one_is_that_gpus(gpus, monkeypatch):
    # GPU 0 (current) an H100, GPU 1 an A100: cuda:1's plan names the A100 and its capability
    gpus(2, H100)
    by_index = {0: H100, 1: A100}

    def index(device=None):
        return torch.cuda.current_device() if device is None else torch.device("cuda", device).index

    monkeypatch.setattr(torch.cuda, "get_device_name", lambda d=None: by_index[index(d)].name)
    monkeypatch.setattr(
        torch.cuda, "get_device_capability", lambda d=None: by_index[index(d)].capability
    )
    plan = hardware.amp_plan("cuda:1")
    assert "NVIDIA A100-SXM4-80GB (compute capability 8.0) has bf16 tensor cores" in plan.reason
    assert plan.tf32  # TF32 from compute capability 8.0 on: an A100 has it
    assert "NVIDIA H100 80GB HBM3 (compute capability 9.0)" in hardware.amp_plan("cuda").reason


def test_each_plan_says_why_in_full(gpus):
    assert hardware.amp_plan("cpu").reason == "cpu: autocast's default bf16, no GradScaler"
    gpus(1, A100)
    assert hardware.amp_plan("cuda").tf32
    gpus(1, T4)
    assert hardware.amp_plan("cuda").reason == (
        "Tesla T4 (compute capability 7.5) has no bf16 tensor cores "
        "(is_bf16_supported(including_emulation=False) is False; with emulation True: bf16 runs "
        "only emulated, without tensor cores): fp16 on its fp16 tensor cores, with a GradScaler "
        "for fp16's range"
    )


@pytest.mark.slow
def test_import_makes_no_cuda_call():
    code = """
        import torch
        def forbidden(*args, **kwargs):
            raise AssertionError("CUDA was touched during import")
        torch.cuda._lazy_init = forbidden
        torch.cuda.device_count = forbidden
        torch.cuda.is_available = forbidden
        torch.cuda.get_device_name = forbidden
        from d2lgpu import hardware
        hardware.format_datasheet_table()
        print("ok")
    """
    result = fresh_python("-c", textwrap.dedent(code))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_all_names_exist():
    for name in hardware.__all__:
        assert hasattr(hardware, name)
