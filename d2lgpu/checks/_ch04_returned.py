"""The 04.amp checker's reading of what ``train_amp`` returned: the per-step losses, one
tensor as ``train_fp32`` returns it (float32, detached, on the model's device), one loss per
batch of this call."""

from __future__ import annotations

import torch

from ._ch04_watch import STEPS
from ._util import CheckFailed

__all__ = ["check_returned", "losses_of"]


def losses_of(value, name):
    """The losses ``value`` holds, as float32 on the CPU, one per batch; else a hint."""
    if isinstance(value, torch.Tensor) and value.dtype in (torch.float16, torch.bfloat16):
        raise CheckFailed(
            f"{name} returned {value.dtype} losses: compute the loss inside autocast too "
            "(autocast runs cross_entropy in float32), as well as net(X)"
        )
    try:
        losses = (
            torch.as_tensor([float(v) for v in value])
            if not isinstance(value, torch.Tensor)
            else value.detach().float().cpu().reshape(-1)
        )
    except (TypeError, ValueError):
        raise CheckFailed(
            f"{name} returned a {type(value).__name__}: return the per-step losses, like "
            "train_fp32 (torch.stack of loss.detach())"
        ) from None
    if losses.numel() != STEPS:
        kept = losses.numel() > STEPS and losses.numel() % STEPS == 0
        raise CheckFailed(
            f"{name} returned {losses.numel()} losses for {STEPS} batches: one per step"
            + f", but as many as {losses.numel() // STEPS} calls make: the list of losses "
            "outlives the call and still holds the earlier calls' losses (a default argument "
            "losses=[], or a list made outside the function); start a new list in every call" * kept
        )
    return losses


def check_returned(seen, device, name):
    """The losses come back as train_fp32 returns them: one tensor, detached, on the device."""
    value = seen["returned"]
    if not isinstance(value, torch.Tensor):
        raise CheckFailed(
            f"with {name}, train_amp returned a {type(value).__name__}, not a tensor: return the "
            "losses as train_fp32 does, losses.append(loss.detach()) in the loop and "
            "torch.stack(losses) at the end (a tensor on the device)"
        )
    if value.requires_grad:
        raise CheckFailed(
            f"with {name}, the losses train_amp returned still require grad: each keeps its "
            "step's autograd graph alive. Keep loss.detach(), losses.append(loss.detach())"
        )
    moved = seen["calls"].moved_to_host(value)
    if moved or value.device.type != device.type:
        where = "to the host (.cpu())" if moved else f"to {value.device} (the model is on {device})"
        raise CheckFailed(
            f"with {name}, train_amp moved the losses {where}: return them on the device, "
            "torch.stack(losses) as train_fp32 does; whoever needs them on the host copies "
            "them once, when it needs them"
        )
