"""`import d2lgpu` is cheap and silent: no CUDA call, no seeding, no heavy imports."""

import textwrap

import pytest
from ddp_helpers.procs import fresh_python


def run_python(code: str) -> str:
    result = fresh_python("-c", textwrap.dedent(code))
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.slow
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


@pytest.mark.slow
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


def _modules():
    import pkgutil

    import d2lgpu

    return [i.name for i in pkgutil.iter_modules(d2lgpu.__path__) if not i.name.startswith("_")]


# bench.py is being split into measurements and report; its helpers get a place in __all__
# (or a leading underscore) there. strict: this marker must go once that is done.
_ALL_PENDING: set[str] = set()


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason="helpers not in __all__"))
        if n in _ALL_PENDING
        else n
        for n in _modules()
    ],
)
def test_every_module_declares_all_and_it_is_accurate(name):
    import importlib
    import inspect

    module = importlib.import_module(f"d2lgpu.{name}")
    assert module.__doc__ and len(module.__doc__) > 80, f"d2lgpu.{name} needs a docstring"
    assert isinstance(module.__all__, list), f"d2lgpu.{name} lacks __all__"
    assert len(set(module.__all__)) == len(module.__all__), f"d2lgpu.{name}.__all__ repeats"
    missing = [n for n in module.__all__ if not hasattr(module, n)]
    assert not missing, f"d2lgpu.{name}.__all__ names missing objects {missing}"
    # Every public function and class the module defines is exported, or named _private.
    defined = [
        n
        for n, obj in vars(module).items()
        if not n.startswith("_")
        and (inspect.isfunction(obj) or inspect.isclass(obj))
        and obj.__module__ == module.__name__
    ]
    unlisted = sorted(set(defined) - set(module.__all__))
    assert not unlisted, f"d2lgpu.{name} defines {unlisted} but leaves them out of __all__"


def test_the_package_lists_every_module_and_exports_what_it_names():
    import d2lgpu

    # magics is loaded by %load_ext, checks by grading: neither is reached as d2lgpu.X.
    assert set(_modules()) - {"magics", "checks"} <= set(d2lgpu._SUBMODULES)
    for name in d2lgpu.__all__:
        assert getattr(d2lgpu, name) is not None
    assert len(set(d2lgpu.__all__)) == len(d2lgpu.__all__)


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
