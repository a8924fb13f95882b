"""What ``01.placement``'s checker looks for besides the devices: GPUs touched, lists reused.

:class:`GpuTouches` notes the first torch call that puts a tensor on a GPU (a factory
with ``device='cuda:0'``, ``.to('cuda:1')``, ``.cuda()``): the checker's GPUs are
pretend ones that torch only *reports* (``ch01_devices.fake_gpus``), so such a call
fails there, and an answer that tests each GPU that way drops them all.
:func:`check_fresh_list` sees one list refilled by every call; :func:`check_visible`, GPUs
named by a scheduler's physical numbers, or a rotation from the process's rank;
:func:`count_hint` says what to do about a list of the wrong length; :func:`no_gpu_ids` runs
the checker with the scheduler's variables unset, and names an answer's write to one. Those
that run the answer take ``fake_gpus`` as an argument, so that this module does not import
the checker that imports it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch
from torch.overrides import TorchFunctionMode

from ._kit_environ import case_environ
from ._util import CheckFailed

__all__ = [
    "GpuTouches",
    "touch_hint",
    "check_fresh_list",
    "check_visible",
    "count_hint",
    "entries_are_devices",
    "no_gpu_ids",
    "every_device_used",
    "rotation_hint",
]


def _on_gpu(value) -> bool:
    if isinstance(value, str):
        return value.startswith("cuda")
    return isinstance(value, torch.device) and value.type == "cuda"


class GpuTouches(TorchFunctionMode):
    """Notes, in ``first``, the name and device of the first call that puts a tensor on a
    GPU; naming a device (``torch.device('cuda', 0)``) is not such a call."""

    def __init__(self) -> None:
        super().__init__()
        self.first: tuple[str, str] | None = None

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = getattr(func, "__name__", str(func))
        if self.first is None and func is not torch.device:
            values = [*args, *kwargs.values()]
            gpu = next((str(v) for v in values if _on_gpu(v)), None)
            if gpu is not None or name == "cuda":
                self.first = (name, gpu or "a GPU")
        return func(*args, **kwargs)


def touch_hint(answer, gpus: int, fake_gpus) -> str | None:
    """The hint for an answer that put every worker on the CPU after putting a tensor on
    one of ``gpus`` pretend GPUs (to test it), or None if it touched none."""
    watch = GpuTouches()
    with fake_gpus(gpus), watch:
        try:
            answer(3)
        except Exception:  # noqa: BLE001 - only what it touched on the way matters here
            pass
    if watch.first is None:
        return None
    name, device = watch.first
    return (
        f"with {gpus} GPU(s) every worker went to the CPU, and place_workers called {name}() "
        f"with {device}, putting a tensor on a GPU to test it: the checker's GPUs are pretend "
        "ones that torch only reports (is_available, device_count), so every such test fails "
        "and drops them all. Naming a device does not touch the hardware: ask torch for the "
        "GPUs (try_all_gpus(), or torch.cuda.device_count()) and use them, without allocating "
        "on each one"
    )


def check_fresh_list(answer, fake_gpus) -> None:
    """A list returned earlier must not change when place_workers is called again, nor be
    handed out again by a later call."""
    with fake_gpus(2):
        first = answer(3)
    if not isinstance(first, list):
        return  # a tuple cannot be refilled; other types were named before this
    kept = [str(d) for d in first]
    with fake_gpus(3):
        second = answer(5)
    now = [str(d) for d in first]
    if now == kept:
        with fake_gpus(2):
            again = answer(3)
        if again is first:
            raise CheckFailed(
                "with 2 GPUs place_workers(3) returned the very list it returned an earlier "
                "call (the same object): a result kept between calls and handed out again (a "
                "cache of lists), so a caller that edits its placement (appends a worker, "
                "moves one) changes what every later call returns. Build a new list in every "
                "call, or keep and return a tuple, which no caller can change"
            )
        return
    same = ", the very list it returned then" if second is first else ""
    raise CheckFailed(
        f"with 2 GPUs place_workers(3) returned [{', '.join(kept)}], and after "
        f"place_workers(5) with 3 GPUs, that list holds [{', '.join(now)}]{same}: every call "
        "refills the same list (a mutable default argument such as out=[], or a list made "
        "outside the function), so a placement the caller kept changes under it. Build a "
        "new list in every call"
    )


_GPU_IDS = {"CUDA_VISIBLE_DEVICES": "2,3", "SLURM_STEP_GPUS": "2,3", "SLURM_JOB_GPUS": "2,3"}
_RANKS = {"LOCAL_RANK": "1", "RANK": "1"}


_WRITES = (
    "place_workers only reads the machine. A variable written from inside the program "
    "changes nothing torch has read already (it reads CUDA_VISIBLE_DEVICES once, as CUDA "
    "starts), and every process the program starts later inherits it. Leave the "
    "environment to the launcher"
)


def _placed_with(env: dict[str, str], answer, fake_gpus) -> list[str]:
    """``answer(3)`` with 2 faked GPUs and ``env`` set, every variable put back after."""
    with case_environ(env, "place_workers", _WRITES), fake_gpus(2):
        return [str(d) for d in answer(3)]


@contextmanager
def no_gpu_ids() -> Iterator[None]:
    """The block with the scheduler's GPU variables unset (where a test or a launcher set
    them, an answer that fills them in with ``setdefault`` would write nothing), and a write
    of the answer's to any variable named; torch's CUDA, where there is one, started first,
    so that it keeps the GPUs the variables gave it."""
    if torch.cuda.device_count() > 0:
        torch.cuda.init()
    with case_environ(dict.fromkeys(_GPU_IDS), "place_workers", _WRITES):
        yield


def check_visible(answer, fake_gpus) -> None:
    """With a scheduler's variables naming GPUs 2 and 3 (``CUDA_VISIBLE_DEVICES``, Slurm's),
    torch sees two GPUs, numbered cuda:0 and cuda:1: the physical numbers are not device
    indices. With ``LOCAL_RANK=1`` (torchrun's second process), the workers still start at
    cuda:0: the variable is not the function's to read. Runs inside :func:`no_gpu_ids`,
    which starts torch's CUDA, where there is one, before any variable changes."""
    want = ["cuda:0", "cuda:1", "cuda:0"]
    got = _placed_with(_GPU_IDS, answer, fake_gpus)
    if got != want:
        raise CheckFailed(
            "with CUDA_VISIBLE_DEVICES=2,3 (and Slurm's SLURM_STEP_GPUS and SLURM_JOB_GPUS=2,3: "
            "two GPUs a scheduler gave the job) and so 2 GPUs for torch, place_workers(3) "
            f"returned [{', '.join(got)}]: torch numbers the visible GPUs from 0 (cuda:0 is "
            "physical GPU 2, cuda:1 is GPU 3), so the variables' numbers are not device "
            "indices. Ask torch for the devices (try_all_gpus()), not the variables"
        )
    got = _placed_with(_RANKS, answer, fake_gpus)
    if got != want:
        raise CheckFailed(
            "with LOCAL_RANK=1 and RANK=1 (the second process torchrun started) and 2 GPUs, "
            f"place_workers(3) returned [{', '.join(got)}]: the workers go round the devices "
            "from cuda:0 whatever the process's rank, as the prompt's table shows; the rank is "
            "not the function's to read. Ask torch for the devices (try_all_gpus()) and go "
            "round them from the first"
        )


def count_hint(n_workers: int, got: int, gpus: int) -> str:
    """What to do about a list of ``got`` devices for ``n_workers`` workers."""
    if n_workers == 0:
        return "return one device per worker, so an empty list for no worker"
    if got > n_workers:
        return "return one device per worker, not one per device"
    return "return one device per worker, also when there are more workers than devices" + (
        " (with no GPU, each worker goes to the CPU: try_all_gpus() returns [cpu])"
        if gpus == 0
        else ""
    )


def every_device_used(got, devices, gpus: int) -> None:
    """Every one of ``devices`` (the machine's, each once) got a worker of ``got``."""
    unused = sorted({str(d) for d in devices} - {str(d) for d in got})
    if unused:
        raise CheckFailed(
            f"with {gpus} GPUs and {len(got)} workers, {', '.join(unused)} got no worker: "
            "use every device that try_all_gpus() returns, round-robin (not a fixed number "
            "of devices)"
        )


def rotation_hint(got, want, gpus: int, again) -> str | None:
    """Words for a placement that is the right one started at another device, where the
    calls made by ``again()`` (None: not asked; the same call after another one) start
    elsewhere: the round went on from where an earlier call stopped."""
    devices = want[: min(len(want), max(gpus, 1))]
    for shift in range(1, len(devices)):
        turned = all(d == devices[(j + shift) % len(devices)] for j, d in enumerate(got))
        if turned and again is not None and any(a != got for a in again() if len(a) == len(got)):
            return (
                f"with {gpus} GPU(s), place_workers({len(got)}) started at {got[0]}, not at "
                f"{want[0]}, and went round from there: a cycle or a counter kept between "
                "calls (itertools.cycle made outside the function, a global index) starts "
                "where the call before stopped. Start again from the first device in every call"
            )
    return None


def entries_are_devices(answer, fake_gpus) -> None:
    """The prompt asks for torch.device objects; names compare equal above, so ask last."""
    with fake_gpus(2):
        got = answer(3)
    names = [(i, d) for i, d in enumerate(got) if not isinstance(d, torch.device)]
    if names:
        i, d = names[0]
        raise CheckFailed(
            f"the devices are right, but worker {i}'s entry is the {type(d).__name__} {d!r}, "
            "not a torch.device: return torch.device objects, such as those try_all_gpus() "
            "returns (torch.device(name) makes one from a name)"
        )
