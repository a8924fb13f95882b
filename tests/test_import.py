"""`import d2lgpu` is cheap and silent: no CUDA call, no seeding, no heavy imports."""

import subprocess
import sys
import textwrap


def run_python(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_import_makes_no_cuda_call():
    out = run_python(
        """
        import torch

        def forbidden(*args, **kwargs):
            raise AssertionError("CUDA was touched during import")

        torch.cuda._lazy_init = forbidden
        torch.cuda.device_count = forbidden
        torch.cuda.is_available = forbidden
        torch._C._cuda_getDeviceCount = forbidden
        import d2lgpu
        print("imported", d2lgpu.__version__)
        """
    )
    assert out.startswith("imported")


def test_import_has_no_side_effects_and_no_heavy_imports():
    out = run_python(
        """
        import sys, torch
        already = set(sys.modules)  # torch itself may import some (it imports tqdm)
        torch.manual_seed(1234)
        state = torch.get_rng_state().clone()
        flags = (torch.backends.cudnn.benchmark, torch.get_num_threads(),
                 torch.are_deterministic_algorithms_enabled())
        import d2lgpu
        assert torch.equal(state, torch.get_rng_state()), "import changed the RNG state"
        assert flags == (torch.backends.cudnn.benchmark, torch.get_num_threads(),
                         torch.are_deterministic_algorithms_enabled()), "import changed a flag"
        heavy = [m for m in ("matplotlib", "torchvision", "tqdm")
                 if m in sys.modules and m not in already]
        print(heavy)
        """
    )
    assert out.strip() == "[]"


def test_every_module_declares_all_and_it_is_accurate():
    import importlib
    import pkgutil

    import d2lgpu

    for info in pkgutil.iter_modules(d2lgpu.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"d2lgpu.{info.name}")
        assert isinstance(module.__all__, list), f"d2lgpu.{info.name} lacks __all__"
        missing = [name for name in module.__all__ if not hasattr(module, name)]
        assert not missing, f"d2lgpu.{info.name}.__all__ names missing objects {missing}"
        assert module.__doc__ and len(module.__doc__) > 80, f"d2lgpu.{info.name} needs a docstring"


def test_submodules_load_on_first_use():
    out = run_python(
        """
        import sys, d2lgpu
        before = "d2lgpu.grading" in sys.modules
        d2lgpu.grading.check
        print(before, "d2lgpu.grading" in sys.modules)
        """
    )
    assert out.split() == ["False", "True"]
