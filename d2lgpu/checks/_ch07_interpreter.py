"""Chapter 7's checkers run the learner's Triton kernel through Triton's interpreter, watched.

While the answer runs, the interpreter is watched (:func:`watched_interpreter`):

* every load and store is checked against the tensors given to the launch,
  *before* it touches memory: a missing mask is reported, never allowed to
  write past a buffer (on a CPU that corrupts the process; on a GPU it is an
  illegal address or a silent overwrite);
* a masked load without ``other=`` fills its masked lanes with NaN: what they
  hold on a GPU is undefined, so a reduction over them must say what they are;
* the stores are recorded, so that the report can say which elements were
  never written (a grid too small) or written twice (wrong offsets), and
  whether the kernel stored into an input;
* each launch's grid is recorded, and whether a launch is running now (the
  torch operations Triton makes while it copies a launch's tensors are its own,
  not the learner's: :mod:`._ch07_passes`).

Chapter 7 checks its own kernels under the same watch. What it cannot see: the
interpreter runs the programs one after another, so a race between programs, or
atomics whose result depends on their order, never shows; nor does anything the
GPU compiler alone decides (a block too large for the registers, num_warps). A
scalar argument used as a loop bound (``range(0, n_cols, BLOCK)``) works under
the watch with every triton this course meets; triton 3.6's own interpreter
fails on it with numpy 2.4.

:func:`require_interpreter` refuses a kernel compiled for a GPU, with a hint that
says how to switch the interpreter on. Triton is imported when a check runs, never
when this module is imported.
"""

from __future__ import annotations

import contextlib
import types

import torch

from ._util import CheckFailed, in_learner_code

__all__ = [
    "NOT_INTERPRETED",
    "NO_TRITON",
    "OutOfBounds",
    "Watch",
    "import_triton",
    "require_interpreter",
    "scalars_as_indices",
    "watched_interpreter",
]

NO_TRITON = (
    "this exercise needs the triton package, which is not installed here (PyTorch's Linux "
    "wheels bring it; there is none for macOS or Windows): do it on Linux (WSL2 on Windows)"
)


def import_triton():
    try:
        import triton
        import triton.runtime.interpreter  # noqa: F401
    except ImportError:
        raise CheckFailed(NO_TRITON) from None
    return triton


class OutOfBounds(BaseException):
    """A load or store outside the launch's tensors, stopped before it touched memory.

    A ``BaseException``: neither the interpreter nor an answer's ``except Exception``
    turns it into something else on its way out.
    """

    def __init__(self, kind: str, count: int):
        super().__init__(f"{count} {kind}(s) out of bounds")
        self.kind, self.count = kind, count


def _extent(t: torch.Tensor) -> tuple[int, int] | None:
    """The bytes [lo, hi) that tensor ``t`` may address (its first to its last element).
    torch has no negative strides: the first element is at ``data_ptr()``."""
    if t.numel() == 0:
        return None
    last = sum((s - 1) * st for s, st in zip(t.shape, t.stride(), strict=True))
    return t.data_ptr(), t.data_ptr() + (last + 1) * t.element_size()


class Watch:
    """What the watched interpreter saw: launches, and the addresses each load read and each
    store wrote."""

    def __init__(self):
        self.launches = 0
        self.extents: list[tuple[int, int]] = []
        self.stores: list = []  # numpy arrays of byte addresses
        self.loads: list = []  # numpy arrays of byte addresses
        self.grids: list[tuple[int, int, int]] = []  # each launch's grid, in order
        self.launching = 0  # > 0 while a launch runs
        self.calls: list = []  # what each call of the answer cost (_ch07_passes.Call)

    def launch(self, tensors) -> None:
        self.launches += 1
        self.extents = [e for t in tensors if (e := _extent(t)) is not None]

    def access(self, ptrs, mask, itemsize: int, kind: str):
        import numpy as np

        addresses = np.asarray(ptrs).astype(np.int64)
        if mask is not None:
            addresses = addresses[np.broadcast_to(np.asarray(mask, dtype=bool), addresses.shape)]
        addresses = addresses.ravel()
        inside = np.zeros(addresses.shape, dtype=bool)
        for lo, hi in self.extents:
            inside |= (addresses >= lo) & (addresses + itemsize <= hi)
        if not inside.all():
            raise OutOfBounds(kind, int((~inside).sum()))
        (self.stores if kind == "store" else self.loads).append(addresses.copy())

    def written(self, t: torch.Tensor):
        """How often each element of contiguous ``t`` was stored to (a flat int array)."""
        import numpy as np

        size = t.element_size()
        counts = np.zeros(t.numel(), dtype=np.int64)
        for addresses in self.stores:
            offsets = addresses - t.data_ptr()
            offsets = offsets[(offsets >= 0) & (offsets < t.numel() * size)] // size
            counts += np.bincount(offsets, minlength=t.numel())
        return counts

    def loaded_again(self) -> int:
        """How many addresses were loaded more than once since ``loads`` was last cleared."""
        import numpy as np

        if not self.loads:
            return 0
        _, counts = np.unique(np.concatenate(self.loads), return_counts=True)
        return int((counts > 1).sum())

    def given(self, t: torch.Tensor) -> bool:
        """Whether ``t``'s memory was a tensor argument of the last launch."""
        return _extent(t) in self.extents

    def rows_placed_at(self, t: torch.Tensor, out: torch.Tensor) -> bool:
        """Whether every store into ``t``'s memory lands where ``out``'s rows would, placed
        ``t.stride(0)`` apart from ``out``'s start: the output written with ``t``'s row stride
        (past its own end, into ``t`` where ``t`` lies after it)."""
        import numpy as np

        if _extent(t) is None or out.dim() != 2 or t.dim() != 2 or out.stride(0) == t.stride(0):
            return False
        landed = _landed(self.stores, t)
        offsets = np.concatenate(landed) - out.data_ptr() if landed else np.zeros(0, np.int64)
        size, pitch = out.element_size(), t.stride(0) * out.element_size()
        rows, columns = offsets // pitch, (offsets % pitch) // size
        placed = (offsets >= 0) & (rows < out.shape[0]) & (columns < out.shape[1])
        return bool(offsets.size) and bool(placed.all())

    def loaded_from(self, t: torch.Tensor) -> int:
        """How many loads' addresses fell in ``t``'s memory."""
        return sum(a.size for a in _landed(self.loads, t))

    def stored_into(self, t: torch.Tensor) -> bool:
        return any(a.size for a in _landed(self.stores, t))


def _landed(accesses: list, t: torch.Tensor) -> list:
    """The addresses of each access (loads or stores) that fell in ``t``'s memory."""
    extent = _extent(t)
    if extent is None:
        return []
    lo, hi = extent
    return [a[(a >= lo) & (a < hi)] for a in accesses]


def _tensors(values):
    for v in values:
        if isinstance(v, torch.Tensor):
            yield v
        elif isinstance(v, tuple | list):
            yield from _tensors(v)


@contextlib.contextmanager
def watched_interpreter():
    """Watch every launch of an interpreted Triton kernel in this block; yields a ``Watch``."""
    import_triton()
    import numpy as np
    import triton.runtime.interpreter as interp

    watch = Watch()
    real = interp._interpreter
    init_args = interp.GridExecutor._init_args_hst
    masked_load = interp.InterpreterBuilder.create_masked_load
    run, set_grid = interp.GridExecutor.__call__, interp.InterpreterBuilder.set_grid_dim

    class Guarded:
        def __getattr__(self, name):
            return getattr(real, name)

        def load(self, ptrs, mask, other, dtype):
            watch.access(ptrs, mask, np.dtype(dtype).itemsize, "load")
            return real.load(ptrs, mask, other, dtype)

        def store(self, ptrs, value, mask):
            watch.access(ptrs, mask, np.asarray(value).dtype.itemsize, "store")
            return real.store(ptrs, value, mask)

    def init_args_watched(self, args_dev, kwargs):
        args_hst, kwargs_hst = init_args(self, args_dev, kwargs)
        watch.launch(list(_tensors(args_hst)) + list(_tensors(kwargs_hst.values())))
        return args_hst, kwargs_hst

    def masked_load_undefined(self, ptrs, mask, other, *args):
        # Without other=, masked lanes are undefined on a GPU; here they are NaN.
        np_dtype = interp._get_np_dtype(ptrs.get_element_ty())
        if other is None and np.issubdtype(np_dtype, np.floating):
            nan = np.full(np.shape(ptrs.data), np.nan, dtype=np_dtype)
            other = interp.TensorHandle(nan, ptrs.get_element_ty())
        return masked_load(self, ptrs, mask, other, *args)

    def run_watched(self, *args, **kwargs):
        watch.launching += 1
        try:
            return run(self, *args, **kwargs)
        finally:
            watch.launching -= 1

    def set_grid_watched(self, nx, ny, nz):
        watch.grids.append((int(nx), int(ny), int(nz)))
        return set_grid(self, nx, ny, nz)

    interp._interpreter = Guarded()
    interp.GridExecutor._init_args_hst = init_args_watched
    interp.InterpreterBuilder.create_masked_load = masked_load_undefined
    interp.GridExecutor.__call__ = run_watched
    interp.InterpreterBuilder.set_grid_dim = set_grid_watched
    try:
        with scalars_as_indices():
            yield watch
    finally:
        interp._interpreter = real
        interp.GridExecutor._init_args_hst = init_args
        interp.InterpreterBuilder.create_masked_load = masked_load
        interp.GridExecutor.__call__ = run
        interp.InterpreterBuilder.set_grid_dim = set_grid


@contextlib.contextmanager
def scalars_as_indices():
    """In this block, a kernel's scalar argument serves as a loop bound in the interpreter.

    A scalar argument (``n_cols``) is a one-element array there. Triton 3.6's interpreter
    makes it an int with ``int(array)``, which numpy 2.4 refuses for an array of one
    dimension, so ``range(0, n_cols, BLOCK)`` failed; later triton squeezes it first, as
    this does. :func:`watched_interpreter` includes it; it nests.
    """
    import triton.runtime.interpreter as interp

    patch_tensor = interp._patch_lang_tensor

    def patch_tensor_with_index(tensor, scope):
        patch_tensor(tensor, scope)
        scope.set_attr(tensor, "__index__", lambda self: int(self.handle.data.squeeze()))

    interp._patch_lang_tensor = patch_tensor_with_index
    try:
        yield
    finally:
        interp._patch_lang_tensor = patch_tensor


def _code_names(code) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            names |= _code_names(const)
    return names


NOT_INTERPRETED = (
    "your kernel is compiled, not interpreted: these checks run it through Triton's "
    "interpreter on the CPU, which must be switched on before triton is imported. Restart "
    "the kernel (Kernel > Restart) and run the notebook from its first cell, which sets "
    "os.environ['TRITON_INTERPRET'] = '1'"
)


def _compiled_kernels(fn) -> list[str]:
    """Names of compiled kernels (``@triton.jit`` without the interpreter) that ``fn`` uses:
    found in the globals of ``fn``, of the learner's functions it calls and of the kernels."""
    from triton.runtime.jit import JITFunction

    found: list[str] = []
    todo, seen = [(getattr(fn, "__globals__", {}), getattr(fn, "__code__", None))], set()
    while todo:
        namespace, code = todo.pop()
        if code is None or id(code) in seen:
            continue
        seen.add(id(code))
        for name in sorted(_code_names(code)):
            obj = namespace.get(name)
            if isinstance(obj, JITFunction):
                found.append(name)
                todo.append((obj.fn.__globals__, obj.fn.__code__))
            elif isinstance(obj, types.FunctionType) and in_learner_code(obj.__code__.co_filename):
                todo.append((obj.__globals__, obj.__code__))
    return found


def require_interpreter(answer) -> None:
    import triton.language.standard as standard
    from triton.runtime.jit import JITFunction

    # Imported without the interpreter, triton's own @jit functions (tl.sum, tl.max) are
    # compiled ones, which the interpreter cannot call.
    if isinstance(standard.sum, JITFunction) or _compiled_kernels(answer):
        raise CheckFailed(NOT_INTERPRETED)
