import ast
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch
from ddp_helpers.procs import fresh_python

from d2lgpu import _env_probes as probes
from d2lgpu import devices
from d2lgpu.__main__ import main
from d2lgpu._device_names import parse_device_name


def test_cpu_and_gpu_build_devices_without_touching_cuda():
    assert devices.cpu() == torch.device("cpu")
    assert devices.gpu(1) == torch.device("cuda", 1)
    assert devices.gpu() == torch.device("cuda", 0)  # the first GPU unless told


@pytest.mark.parametrize("bad", [-1, "x", 1.0, True, None])
def test_bad_gpu_index_is_rejected_naming_the_argument(bad):
    message = f"^i must be a GPU index >= 0, got {re.escape(repr(bad))}$"
    with pytest.raises(ValueError, match=message):
        devices.gpu(bad)
    with pytest.raises(ValueError, match=message):
        devices.try_gpu(bad)


def test_without_gpu_everything_falls_back_to_cpu(gpus):
    gpus(0)
    assert devices.num_gpus() == 0
    assert devices.try_gpu() == torch.device("cpu")
    assert devices.try_gpu(3) == torch.device("cpu")
    # d2l documents [cpu] here; its code returns [], which breaks multi-GPU training on a CPU.
    assert devices.try_all_gpus() == [torch.device("cpu")]


def test_a_cuda_driver_that_is_not_available_counts_no_gpu(gpus, monkeypatch):
    gpus(0)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)  # e.g. a broken driver
    assert devices.num_gpus() == 0
    assert devices.try_gpu() == torch.device("cpu")
    assert devices.try_all_gpus() == [torch.device("cpu")]


def test_with_one_gpu_only_index_0_is_a_gpu(gpus, monkeypatch):
    gpus(1)
    assert devices.num_gpus() == 1
    assert devices.try_gpu(0) == torch.device("cuda:0")
    assert devices.try_gpu(1) == torch.device("cpu")
    assert devices.try_all_gpus() == [torch.device("cuda:0")]
    monkeypatch.setenv(devices.DEVICE_ENV_VAR, "cuda:1")
    with pytest.raises(ValueError, match="asks for GPU 1, but this machine has 1 GPU"):
        devices.default_device()
    monkeypatch.setenv(devices.DEVICE_ENV_VAR, "cuda")
    assert devices.default_device() == torch.device("cuda:0")
    monkeypatch.setenv(devices.DEVICE_ENV_VAR, " cpu ")
    assert devices.default_device() == torch.device("cpu")


def test_try_gpu_ignores_d2lgpu_device(gpus, monkeypatch):
    # README: D2LGPU_DEVICE steers default_device() only; the chapters' try_gpu() ignores it.
    gpus(1)
    monkeypatch.setenv(devices.DEVICE_ENV_VAR, "cpu")
    assert devices.try_gpu() == torch.device("cuda:0")
    assert devices.default_device() == torch.device("cpu")


def test_with_two_gpus_the_helpers_return_them(gpus):
    gpus(2)
    assert devices.try_gpu(1) == torch.device("cuda:1")
    assert devices.try_gpu(2) == torch.device("cpu")
    assert devices.try_all_gpus() == [torch.device("cuda:0"), torch.device("cuda:1")]


def test_default_device_honours_the_environment(gpus, monkeypatch):
    gpus(1)
    monkeypatch.delenv(devices.DEVICE_ENV_VAR, raising=False)
    assert devices.default_device() == torch.device("cuda:0")
    monkeypatch.setenv(devices.DEVICE_ENV_VAR, "cpu")
    assert devices.default_device() == torch.device("cpu")
    monkeypatch.setenv(devices.DEVICE_ENV_VAR, "cuda:0")
    assert devices.default_device() == torch.device("cuda:0")


@pytest.mark.parametrize("value", ["banana", "tpu", "gpu", "cuda:x", "cuda:-1", "cuda:", "cpu:0"])
def test_unknown_forced_device_is_a_clear_error(monkeypatch, value):
    monkeypatch.setenv(devices.DEVICE_ENV_VAR, value)
    with pytest.raises(ValueError) as raised:
        devices.default_device()
    assert str(raised.value) == (
        f"D2LGPU_DEVICE={value!r} is not a device this course knows "
        "(allowed: cpu, cuda, cuda:N, mps)"
    )


@pytest.mark.parametrize(
    "value, device",
    [("CPU", "cpu"), (" cpu ", "cpu"), ("Cuda", "cuda:0"), ("CUDA:1 ", "cuda:1"), ("", "cuda:0")],
)
def test_case_and_surrounding_spaces_are_ignored_and_empty_is_unset(
    gpus, monkeypatch, value, device
):
    gpus(2)
    monkeypatch.setenv(devices.DEVICE_ENV_VAR, value)
    assert devices.default_device() == torch.device(device)


@pytest.mark.parametrize("value, index", [("cuda:1", 1), ("cuda:7", 7), ("cuda", 0)])
def test_forcing_a_missing_gpu_says_how_many_there_are(gpus, monkeypatch, value, index):
    gpus(0)
    monkeypatch.setenv(devices.DEVICE_ENV_VAR, value)
    with pytest.raises(ValueError) as raised:
        devices.default_device()
    assert str(raised.value) == (
        f"D2LGPU_DEVICE={value!r} asks for GPU {index}, but this machine has 0 GPU(s) "
        "visible; unset D2LGPU_DEVICE or set it to 'cpu'"
    )


def test_env_report_has_versions_and_lists_fake_gpus(gpus, monkeypatch):
    class Props:
        name, total_memory, major, minor, multi_processor_count = "Fake GPU", 80 * 2**30, 9, 0, 132

    gpus(1)
    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda i: Props)
    report = devices.env_report()
    assert report["torch"] == torch.__version__
    assert report["gpus"] == [
        {
            "index": 0,
            "name": "Fake GPU",
            "memory_gib": 80.0,
            "compute_capability": "9.0",
            "multiprocessors": 132,
            "bf16": True,
        }
    ]
    text = devices.format_env_report(report)
    assert "Fake GPU, 80.0 GiB, compute capability 9.0" in text


@pytest.mark.parametrize("major, bf16", [(7, False), (8, True), (9, True)])
def test_bf16_is_reported_from_compute_capability_8(gpus, monkeypatch, major, bf16):
    class Props:
        name, total_memory, minor, multi_processor_count = "G", 2**30, 5, 10

    Props.major = major
    gpus(2)
    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda i: Props)
    gpus = devices.env_report()["gpus"]
    assert [g["index"] for g in gpus] == [0, 1]
    assert gpus[0]["bf16"] is bf16 and gpus[0]["compute_capability"] == f"{major}.5"
    assert f"bf16 {'yes' if bf16 else 'no'}" in devices.format_env_report()


@pytest.mark.slow
def test_python_m_d2lgpu_env_works_without_a_gpu():
    out = fresh_python(
        "-m", "d2lgpu", "env", "--json",
        check=True, env={"CUDA_VISIBLE_DEVICES": "", "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    report = json.loads(out.stdout)
    assert report["gpus"] == [] and report["torch"] == torch.__version__


def test_run_fresh_python_inherits_this_environment_and_applies_changes(monkeypatch):
    code = (
        "import os; print(repr(os.environ.get('CUDA_VISIBLE_DEVICES')), "
        "repr(os.environ.get('D2LGPU_X')))"
    )
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "7")
    monkeypatch.setenv("D2LGPU_X", "parent")
    assert devices.run_fresh_python(code).split() == ["'7'", "'parent'"]  # inherited unchanged
    assert devices.run_fresh_python(code, CUDA_VISIBLE_DEVICES="").split() == ["''", "'parent'"]
    assert devices.run_fresh_python(code, D2LGPU_X=None).split() == ["'7'", "None"]
    with pytest.raises(RuntimeError, match="exit code 3"):
        devices.run_fresh_python("import sys; sys.exit(3)")
    with pytest.raises(TypeError, match="D2LGPU_X must be a str or None"):
        devices.run_fresh_python("pass", D2LGPU_X=1)
    with pytest.raises(TypeError, match="code must be a str"):
        devices.run_fresh_python(b"pass")


@pytest.fixture
def fake_mac(gpus, monkeypatch):
    """A Mac with Apple silicon: no CUDA, torch.backends.mps available, sysctl names the chip."""
    # torchvision's import (in env_report) makes torch._dynamo read the real
    # is_available's attributes: import it before the fake replaces it.
    import torchvision  # noqa: F401

    gpus(0)
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: True)
    monkeypatch.setattr(probes, "mac_chip", lambda: "Apple M2 Pro")
    monkeypatch.setattr(torch.mps, "recommended_max_memory", lambda: 21 * 2**30, raising=False)
    monkeypatch.delenv(devices.DEVICE_ENV_VAR, raising=False)


def test_on_apple_silicon_mps_is_the_accelerator_and_chosen_by_name(fake_mac, monkeypatch):
    assert devices.mps_available()
    assert devices.try_accelerator() == torch.device("mps")
    # try_gpu keeps d2l's meaning, a CUDA GPU, and so does default_device (the chapters
    # compare the two): the chapters' CUDA cells never get mps by surprise.
    assert devices.try_gpu() == torch.device("cpu") and devices.num_gpus() == 0
    assert devices.default_device() == torch.device("cpu")
    monkeypatch.setenv(devices.DEVICE_ENV_VAR, "mps")
    assert devices.default_device() == torch.device("mps")
    monkeypatch.setenv(devices.DEVICE_ENV_VAR, " MPS")
    assert devices.default_device() == torch.device("mps")
    monkeypatch.setenv(devices.DEVICE_ENV_VAR, "tpu")
    with pytest.raises(ValueError, match=r"\(allowed: cpu, cuda, cuda:N, mps\)$"):
        devices.default_device()
    assert devices.device_name("mps") == "Apple M2 Pro GPU"


def test_a_cuda_gpu_comes_before_mps(fake_mac, gpus):
    gpus(1)
    assert devices.try_accelerator() == torch.device("cuda:0")


def test_forcing_mps_without_it_is_a_clear_error(gpus, monkeypatch):
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: False)
    monkeypatch.setenv(devices.DEVICE_ENV_VAR, "mps")
    with pytest.raises(ValueError, match="asks for Apple silicon's GPU"):
        devices.default_device()
    gpus(0)
    monkeypatch.delenv(devices.DEVICE_ENV_VAR)
    assert devices.try_accelerator() == torch.device("cpu")


def test_env_report_shows_the_apple_gpu(fake_mac):
    report = devices.env_report()
    assert report["mps_available"] is True and report["gpus"] == []
    assert report["mps"] == {"name": "Apple M2 Pro GPU", "memory_gib": 21.0}
    # one space between label and value, wherever the widest label puts the value column
    text = re.sub(r"(?m)^(\S+(?: \S+)?) {2,}", r"\1 ", devices.format_env_report(report))
    assert "Apple GPU Apple M2 Pro GPU (device 'mps'), 21.0 GiB recommended (shared)" in text
    assert "CUDA GPUs none: CUDA-only cells skip, saying why; D2LGPU_DEVICE=mps" in text
    assert "none visible: the course runs on the CPU" not in text


def test_env_report_without_mps_says_the_cpu_is_used(gpus, monkeypatch):
    gpus(0)
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: False)
    report = devices.env_report()
    assert report["mps_available"] is False and report["mps"] is None
    assert "none visible: the course runs on the CPU" in devices.format_env_report(report)


def test_cudnn_version_is_read_as_major_minor_patch(monkeypatch):
    monkeypatch.setattr(torch.backends.cudnn, "is_available", lambda: True)
    monkeypatch.setattr(torch.backends.cudnn, "version", lambda: 90102)
    assert probes.cudnn_version() == "9.1.2"
    monkeypatch.setattr(torch.backends.cudnn, "version", lambda: 92400)
    assert devices.env_report()["cudnn"] == "9.24.0"
    for encoded, version in ((90000, "9.0.0"), (8907, "8.9.7"), (8100, "8.1.0"), (7605, "7.6.5")):
        monkeypatch.setattr(torch.backends.cudnn, "version", lambda v=encoded: v)
        assert probes.cudnn_version() == version, encoded
    monkeypatch.setattr(torch.backends.cudnn, "is_available", lambda: False)
    assert probes.cudnn_version() is None


class FakeCpuinfo:
    """Stands in for pathlib.Path in devices: /proc/cpuinfo holds ``text`` (or cannot be read)."""

    def __init__(self, text):
        self.text = text

    def __call__(self, path):
        assert path == "/proc/cpuinfo"
        return self

    def read_text(self):
        if self.text is None:
            raise FileNotFoundError("/proc/cpuinfo")
        return self.text


def test_cpu_name_is_the_model_name_in_proc_cpuinfo(monkeypatch):
    text = "processor\t: 0\nvendor_id\t: Fake\nmodel name\t: Fake CPU: 8 cores @ 2.0GHz\n"
    monkeypatch.setattr(probes, "Path", FakeCpuinfo(text))
    assert devices.cpu_name() == "Fake CPU: 8 cores @ 2.0GHz"
    assert devices.device_name("cpu") == "Fake CPU: 8 cores @ 2.0GHz"


def test_cpu_name_without_proc_cpuinfo_asks_the_mac_then_the_platform(monkeypatch):
    monkeypatch.setattr(probes, "Path", FakeCpuinfo(None))
    monkeypatch.setattr(probes, "mac_chip", lambda: "Apple M3")
    assert devices.cpu_name() == "Apple M3"
    monkeypatch.setattr(probes, "mac_chip", lambda: None)
    monkeypatch.setattr(probes.platform, "processor", lambda: "arm")
    assert devices.cpu_name() == "arm"
    monkeypatch.setattr(probes.platform, "processor", lambda: "")
    assert devices.cpu_name() == "CPU"
    monkeypatch.setattr(probes, "Path", FakeCpuinfo("processor\t: 0\n"))  # no model name
    assert devices.cpu_name() == "CPU"


def test_mac_chip_asks_sysctl_on_macos_only(monkeypatch):
    calls = []

    def fake_run(cmd, **kwargs):
        calls.append(cmd)
        return subprocess.CompletedProcess(cmd, 0, stdout=out, stderr="")

    monkeypatch.setattr(subprocess, "run", fake_run)
    out = "Apple M2 Pro\n"
    monkeypatch.setattr(probes.platform, "system", lambda: "Linux")
    assert probes.mac_chip() is None and calls == []
    monkeypatch.setattr(probes.platform, "system", lambda: "Darwin")
    assert probes.mac_chip() == "Apple M2 Pro"
    assert calls == [["sysctl", "-n", "machdep.cpu.brand_string"]]
    out = "\n"  # sysctl answered nothing
    assert probes.mac_chip() is None

    def no_sysctl(cmd, **kwargs):
        raise FileNotFoundError("sysctl")

    monkeypatch.setattr(subprocess, "run", no_sysctl)
    assert probes.mac_chip() is None


def test_device_name_asks_the_driver_for_a_cuda_gpu(monkeypatch):
    asked = []
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda d: asked.append(d) or "Fake H100")
    assert devices.device_name("cuda:1") == "Fake H100"
    assert asked == [torch.device("cuda:1")]
    monkeypatch.setattr(probes, "mac_chip", lambda: None)
    assert devices.device_name("mps") == "Apple silicon GPU"


# D2LGPU_DEVICE's spelling: one stdlib-only rule, also loaded by path by tools/lab.py.

NAMES_FILE = Path(devices.__file__).with_name("_device_names.py")


@pytest.mark.parametrize(
    "value, parsed",
    [
        ("cpu", ("cpu", None)),
        ("CPU", ("cpu", None)),
        (" cpu\n", ("cpu", None)),
        ("cuda", ("cuda", None)),
        ("cuda:0", ("cuda", 0)),
        ("CUDA:12", ("cuda", 12)),
        ("mps", ("mps", None)),
        ("", None),
        ("   ", None),
    ],
)
def test_parse_device_name_reads_every_allowed_spelling(value, parsed):
    assert parse_device_name(value) == parsed


@pytest.mark.parametrize(
    "value",
    ["banana", "cuda:x", "cuda:-1", "cuda:", "cuda: 1", "cuda:1.0", "cuda:²", "mps:0", "gpu"],
)
def test_parse_device_name_refuses_the_rest_naming_variable_value_and_allowed(value):
    with pytest.raises(ValueError) as raised:
        parse_device_name(value)
    assert str(raised.value) == (
        f"D2LGPU_DEVICE={value!r} is not a device this course knows "
        "(allowed: cpu, cuda, cuda:N, mps)"
    )
    assert raised.value.value == value
    assert (
        raised.value.problem == "not a device this course knows (allowed: cpu, cuda, cuda:N, mps)"
    )


def test_parse_device_name_wants_a_string():
    with pytest.raises(TypeError, match="D2LGPU_DEVICE's value must be a str, got int"):
        parse_device_name(0)


def test_device_names_imports_only_the_standard_library_by_its_source():
    tree = ast.parse(NAMES_FILE.read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "a relative import: the file must load alone, by its path"
            imported.add(node.module.partition(".")[0])
    assert imported and imported <= set(sys.stdlib_module_names), imported - set(
        sys.stdlib_module_names
    )


@pytest.mark.slow
def test_device_names_loads_by_path_in_a_python_without_site_packages():
    # As tools/lab.py loads it with the system Python, before torch is installed: -I -S
    # leave this virtual environment's site-packages (torch, d2lgpu) out of sys.path.
    code = textwrap.dedent(
        f"""
        import importlib.util, sys
        before = set(sys.modules)
        spec = importlib.util.spec_from_file_location("names", {str(NAMES_FILE)!r})
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        print(module.parse_device_name(" CUDA:3 "))
        try:
            module.parse_device_name("banana")
        except ValueError as error:
            print(error)
        new = {{m.partition(".")[0] for m in set(sys.modules) - before}}
        print(sorted(new - set(sys.stdlib_module_names)))
        """
    )
    out = fresh_python("-I", "-S", "-c", code, check=True).stdout.splitlines()
    assert out == [
        "('cuda', 3)",
        "D2LGPU_DEVICE='banana' is not a device this course knows (allowed: cpu, cuda, cuda:N, mps)",
        "[]",  # nothing but the standard library was imported
    ]


# `python -m d2lgpu env`: D2LGPU_DEVICE's line, the paste block, the course's commit.


@pytest.fixture
def no_gpu(gpus, monkeypatch):
    import torchvision  # noqa: F401  (imported before the fakes, as in fake_mac)

    gpus(0)
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: False)
    monkeypatch.delenv(devices.DEVICE_ENV_VAR, raising=False)


@pytest.mark.parametrize(
    "value, valid, line",
    [
        (None, True, "D2LGPU_DEVICE  not set: default_device() is cpu"),
        ("cpu", True, "D2LGPU_DEVICE  cpu: valid here, default_device() is cpu"),
        ("CPU", True, "D2LGPU_DEVICE  CPU: valid here, default_device() is cpu"),
        ("", True, "D2LGPU_DEVICE  '': empty, as if not set: default_device() is cpu"),
        (
            "banana",
            False,
            "D2LGPU_DEVICE  banana: not a device this course knows "
            "(allowed: cpu, cuda, cuda:N, mps)",
        ),
        (
            "cuda:x",
            False,
            "D2LGPU_DEVICE  cuda:x: not a device this course knows "
            "(allowed: cpu, cuda, cuda:N, mps)",
        ),
        (
            "cuda:7",
            False,
            "D2LGPU_DEVICE  cuda:7: asks for GPU 7, but this machine has 0 GPU(s) visible; "
            "unset D2LGPU_DEVICE or set it to 'cpu'",
        ),
        (
            " mps",
            False,
            "D2LGPU_DEVICE  ' mps': asks for Apple silicon's GPU, which this machine's torch "
            "cannot use; unset D2LGPU_DEVICE or set it to 'cpu'",
        ),
    ],
)
def test_env_report_checks_d2lgpu_device_on_this_machine(no_gpu, monkeypatch, value, valid, line):
    if value is not None:
        monkeypatch.setenv(devices.DEVICE_ENV_VAR, value)
    report = devices.env_report()
    entry = report["d2lgpu_device"]
    assert entry["value"] == value and entry["valid"] is valid
    assert entry["device"] == ("cpu" if valid else None)
    assert (entry["problem"] is None) is valid
    last = devices.format_env_report(report).splitlines()[-1]
    assert re.sub(r"^(\S+) +", r"\1  ", last) == line  # values start in one column
    json.dumps(report)  # --json still works


def test_env_report_is_a_block_to_paste_into_an_issue(gpus, monkeypatch):
    class Props:
        name, total_memory, major, minor, multi_processor_count = "Fake GPU", 80 * 2**30, 9, 0, 132

    gpus(1)
    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda i: Props)
    monkeypatch.setattr(devices, "cudnn_version", lambda: "9.24.0")
    monkeypatch.setattr(devices, "course_commit", lambda: "abc1234 + local changes")
    monkeypatch.setattr(devices, "driver_version", lambda: "550.54.15 (nvidia-smi)")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "2,3")
    monkeypatch.setenv(devices.DEVICE_ENV_VAR, "cuda:0")
    lines = devices.format_env_report(paste=True).splitlines()
    assert lines[0].startswith("To report a problem, paste this whole block")
    assert lines[1] == "```text" and lines[-1] == "```"
    fields = dict(re.fullmatch(r"(\S+(?: \S+)?) {2,}(.*)", line).groups() for line in lines[2:-1])
    assert list(fields) == [
        "course", "python", "interpreter", "OS", "torch", "torchvision", "cuDNN", "CPU", "GPU 0",
        "driver", "CUDA_VISIBLE_DEVICES", "D2LGPU_DEVICE",
    ]  # fmt: skip
    assert fields["interpreter"] == sys.executable
    assert fields["driver"] == "550.54.15 (nvidia-smi)"
    assert fields["CUDA_VISIBLE_DEVICES"] == "2,3"
    assert fields["course"] == "commit abc1234 + local changes"
    assert fields["python"] == platform.python_version()
    assert fields["OS"] == platform.platform()
    assert fields["torch"].startswith(f"{torch.__version__} (CUDA build: ")
    assert fields["cuDNN"] == "9.24.0"
    assert "compute capability 9.0" in fields["GPU 0"]
    assert fields["D2LGPU_DEVICE"] == "cuda:0: valid here, default_device() is cuda:0"
    # Every value starts in the same column, so the pasted block reads as a table.
    assert (
        len({line.index(value) for line, value in zip(lines[2:-1], fields.values(), strict=True)})
        == 1
    )
    assert "```" not in devices.format_env_report()  # the chapters print it without fences


@pytest.mark.parametrize(
    "value, line",
    [
        (None, "not set: every GPU is visible"),
        ("", "'': empty, so CUDA sees no GPU"),
        ("1", "1"),
        (" 0", "' 0'"),
    ],
)
def test_env_block_shows_cuda_visible_devices_and_none_for_no_driver(
    no_gpu, monkeypatch, value, line
):
    monkeypatch.setattr(devices, "driver_version", lambda: None)
    if value is None:
        monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    else:
        monkeypatch.setenv("CUDA_VISIBLE_DEVICES", value)
    report = devices.env_report()
    assert report["cuda_visible_devices"] == value and report["driver"] is None
    rows = dict(
        re.split(r"  +", row, maxsplit=1) for row in devices.format_env_report(report).splitlines()
    )
    assert rows["CUDA_VISIBLE_DEVICES"] == line
    assert rows["driver"] == "none"


def test_driver_version_comes_from_nvidia_smi_else_torch_else_none(tmp_path, monkeypatch):
    smi = tmp_path / "nvidia-smi"
    smi.write_text("#!/bin/sh\necho 550.54.15\necho 550.54.15\n")
    smi.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert probes.driver_version() == "550.54.15 (nvidia-smi)"
    smi.write_text("#!/bin/sh\necho 'NVIDIA-SMI has failed' >&2\nexit 9\n")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert probes.driver_version() is None  # nvidia-smi fails and CUDA cannot tell
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch._C, "_cuda_getDriverVersion", lambda: 12040, raising=False)
    assert probes.driver_version() == "supports CUDA 12.4 (torch; no nvidia-smi)"
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    assert probes.driver_version() == "supports CUDA 12.4 (torch; no nvidia-smi)"


@pytest.mark.slow
def test_env_outside_an_environment_with_torch_prints_a_one_line_hint():
    # -S leaves out site-packages, so this Python has no torch, like the system's python3;
    # the course's folder (the working directory) still makes d2lgpu importable.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}
    root = Path(devices.__file__).resolve().parent.parent
    run = subprocess.run(
        [sys.executable, "-S", "-m", "d2lgpu", "env"],
        cwd=root, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 2 and run.stdout == ""
    assert len(run.stderr.splitlines()) == 1, run.stderr
    assert "make env" in run.stderr and ".venv/bin/python -m d2lgpu env" in run.stderr
    assert "Traceback" not in run.stderr and "No module named" not in run.stderr
    # Imported (as a notebook would), the error says which kernel to pick.
    imported = subprocess.run(
        [sys.executable, "-S", "-c", "import d2lgpu"],
        cwd=root, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert imported.returncode == 1
    assert imported.stderr.splitlines()[-1].startswith("ModuleNotFoundError: d2lgpu needs torch")
    assert "Python 3 (d2lgpu)" in imported.stderr


def git(folder, *args):
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=folder, check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip


@pytest.fixture
def course_checkout(tmp_path):
    """A git checkout laid out as the course: its root holds d2lgpu/."""
    if shutil.which("git") is None:
        pytest.skip("requires git")
    root = tmp_path / "course"
    (root / "d2lgpu").mkdir(parents=True)
    (root / "d2lgpu" / "devices.py").write_text("# v1\n")
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "v1")
    return root


def test_course_commit_is_the_short_head_and_says_when_tracked_files_changed(course_checkout):
    package = course_checkout / "d2lgpu"
    head = git(course_checkout, "rev-parse", "--short", "HEAD")
    assert probes.course_commit(package) == head
    (course_checkout / "work").mkdir()
    (course_checkout / "work" / "notes.ipynb").write_text("{}")  # the learner's own files
    assert probes.course_commit(package) == head
    (package / "devices.py").write_text("# edited\n")
    assert probes.course_commit(package) == f"{head} + local changes"


def test_course_commit_without_a_checkout_or_git_is_unknown_not_a_crash(
    course_checkout, tmp_path, monkeypatch
):
    elsewhere = tmp_path / "site-packages" / "d2lgpu"
    elsewhere.mkdir(parents=True)
    assert probes.course_commit(elsewhere) == "unknown (not a git checkout)"
    # A package inside another repository (a virtual environment kept in a project) is
    # not a checkout of the course.
    nested = course_checkout / ".venv" / "lib" / "d2lgpu"
    nested.mkdir(parents=True)
    assert probes.course_commit(nested) == "unknown (not a git checkout)"
    monkeypatch.setenv("PATH", str(tmp_path / "no-git-here"))
    assert probes.course_commit(course_checkout / "d2lgpu") == "unknown (git is not installed)"


def test_the_course_commit_of_this_checkout_is_found():
    commit = devices.env_report()["course_commit"]
    if commit.startswith("unknown"):
        pytest.skip(f"this package is not run from a checkout of the course: {commit}")
    root = Path(devices.__file__).resolve().parent.parent
    assert commit.split()[0] == git(root, "rev-parse", "--short", "HEAD")


def test_python_m_d2lgpu_env_prints_the_block_and_exits_0(no_gpu, monkeypatch, capsys):
    monkeypatch.setenv(devices.DEVICE_ENV_VAR, "cpu")
    assert main(["env"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "```text" and out[-1] == "```"
    assert "D2LGPU_DEVICE         cpu: valid here, default_device() is cpu" in out


@pytest.mark.parametrize("value", ["banana", "cuda:7", "mps", "cuda:-1"])
def test_python_m_d2lgpu_env_exits_2_when_d2lgpu_device_is_invalid(
    no_gpu, monkeypatch, capsys, value
):
    monkeypatch.setenv(devices.DEVICE_ENV_VAR, value)
    assert main(["env"]) == 2
    assert re.search(rf"^D2LGPU_DEVICE +{re.escape(value)}: ", capsys.readouterr().out, re.M)
    assert main(["env", "--json"]) == 2
    report = json.loads(capsys.readouterr().out)
    assert report["d2lgpu_device"]["valid"] is False and report["d2lgpu_device"]["value"] == value


@pytest.mark.parametrize("value", ["banana", "cuda:7"])
def test_python_m_d2lgpu_bench_refuses_a_bad_d2lgpu_device_in_one_line(
    no_gpu, monkeypatch, capsys, tmp_path, value
):
    monkeypatch.setenv(devices.DEVICE_ENV_VAR, value)
    assert main(["bench", "--quick", "--out", str(tmp_path / "out")]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"python -m d2lgpu bench: D2LGPU_DEVICE={value!r} ")
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert not (tmp_path / "out").exists()  # nothing measured, nothing written
