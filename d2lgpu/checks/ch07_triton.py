"""Checkers of chapter 7: ``07.relu_mul`` and ``07.rms_norm``, two Triton kernels.

The answers are Python functions that launch the learner's Triton kernel:

* ``relu_mul(x, y) -> out``: ``relu(x) * y`` element by element, any shape;
* ``rms_norm(x, eps) -> out``: each row of a 2-D ``x`` divided by its root
  mean square, ``x / sqrt(mean(x**2) + eps)``.

Every check runs on the CPU through Triton's interpreter, with fresh random
inputs of several sizes, most of them not a multiple of any block size, and
with inputs that are not contiguous (a transposed matrix, a slice of a wider
one). The exercise notebook switches the interpreter on (``TRITON_INTERPRET=1``
before triton is imported) on every machine, GPU or not; a kernel compiled
for a GPU is refused with a hint that says how to switch it on.

While the answer runs, the interpreter is watched (:func:`watched_interpreter`):

* every load and store is checked against the tensors given to the launch,
  *before* it touches memory: a missing mask is reported, never allowed to
  write past a buffer (on a CPU that corrupts the process; on a GPU it is an
  illegal address or a silent overwrite);
* a masked load without ``other=`` fills its masked lanes with NaN: what they
  hold on a GPU is undefined, so a reduction over them must say what they are;
* the stores are recorded, so that the report can say which elements were
  never written (a grid too small) or written twice (wrong offsets), and
  whether the kernel stored into an input.

Triton is imported when a check runs, never when this module is imported.
"""

from __future__ import annotations

import contextlib
import os
import types

import torch

from ._util import CheckFailed, in_learner_code, one_cpu_thread

__all__ = ["check_relu_mul", "check_rms_norm", "watched_interpreter"]

NO_TRITON = (
    "this exercise needs the triton package, which is not installed here (PyTorch's Linux "
    "wheels bring it; there is none for macOS or Windows): do it on Linux (WSL2 on Windows)"
)


def _triton():
    try:
        import triton
        import triton.runtime.interpreter  # noqa: F401
    except ImportError:
        raise CheckFailed(NO_TRITON) from None
    return triton


class _OutOfBounds(BaseException):
    """A load or store outside the launch's tensors, stopped before it touched memory.

    A ``BaseException``: neither the interpreter nor an answer's ``except Exception``
    turns it into something else on its way out.
    """

    def __init__(self, kind: str, count: int):
        super().__init__(f"{count} {kind}(s) out of bounds")
        self.kind, self.count = kind, count


def _extent(t: torch.Tensor) -> tuple[int, int] | None:
    """The bytes [lo, hi) that tensor ``t`` may address (its first to its last element)."""
    if t.numel() == 0:
        return None
    low = sum((s - 1) * st for s, st in zip(t.shape, t.stride(), strict=True) if st < 0)
    high = sum((s - 1) * st for s, st in zip(t.shape, t.stride(), strict=True) if st > 0)
    size = t.element_size()
    return t.data_ptr() + low * size, t.data_ptr() + (high + 1) * size


class _Watch:
    """What the watched interpreter saw: launches, and the addresses each store wrote."""

    def __init__(self):
        self.launches = 0
        self.extents: list[tuple[int, int]] = []
        self.stores: list = []  # numpy arrays of byte addresses

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
            raise _OutOfBounds(kind, int((~inside).sum()))
        if kind == "store":
            self.stores.append(addresses.copy())

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

    def stored_into(self, t: torch.Tensor) -> bool:
        extent = _extent(t)
        if extent is None:
            return False
        lo, hi = extent
        return any(((a >= lo) & (a < hi)).any() for a in self.stores)


def _tensors(values):
    for v in values:
        if isinstance(v, torch.Tensor):
            yield v
        elif isinstance(v, tuple | list):
            yield from _tensors(v)


@contextlib.contextmanager
def watched_interpreter():
    """Watch every launch of an interpreted Triton kernel in this block; yields a ``_Watch``."""
    _triton()
    import numpy as np
    import triton.runtime.interpreter as interp

    watch = _Watch()
    real = interp._interpreter
    init_args = interp.GridExecutor._init_args_hst
    masked_load = interp.InterpreterBuilder.create_masked_load

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

    interp._interpreter = Guarded()
    interp.GridExecutor._init_args_hst = init_args_watched
    interp.InterpreterBuilder.create_masked_load = masked_load_undefined
    try:
        yield watch
    finally:
        interp._interpreter = real
        interp.GridExecutor._init_args_hst = init_args
        interp.InterpreterBuilder.create_masked_load = masked_load


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


def _require_interpreter(answer) -> None:
    import triton.language.standard as standard
    from triton.runtime.jit import JITFunction

    # Imported without the interpreter, triton's own @jit functions (tl.sum, tl.max) are
    # compiled ones, which the interpreter cannot call.
    if isinstance(standard.sum, JITFunction) or _compiled_kernels(answer):
        raise CheckFailed(NOT_INTERPRETED)


def _random(shape, generator, scale=1.0) -> torch.Tensor:
    return torch.randn(shape, generator=generator) * scale


def _fresh_generator() -> torch.Generator:
    # Fresh inputs each run: a kernel cannot pass by matching one fixed set of numbers.
    return torch.Generator().manual_seed(int.from_bytes(os.urandom(8), "little") >> 1)


def _call(answer, args, name: str, watch: _Watch, where: str):
    """``answer(*args)``, with a read or write out of bounds turned into a hint."""
    launches = watch.launches
    try:
        out = answer(*args)
    except _OutOfBounds as error:
        verb = "read" if error.kind == "load" else "wrote"
        raise CheckFailed(
            f"for {where}, your kernel {verb} {error.count} element(s) outside the tensors it "
            "was given (stopped before it did): the last block runs past the end. Mask every "
            f"load and store (mask = offsets < n, tl.{error.kind}(..., mask=mask)) and use each "
            "tensor's own strides"
        ) from None
    if watch.launches == launches:
        raise CheckFailed(
            f"{name} launched no Triton kernel (for {where}): compute the result in your "
            "@triton.jit kernel, launched as kernel[grid](...), not with torch operations"
        )
    if not isinstance(out, torch.Tensor):
        raise CheckFailed(
            f"{name} returned a {type(out).__name__}: return the output tensor your kernel "
            "wrote (e.g. out = torch.empty_like(x), filled by the kernel)"
        )
    return out


def _inputs_untouched(inputs: dict, copies: dict, watch: _Watch, name: str, where: str) -> None:
    for arg, t in inputs.items():
        if watch.stored_into(t):
            raise CheckFailed(
                f"for {where}, your kernel stored into {arg}, an input: store the result through "
                "the output's pointer (out_ptr), and leave the inputs as they were"
            )
        if not torch.equal(t, copies[arg]):
            raise CheckFailed(
                f"for {where}, {name} changed its input {arg} in place: compute into a new "
                "output tensor (torch.empty_like) and leave the inputs as they were"
            )


def _shape_check(out, like, name, where) -> None:
    if out.shape != like.shape or out.dtype != like.dtype or out.device.type != "cpu":
        raise CheckFailed(
            f"for {where}, {name} returned a {out.dtype} tensor of shape {tuple(out.shape)} on "
            f"{out.device}; it must have the input's shape {tuple(like.shape)} and dtype "
            f"{like.dtype}, on the input's device (torch.empty_like(x))"
        )


def _coverage_hint(out, watch: _Watch, where: str, unit: str = "element") -> str | None:
    """What the recorded stores say about a wrong output: elements never or twice written."""
    if not out.is_contiguous() or out.numel() == 0:
        return None
    counts = watch.written(out)
    if unit == "row":
        per_row = counts.reshape(-1, out.shape[-1])
        partly = ((per_row.max(axis=1) > 0) & (per_row.min(axis=1) == 0)).nonzero()[0]
        if len(partly):
            r = int(partly[0])
            return (
                f"for {where}, row {r} was only partly written ({int((per_row[r] > 0).sum())} "
                f"of {out.shape[-1]} columns): one program handles a whole row, so BLOCK must "
                "be at least n_cols: BLOCK = triton.next_power_of_2(n_cols)"
            )
        counts = per_row.max(axis=1)
    never = (counts == 0).nonzero()[0]
    twice = int((counts > 1).sum()) if unit == "element" else 0
    if twice:
        return (
            f"for {where}, {twice} element(s) were written by more than one program"
            + (f" and {len(never)} by none" if len(never) else "")
            + ": program pid must handle elements pid * BLOCK to pid * BLOCK + BLOCK - 1 "
            "(offsets = pid * BLOCK + tl.arange(0, BLOCK))"
        )
    if not len(never):
        return None
    first, total = int(never[0]), len(counts)
    if unit == "row":
        return (
            f"for {where}, "
            + (f"row {first} was" if first == total - 1 else f"rows {first} to {total - 1} were")
            + " never written: launch one program per row, grid = (n_rows,), and let program "
            "tl.program_id(0) handle its row"
            if list(never) == list(range(first, total))
            else f"for {where}, {len(never)} row(s) (the first: row {first}) were never written: "
            "program tl.program_id(0) must handle exactly that row"
        )
    if list(never) == list(range(first, total)):
        return (
            f"for {where}, elements {first} to {total - 1} (the last {total - first}) were never "
            "written: the grid is one program short; launch triton.cdiv(n, BLOCK) programs, "
            "not n // BLOCK, so the last, partial block is covered"
        )
    return (
        f"for {where}, {len(never)} element(s) (the first: index {first}) were never written: "
        "program pid must handle elements pid * BLOCK to pid * BLOCK + BLOCK - 1 "
        "(offsets = pid * BLOCK + tl.arange(0, BLOCK)), and the grid must cover all n"
    )


def _first_difference(out, expected) -> int:
    bad = ~torch.isclose(out, expected, rtol=1e-4, atol=1e-5, equal_nan=False)
    return int(bad.reshape(-1).nonzero()[0, 0]) if bad.any() else -1


def _agrees(out, expected, rtol=1e-4, atol=1e-5) -> bool:
    return out.shape == expected.shape and bool(
        torch.isclose(out, expected, rtol=rtol, atol=atol).all()
    )


# ---------------------------------------------------------------------------------------------
# 07.relu_mul


def _relu_mul_cases(gen):
    odd = 4097 + 2 * int(torch.randint(500, 2500, (1,), generator=gen))  # odd: no block fits
    contiguous = [
        ((1,), "n = 1"),
        ((1000,), "n = 1000"),
        ((4096,), "n = 4096"),
        ((odd,), "an odd n between 5,000 and 9,100"),
        ((37, 129), "a 37 x 129 matrix"),
    ]
    for shape, what in contiguous:
        yield _random(shape, gen), _random(shape, gen), what, None
    base = _random((129, 37), gen)
    yield base.t(), _random((37, 129), gen), "x transposed (37 x 129)", "x is transposed"
    wide = _random((2 * 3001,), gen)
    yield (
        _random((3001,), gen),
        wide[::2],
        "y = every other element of a longer vector (n = 3001)",
        "y is every other element of a longer vector: y.stride(0) == 2",
    )


def _relu_mul_checks(answer, passed) -> None:
    gen = _fresh_generator()
    with watched_interpreter() as watch:
        for x, y, where, layout in _relu_mul_cases(gen):
            copies = {"x": x.clone(), "y": y.clone()}
            watch.stores.clear()
            out = _call(answer, (x, y), "relu_mul", watch, where)
            _inputs_untouched({"x": x, "y": y}, copies, watch, "relu_mul", where)
            _shape_check(out, x, "relu_mul", where)
            expected = torch.relu(copies["x"]) * copies["y"]
            if _agrees(out, expected):
                continue
            if layout is not None:
                raise CheckFailed(
                    f"right on contiguous inputs, wrong when {layout}: its elements are not at "
                    "ptr + i. Call .contiguous() on the inputs in your function before the "
                    "launch (a no-op when they already are)"
                )
            hint = _coverage_hint(out, watch, where)
            if hint:
                raise CheckFailed(hint)
            x0, y0 = copies["x"], copies["y"]
            for formula, wrong in (
                ("relu(x * y)", torch.relu(x0 * y0)),
                ("x * y", x0 * y0),
                ("x * relu(y)", x0 * torch.relu(y0)),
                ("relu(x) + y", torch.relu(x0) + y0),
            ):
                if _agrees(out, wrong):
                    raise CheckFailed(
                        f"for {where}, you computed {formula}, not relu(x) * y: relu applies to "
                        "x alone, tl.maximum(x, 0.0), and the result multiplies y"
                    )
            i = _first_difference(out, expected)
            xi, yi = float(copies["x"].reshape(-1)[i]), float(copies["y"].reshape(-1)[i])
            got = float(out.reshape(-1)[i])
            if xi < 0 and got != 0:
                raise CheckFailed(
                    f"for {where}, where x < 0 relu(x) * y is 0 (at index {i}: x = {xi:.3g}, "
                    f"y = {yi:.3g}, you wrote {got:.3g}): apply relu to x alone, "
                    "tl.maximum(x, 0.0), then multiply by y"
                )
            raise CheckFailed(
                f"for {where}, at index {i}: x = {xi:.3g}, y = {yi:.3g}, relu(x) * y = "
                f"{float(expected.reshape(-1)[i]):.3g}, you wrote {got:.3g}"
            )
        passed.append(
            "relu(x) * y for n = 1, 1000, 4096, an odd n and a 37 x 129 matrix (fresh random "
            "inputs), through Triton's interpreter"
        )
        passed.append("every load and store inside its tensors (masked), each element written once")
        passed.append("the inputs left unchanged")
        passed.append("non-contiguous inputs (a transposed matrix, a strided vector)")


def check_relu_mul(answer, passed):
    """``relu_mul(x, y)``: a Triton kernel's ``relu(x) * y`` on several sizes and layouts."""
    if not callable(answer):
        raise CheckFailed("pass the function itself: check('07.relu_mul', relu_mul)")
    _triton()
    _require_interpreter(answer)
    one_cpu_thread(_relu_mul_checks)(answer, passed)


# ---------------------------------------------------------------------------------------------
# 07.rms_norm


def _rms(x, eps):
    return x / torch.sqrt((x * x).mean(dim=1, keepdim=True) + eps)


def _rms_norm_cases(gen):
    odd = 301 + 2 * int(torch.randint(0, 300, (1,), generator=gen))
    shapes = [((1, 1), "a 1 x 1 matrix"), ((4, 1000), "a 4 x 1000 matrix")]
    shapes += [((3, 1024), "a 3 x 1024 matrix"), ((6, odd), "6 rows of an odd length")]
    shapes += [((64, 65), "a 64 x 65 matrix")]
    for shape, what in shapes:
        x = _random(shape, gen, scale=3.0)
        yield x, 1e-6, what, None
    tiny = _random((5, 333), gen, scale=1e-4)  # rows whose mean square is below eps
    yield tiny, 1e-5, "rows of tiny values (about 1e-4) with eps = 1e-5", None
    wide = _random((5, 1000), gen)
    yield (
        wide[:, 100:433],
        1e-6,
        "x = a 5 x 333 slice of a 5 x 1000 matrix",
        "rows of x are x.stride(0) = 1000 elements apart, not 333: pass x.stride(0) to the "
        "kernel and start row r at x_ptr + r * stride (or call x.contiguous() first)",
    )
    yield (
        _random((200, 7), gen).t(),
        1e-6,
        "x transposed (7 x 200)",
        "x is transposed: x.stride(1) = 7, so a row's elements are not adjacent; call "
        "x.contiguous() first when x.stride(1) != 1",
    )


def _rms_norm_diagnosis(out, x, eps, watch, where) -> str:
    hint = _coverage_hint(out, watch, where, unit="row")
    if hint:
        return hint
    n = x.shape[1]
    if torch.isnan(out).any() and not torch.isnan(x).any():
        return (
            f"for {where}, your result has NaN: the masked lanes of a load without other= are "
            "undefined on a GPU (NaN here), and the sum of squares adds them in. Load with "
            "tl.load(..., mask=mask, other=0.0)"
        )
    squares = (x * x).sum(dim=1, keepdim=True)
    block = 1
    while block < 2**17:
        if block > n and _agrees(out, x / torch.sqrt(squares / block + eps)):
            return (
                f"for {where}, you divided the sum of squares by the block size ({block}), not "
                f"by the number of columns ({n}): the masked lanes are not part of the row"
            )
        block *= 2
    if _agrees(out, x / (torch.sqrt(squares / n) + eps)):
        return f"for {where}, eps goes inside the square root: x / sqrt(mean(x * x) + eps)"
    if any(_agrees(out, _rms(x, e)) for e in (0.0, 1e-6, 1e-5, 1e-8) if e != eps):
        return f"for {where}, use the eps you are given (here {eps:g}), not another one"
    if _agrees(out, x * torch.sqrt(squares / n + eps)):
        return f"for {where}, divide by the root mean square: x / sqrt(mean(x * x) + eps)"
    r = int(_first_difference(out, _rms(x, eps)) // max(n, 1))
    return (
        f"for {where}, row {r} differs from x / sqrt(mean(x * x) + eps): expected "
        f"{_rms(x, eps)[r, :3].tolist()}..., you wrote {out[r, :3].tolist()}..."
    )


def _rms_norm_checks(answer, passed) -> None:
    gen = _fresh_generator()
    with watched_interpreter() as watch:
        for x, eps, where, layout in _rms_norm_cases(gen):
            copy = x.clone()
            watch.stores.clear()
            out = _call(answer, (x, eps), "rms_norm", watch, where)
            _inputs_untouched({"x": x}, {"x": copy}, watch, "rms_norm", where)
            _shape_check(out, x, "rms_norm", where)
            if _agrees(out, _rms(copy, eps)):
                continue
            if layout is not None:
                raise CheckFailed(f"right on contiguous inputs, wrong when {layout}")
            raise CheckFailed(_rms_norm_diagnosis(out, copy, eps, watch, where))
        passed.append(
            "x / sqrt(mean(x * x) + eps) per row, for rows of 1, 65, 333, 1000, 1024 and an odd "
            "number of columns (fresh random inputs), through Triton's interpreter"
        )
        passed.append(
            "every load and store inside its tensors (masked), masked lanes not summed, every "
            "row written"
        )
        passed.append("eps inside the square root, as given; the input left unchanged")
        passed.append("non-contiguous inputs (a slice of a wider matrix, a transposed one)")


def check_rms_norm(answer, passed):
    """``rms_norm(x, eps)``: a row-wise Triton kernel on several shapes and layouts."""
    if not callable(answer):
        raise CheckFailed("pass the function itself: check('07.rms_norm', rms_norm)")
    _triton()
    _require_interpreter(answer)
    one_cpu_thread(_rms_norm_checks)(answer, passed)
