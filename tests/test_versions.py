"""d2lgpu.versions: each function takes the side its docstring gives for the running torch.

Both lanes run this file (``FLOOR_TESTS`` in the Makefile): the lock's torch has what is
newer than 2.11, the floor's (2.11) does not. Each function is also tested on the side the
running torch does not take, by adding or removing torch's attribute for the test.
"""

from __future__ import annotations

import functools
import inspect
import subprocess
import warnings

import pytest
import torch
from torch import nn
from torch.utils import checkpoint as checkpointing

from d2lgpu import memory, versions


def test_empty_host_cache_says_whether_this_torch_can_empty_the_pinned_cache():
    has = hasattr(torch.accelerator, "empty_host_cache")
    assert versions.empty_host_cache() is has, (
        f"torch {torch.__version__} {'has' if has else 'lacks'} "
        "torch.accelerator.empty_host_cache, so empty_host_cache() must return that"
    )


def test_empty_host_cache_calls_torchs_function_where_it_exists(monkeypatch):
    calls = []
    monkeypatch.setattr(
        torch.accelerator, "empty_host_cache", lambda: calls.append(1), raising=False
    )
    assert versions.empty_host_cache() is True
    assert calls == [1], f"torch.accelerator.empty_host_cache called {len(calls)} times, not once"


def test_empty_host_cache_frees_nothing_on_a_torch_without_it(monkeypatch):
    monkeypatch.delattr(torch.accelerator, "empty_host_cache", raising=False)
    assert versions.empty_host_cache() is False


@pytest.mark.slow  # two fresh Pythons that import torch
@pytest.mark.skipif(
    not hasattr(torch._C, "_accelerator_getAllocatorSettings"),
    reason="this torch (2.11) cannot read the allocator's settings back without a GPU",
)
def test_allocator_settings_reads_back_a_setting_and_names_a_misspelt_key():
    assert versions.allocator_settings("expandable_segments:True") == "expandable_segments:True"
    refused = versions.allocator_settings("expandable_segment:True")
    assert refused.startswith("ValueError") and "Unrecognized key" in refused, refused


def test_allocator_settings_reads_what_the_fresh_python_prints(monkeypatch):
    seen = {}

    def fake_run(command, env, **kwargs):
        seen.update(env=env, command=command)
        return subprocess.CompletedProcess(command, 0, stdout="expandable_segments:True\n")

    monkeypatch.setattr(torch._C, "_accelerator_getAllocatorSettings", object, raising=False)
    monkeypatch.setattr(versions.subprocess, "run", fake_run)
    monkeypatch.setenv("PYTORCH_ALLOC_CONF", "expandable_segments:False")
    assert versions.allocator_settings("expandable_segments:True") == "expandable_segments:True"
    assert seen["env"]["PYTORCH_CUDA_ALLOC_CONF"] == "expandable_segments:True"
    assert "PYTORCH_ALLOC_CONF" not in seen["env"], "the newer name would override the setting"


def test_allocator_settings_returns_the_last_line_of_a_refusal(monkeypatch):
    def fake_run(command, **kwargs):
        return subprocess.CompletedProcess(
            command, 1, stdout="", stderr="Traceback\nValueError: no"
        )

    monkeypatch.setattr(torch._C, "_accelerator_getAllocatorSettings", object, raising=False)
    monkeypatch.setattr(versions.subprocess, "run", fake_run)
    assert versions.allocator_settings("x:1") == "ValueError: no"


def test_allocator_settings_starts_nothing_on_a_torch_without_the_reader(monkeypatch):
    def no_process(*args, **kwargs):
        raise AssertionError("a process was started on a torch that cannot read the settings")

    monkeypatch.delattr(torch._C, "_accelerator_getAllocatorSettings", raising=False)
    monkeypatch.setattr(versions.subprocess, "run", no_process)
    assert versions.allocator_settings("expandable_segments:True") is None


@pytest.mark.parametrize(
    ("conf", "timeout", "error", "names"),
    [
        (None, 300, TypeError, "conf"),
        (b"expandable_segments:True", 300, TypeError, "conf"),
        ("expandable_segments:True", 0, ValueError, "timeout"),
        ("expandable_segments:True", "5", ValueError, "timeout"),
    ],
)
def test_allocator_settings_refuses_bad_arguments_by_name(conf, timeout, error, names):
    with pytest.raises(error, match=names):
        versions.allocator_settings(conf, timeout=timeout)


def _save_products(ctx, op, *args, **kwargs):
    products = {torch.ops.aten.mm.default, torch.ops.aten.addmm.default}
    if op in products:
        return checkpointing.CheckpointPolicy.MUST_SAVE
    return checkpointing.CheckpointPolicy.PREFER_RECOMPUTE


def test_selective_checkpoint_hook_kwargs_follows_checkpoints_signature():
    has = "respect_saved_tensors_hooks" in inspect.signature(checkpointing.checkpoint).parameters
    expected = {"respect_saved_tensors_hooks": True} if has else {}
    kwargs = versions.selective_checkpoint_hook_kwargs()
    assert kwargs == expected, (
        f"torch {torch.__version__} {'has' if has else 'lacks'} "
        f"checkpoint(respect_saved_tensors_hooks=...): expected {expected}, got {kwargs}"
    )


def test_selective_checkpoint_hook_kwargs_on_either_torch(monkeypatch):
    def checkpoint_2_11(function, *args, use_reentrant=None, context_fn=None, **kwargs):
        return function(*args)

    def checkpoint_2_14(
        function, *args, use_reentrant=None, context_fn=None, respect_saved_tensors_hooks=None
    ):
        return function(*args)

    monkeypatch.setattr(checkpointing, "checkpoint", checkpoint_2_11)
    older = versions.selective_checkpoint_hook_kwargs()
    assert older == {}, f"a checkpoint without the argument: expected {{}}, got {older}"
    monkeypatch.setattr(checkpointing, "checkpoint", checkpoint_2_14)
    newer = versions.selective_checkpoint_hook_kwargs()
    assert newer == {"respect_saved_tensors_hooks": True}, (
        f"a checkpoint with the argument: expected it set to True, got {newer}"
    )


def test_with_its_kwargs_saved_for_backward_counts_what_the_policy_keeps_or_only_the_input():
    torch.manual_seed(0)
    lin = nn.Linear(8, 32)
    x = torch.randn(4, 8, requires_grad=True)
    kwargs = versions.selective_checkpoint_hook_kwargs()
    context = functools.partial(checkpointing.create_selective_checkpoint_contexts, _save_products)
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)  # no "choose the behaviour" warning
        with memory.saved_for_backward(exclude=lin.parameters()) as saved:
            out = checkpointing.checkpoint(
                lambda h: torch.relu(lin(h)), x, use_reentrant=False, context_fn=context, **kwargs
            )
    product = 4 * 32 * 4  # the addmm's output, 4 x 32 floats, which the policy keeps
    expected = x.nbytes + product if kwargs else x.nbytes
    assert saved.bytes == expected, (
        f"with {kwargs}: expected {expected} bytes counted (the input"
        f"{' and the product' if kwargs else ' only'}), counted {saved.bytes}"
    )
    out.sum().backward()  # what the policy kept still gives the gradients
    assert lin.weight.grad is not None and x.grad is not None, "backward gave no gradient"


# --- ddp_default_bucket_cap_mb (chapter 10) ---------------------------------------------------


def _ddp_default_cap_bytes(rank, world):
    """The bucket cap, in bytes, of a DDP built without ``bucket_cap_mb``, and of one with 3."""
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP

    model = torch.nn.Linear(4, 4)
    return DDP(model).bucket_bytes_cap, DDP(model, bucket_cap_mb=3).bucket_bytes_cap


def test_ddp_default_bucket_cap_is_the_one_ddp_uses():
    from d2lgpu.ranks import run_ranks

    cap = versions.ddp_default_bucket_cap_mb()
    assert isinstance(cap, int) and cap == 25, (
        f"expected 25 (MiB) on every supported torch, got {cap!r}"
    )
    ((default_bytes, three_mib),) = run_ranks(_ddp_default_cap_bytes, world=1)
    assert three_mib == 3 * 2**20, (
        f"bucket_cap_mb=3 should cap at {3 * 2**20} bytes, got {three_mib}"
    )
    assert default_bytes == cap * 2**20, (
        f"DDP without bucket_cap_mb caps its buckets at {default_bytes} bytes, "
        f"not {cap} MiB = {cap * 2**20} bytes as ddp_default_bucket_cap_mb() says"
    )


def test_ddp_default_bucket_cap_is_none_when_torch_says_nothing(monkeypatch):
    import inspect

    from torch.nn.parallel import distributed as ddp_module

    monkeypatch.delattr(ddp_module, "_DEFAULT_BUCKET_CAP_MB", raising=False)

    def no_source(obj):
        raise OSError("could not get source code")

    monkeypatch.setattr(inspect, "getsource", no_source)
    assert versions.ddp_default_bucket_cap_mb() is None


@pytest.mark.parametrize(
    ("init_source", "expected"),
    [
        ("    if bucket_cap_mb is None:\n        bucket_cap_mb = 25\n", 25),  # torch 2.11's way
        ("    bucket_cap_mb = bucket_cap_mb or 25\n", None),  # not a number on its own: not read
    ],
)
def test_ddp_default_bucket_cap_read_from_the_source_without_the_name(
    monkeypatch, init_source, expected
):
    import inspect

    from torch.nn.parallel import distributed as ddp_module

    monkeypatch.delattr(ddp_module, "_DEFAULT_BUCKET_CAP_MB", raising=False)
    monkeypatch.setattr(inspect, "getsource", lambda obj: init_source)
    assert versions.ddp_default_bucket_cap_mb() == expected
