"""The options of :func:`d2lgpu.scale.per_rank_bytes` beyond the plain plans, and their formulas.

What it is for: :mod:`d2lgpu.scale` measures one rank's memory; this module holds what
its options change in the model and the optimizer, and chapter 10's formulas for them.

* :func:`checkpoint_blocks` (``checkpoint=True``): each block of ``model.shard_units()``
  runs its forward under ``torch.utils.checkpoint`` (non-reentrant), so backward keeps
  only each block's input and computes the rest again;
* :class:`MasterAdam` (``precision="bf16"`` for ``"ddp"`` and ``"zero1"``): the model's
  parameters and gradients in bf16, the optimizer's fp32 master copy of each parameter
  and Adam's two fp32 moments in its ``state``, so the tracker files the masters as
  optimizer state; for the FSDP2 plans, ``MixedPrecisionPolicy`` does the same job
  (the fp32 sharded parameters are the masters, gathered in bf16 for compute);
* :func:`tensor_parallel` (plan ``"tp"``): Megatron-LM's split of a
  :class:`d2lgpu.llama.Decoder` with ``parallelize_module`` on the ``"tp"`` dimension of
  a 2-D ``DeviceMesh`` (queries, keys, values and the MLP's gate and up projections by
  columns, the attention's and the MLP's output projections by rows, the embedding and
  the output projection by vocabulary); FSDP2 then shards every tensor over ``"dp"``;
* :func:`state_formula`: the Ultra-Scale Playbook's bytes per parameter for each plan
  and precision; :func:`activation_formula`: the bytes one block of the decoder saves
  for backward, counted tensor by tensor.

What it is not: a training recipe. The bf16 optimizer has no loss scaling (bf16 needs
none) and no gradient clipping; the TP split keeps the norms whole on every rank.
"""

from __future__ import annotations

import torch
from torch import nn

from ._validate import check_int

__all__ = [
    "PRECISIONS",
    "MasterAdam",
    "activation_formula",
    "check_options",
    "checkpoint_blocks",
    "state_formula",
    "tensor_parallel",
    "to_bf16",
]

PRECISIONS = ("fp32", "bf16")

# Bytes per parameter (the Playbook's, chapter 10): parameter, gradient, optimizer state.
# bf16 keeps a 2-byte parameter and gradient, and 12 bytes of state: the fp32 master, 2 moments.
_PER_PARAM = {"fp32": (4, 4, 8), "bf16": (2, 2, 12)}


def check_options(plan, world_size, checkpoint, precision, tp) -> None:
    """Raise a clear error for an option ``per_rank_bytes`` cannot honour."""
    if not isinstance(checkpoint, bool):
        raise TypeError(f"checkpoint must be True or False, got {checkpoint!r}")
    if precision not in PRECISIONS:
        allowed = ", ".join(map(repr, PRECISIONS))
        raise ValueError(f"precision must be one of {allowed}, got {precision!r}")
    check_int("tp", tp, minimum=1)
    if plan != "tp" and tp != 1:
        raise ValueError(
            f"tp is the tensor-parallel degree of plan 'tp'; plan {plan!r} takes tp=1, got tp={tp}"
        )
    if plan == "tp" and (tp < 2 or world_size % tp):
        raise ValueError(
            f"plan 'tp' needs a degree tp >= 2 that divides world_size ({world_size}), got tp={tp}"
        )


def checkpoint_blocks(model: nn.Module) -> None:
    """Run each block's forward under ``torch.utils.checkpoint`` (non-reentrant), in place.

    The blocks are ``model.shard_units()``. The forward is replaced on the instance, so a
    wrapper's hooks (FSDP2's all-gather before forward and before backward) still run.
    """
    from torch.utils.checkpoint import checkpoint

    units = getattr(model, "shard_units", None)
    if not callable(units):
        raise ValueError(
            "checkpoint=True needs a model with a shard_units() method returning its blocks, "
            f"got {type(model).__name__}"
        )
    for block in units():
        block.forward = _checkpointed(checkpoint, block.forward)


def _checkpointed(checkpoint, forward):
    def run(*args):
        return checkpoint(forward, *args, use_reentrant=False)

    return run


def to_bf16(model: nn.Module) -> nn.Module:
    """``model`` with every parameter a new bf16 ``nn.Parameter``, in place.

    ``model.to(torch.bfloat16)`` would do it on real tensors; fake tensors refuse the
    parameter swap it makes, so each parameter is replaced by hand.
    """
    for module in model.modules():
        for name, p in list(module.named_parameters(recurse=False)):
            setattr(module, name, nn.Parameter(p.detach().to(torch.bfloat16), p.requires_grad))
    return model


class MasterAdam(torch.optim.Optimizer):
    """Adam on fp32 master copies of low-precision parameters (mixed-precision training).

    The step casts each gradient to fp32, updates the master and its two moments there,
    and copies the master back into the bf16 parameter. The masters and moments live in
    ``self.state``, so ``MemTracker`` files them as optimizer state (``Optstate``), as the
    Playbook counts them (12 bytes per parameter).
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8):
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps})

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:  # a step counter as torch's Adam keeps it (4 bytes), the master
                    state["step"] = torch.zeros((), dtype=torch.float32)
                    state["master"] = p.detach().to(torch.float32, copy=True)
                    state["exp_avg"] = torch.zeros_like(state["master"])
                    state["exp_avg_sq"] = torch.zeros_like(state["master"])
                    state["n"] = 0  # the same count as a Python int: no read of a tensor
                state["step"] += 1
                state["n"] += 1
                grad = p.grad.to(torch.float32)
                state["exp_avg"].lerp_(grad, 1 - beta1)
                state["exp_avg_sq"].mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                size = group["lr"] / (1 - beta1 ** state["n"])
                denom = (state["exp_avg_sq"] / (1 - beta2 ** state["n"])).sqrt_()
                state["master"].addcdiv_(state["exp_avg"], denom.add_(group["eps"]), value=-size)
                p.copy_(state["master"])


def tensor_parallel(model: nn.Module, mesh) -> None:
    """Split a :class:`d2lgpu.llama.Decoder` over the 1-D ``mesh`` with ``parallelize_module``."""
    from torch.distributed.tensor import Replicate
    from torch.distributed.tensor.parallel import (
        ColwiseParallel,
        RowwiseParallel,
        parallelize_module,
    )

    from .llama import Decoder

    if not isinstance(model, Decoder):
        raise TypeError(
            "plan 'tp' splits a d2lgpu.llama.Decoder's layers; model_fn must return one, "
            f"got {type(model).__name__}"
        )
    tp, c = mesh.size(), model.config
    if c.n_kv_heads % tp or c.ffn_dim % tp or c.vocab % tp:
        raise ValueError(
            f"tp={tp} must divide the model's key-value heads ({c.n_kv_heads}), MLP width "
            f"({c.ffn_dim}) and vocabulary ({c.vocab})"
        )
    columns, rows = ColwiseParallel(), RowwiseParallel()
    layer_plan = {"q": columns, "k": columns, "v": columns, "o": rows}
    layer_plan |= {"gate": columns, "up": columns, "down": rows}
    for block in model.layers:
        parallelize_module(block, mesh, layer_plan)
        block.heads, block.kv_heads = block.heads // tp, block.kv_heads // tp  # local heads
    # the embedding by vocabulary rows (its partial outputs all-reduced), the output
    # projection by vocabulary columns: each rank keeps its slice of the logits
    root_plan = {"embed": RowwiseParallel(input_layouts=Replicate()), "out": ColwiseParallel()}
    parallelize_module(model, mesh, root_plan)


def state_formula(n_params: int, plan: str, world_size: int, precision: str, tp: int) -> dict:
    """The Playbook's bytes per rank of parameters, gradients and optimizer state.

    DDP keeps everything; ZeRO-1 divides the optimizer state by the ranks; FSDP2 (ZeRO-3)
    divides all three; ``"tp"`` divides all three by ``tp`` and FSDP2 again by
    ``world_size / tp``, so by ``world_size``.
    """
    per = dict(zip(("params", "grads", "optimizer"), _PER_PARAM[precision], strict=True))
    sharded = {"ddp": (), "zero1": ("optimizer",)}.get(plan, ("params", "grads", "optimizer"))
    return {k: n_params * b / (world_size if k in sharded else 1) for k, b in per.items()}


def activation_formula(config, batch: int, *, checkpoint: bool = False, tp: int = 1) -> dict:
    """Bytes of fp32 activations the decoder keeps from forward for backward, counted by tensor.

    Per token, a block saves its input (``d``), the attention norm's ``x·r`` and output
    (``2d``) and its ``r`` (1), the queries, keys and values (``(d + 2 kv)/tp``), the
    attention's output (``d/tp``, already laid out so that flattening its heads is a view)
    and log-sum-exp (``heads/tp``), the residual sum (``d``), the MLP norm's ``2d + 1``,
    and the gate's and up projection's outputs, the SiLU and their product (``4 f/tp``).
    With ``checkpoint=True`` a block keeps only its input, ``d``, and computes the rest
    again in its backward (``recompute``: one block's full activations, alive then).
    The head keeps the last block's output, the final norm's ``2d + 1`` and the logits
    (``vocab/tp``). ``saved``: ``n_layers`` blocks and the head, at the end of forward.
    """
    d, heads, f = config.dim, config.n_heads, config.ffn_dim
    kv = config.n_kv_heads * (d // heads)
    full = d + 2 * d + 1 + (d + 2 * kv + d + heads) // tp + d + 2 * d + 1 + 4 * f // tp
    tokens, per = batch * config.seq_len, 4  # fp32
    block = per * tokens * (d if checkpoint else full)
    head = per * tokens * (3 * d + 1 + config.vocab // tp)
    return {
        "block": block,
        "head": head,
        "saved": config.n_layers * block + head,
        "recompute": per * tokens * full if checkpoint else 0,
    }
