import textwrap

import pytest
import torch
from ddp_helpers.procs import fresh_python

from d2lgpu import hardware


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


def test_precisions_of_one_entry():
    name = "NVIDIA H100 80GB HBM3"
    assert hardware.peak_flops(name, "tf32") == pytest.approx(494.7e12)
    assert hardware.peak_flops(name, torch.float32) == pytest.approx(66.9e12)
    assert hardware.peak_flops(name, "fp32") == hardware.peak_flops(name, torch.float32)
    assert hardware.peak_flops(name, torch.float64) == pytest.approx(33.5e12)
    assert hardware.peak_flops(name, torch.float16) == pytest.approx(989.4e12)
    assert hardware.peak_flops("Tesla T4", torch.float16) == pytest.approx(65e12)
    assert hardware.peak_flops("NVIDIA L4", torch.float32) == pytest.approx(30.3e12)


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
    with pytest.raises(TypeError, match="device_name must be a str"):
        hardware.datasheet(torch.device("cpu"))


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


def test_entry_line_names_part_peaks_and_source():
    line = hardware.format_datasheet_entry("NVIDIA A100-SXM4-80GB")
    assert line.startswith("NVIDIA A100-SXM4-80GB: NVIDIA A100 SXM4 80GB (SXM4)")
    assert "bf16 312" in line and "2.039 TB/s" in line and "datasheet" in line


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
