"""The pretend GPU's tables of torch calls (:mod:`d2lgpu._device_watch`): which read a device
value on the host, which make a tensor, which copy into one, which move tensors between devices
on purpose, and which gradient autograd is handed for which tensor.

What it is not: the watch; :class:`d2lgpu._device_watch.DeviceWatch` looks calls up here.
"""

from __future__ import annotations

import torch

__all__ = ["READS", "FACTORIES", "COPIES", "NOT_MIXES", "flat", "no_numpy", "gpu"]
__all__ += ["handed_gradients"]

READS = {
    "item",
    "tolist",
    "numpy",
    "__float__",
    "__int__",
    "__bool__",
    "__index__",
    "__complex__",
    "__format__",
    "__repr__",
    "__str__",
    "__array__",
    "allclose",
    "equal",
    "is_nonzero",
    "nonzero",
    "argwhere",
    "masked_select",
    "unique",
    "unique_consecutive",
}
FACTORIES = {
    "tensor",
    "as_tensor",
    "asarray",
    "from_numpy",
    "eye",
    "zeros",
    "ones",
    "empty",
    "full",
    "arange",
    "range",
    "linspace",
    "logspace",
    "rand",
    "randn",
    "randint",
    "randperm",
    "scalar_tensor",
    "empty_strided",
}
COPIES = {"__setitem__", "copy_", "index_put_", "index_copy_", "masked_scatter_"}
# Calls that read a tensor's shape and place, not its values: on a copy still landing, no race
NO_VALUES = {"size", "dim", "numel", "stride", "storage_offset", "is_contiguous", "is_pinned",
             "element_size", "nelement", "ndimension", "__len__", "data_ptr", "get_device",
             "untyped_storage", "__hash__", "record_stream"}  # fmt: skip
# Views of a copy still landing: what they give lands with it
VIEWS = {"view", "view_as", "reshape", "reshape_as", "detach", "__getitem__", "flatten",
         "squeeze", "unsqueeze", "t", "transpose", "permute", "narrow", "select", "split",
         "chunk", "unbind", "tensor_split", "expand", "expand_as", "unflatten",
         "contiguous"}  # fmt: skip


def flat(values):
    for v in values:
        if isinstance(v, list | tuple):
            yield from flat(v)
        elif isinstance(v, dict):
            yield from flat(list(v.values()))
        else:
            yield v


# Functions through which tensors on several devices legitimately pass: a copy to a device,
# and autograd, which sends each gradient to its own tensor's device.
NOT_MIXES = {"to", "backward", "grad", "_make_grads", "_engine_run_backward"}


def no_numpy(device) -> TypeError:
    """The error torch raises for ``.numpy()`` of a tensor on ``device`` (a GPU)."""
    return TypeError(
        f"can't convert {device} device type tensor to numpy. Use Tensor.cpu() to copy the "
        "tensor to host memory first."
    )


def gpu(device) -> torch.device:
    """``device`` as a GPU with an index (``cuda`` alone is ``cuda:0``, the current one)."""
    device = torch.device(device)
    return torch.device(device.type, 0) if device.index is None else device


def handed_gradients(name: str, args, kwargs) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """``(tensor, gradient)``: each gradient handed to ``Tensor.backward(gradient)``,
    ``torch.autograd.backward(tensors, grad_tensors)`` or ``torch.autograd.grad(outputs,
    inputs, grad_outputs)``, with the tensor it is the gradient of. torch hands the tensors
    by position and the gradients by keyword, however the learner wrote the call."""
    if name not in ("backward", "grad") or not args:
        return []
    tensors = args[0]
    keys = ("gradient", "grad_tensors") if name == "backward" else ("grad_outputs",)
    grads = next((kwargs[k] for k in keys if kwargs.get(k) is not None), None)
    if grads is None:
        return []
    tensors = [tensors] if isinstance(tensors, torch.Tensor) else list(tensors)
    grads = [grads] if isinstance(grads, torch.Tensor) else list(grads)
    return [
        (t, g)
        for t, g in zip(tensors, grads, strict=False)
        if isinstance(t, torch.Tensor) and isinstance(g, torch.Tensor)
    ]
