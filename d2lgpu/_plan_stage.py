"""What one rank of a parallel plan holds and computes: a tensor-parallel shard of a pipeline stage.

What it is for: :mod:`d2lgpu.plan` sizes a plan's memory per rank by measuring it, and
this is what it measures. :class:`RankStage` is the part of a :class:`d2lgpu.llama.Decoder`
that one rank runs when the model is cut into ``pp`` pipeline stages of ``n_layers / pp``
blocks and each block into ``tp`` tensor-parallel shards (Megatron-LM's split, Shoeybi et
al. 2019): the rank keeps ``n_heads / tp`` query heads and ``n_kv_heads / tp`` key-value
heads, ``ffn_dim / tp`` of the MLP, the norms whole, and on the first stage a vocabulary
slice of the embedding, on the last a vocabulary slice of the output projection. Its
parameters are that rank's parameters, byte for byte; its forward computes what the rank
computes between two collectives. The all-reduces that join the shards (after the
attention's and the MLP's output projections) are left out: they work in place and add
no memory.

* :func:`state_bytes`: the rank's parameters, gradients and Adam's state under ``"ddp"``,
  ``"zero1"`` or ``"fsdp2"`` over the data-parallel ranks, measured by
  :func:`d2lgpu.scale.per_rank_bytes` (the fake process group and PyTorch's tracker) on
  the stage cut to 1 and 2 blocks and scaled to the stage's blocks: every block is the
  same, so each count grows by the same bytes per block. ZeRO-1 deals whole tensors and
  does not scale so: its state is read from ``ZeroRedundancyOptimizer``'s partition of
  the whole stage (:func:`d2lgpu.scale.zero1_state_bytes`).
* :func:`shapes`, :func:`state_formula`: the same state counted from the tensors' shapes
  (what the search of :mod:`d2lgpu.plan` uses); :func:`transient`: the bytes a step holds
  besides state and activations (Adam's temporaries, FSDP2's gathered parameters), a
  formula fitted to the tracker, since a single tensor sets them, not the depth;
* :func:`activation_peak`: the peak of what one micro-batch's forward and backward
  allocate on top of parameters and gradients (saved activations, the loss's logits,
  temporaries), measured by ``MemTracker`` under ``FakeTensorMode`` on a stage cut to
  ``blocks`` blocks; :mod:`d2lgpu.plan` scales it from 1 and 2 blocks the same way.

What it is not: a model to train (no rotary embedding, no collectives), nor a measure of
a GPU's allocator: the kernels are the CPU's, under fake tensors.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import warnings

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.checkpoint import checkpoint

from ._disk_cache import disk_cached
from ._fake_dist import memory_tracker
from .llama import DecoderConfig, RMSNorm
from .scale import per_rank_bytes, zero1_state_bytes

__all__ = [
    "RankStage",
    "activation_peak",
    "shapes",
    "state_bytes",
    "state_formula",
    "transient",
]


class ShardBlock(nn.Module):
    """One decoder block as one of ``tp`` tensor-parallel ranks holds it."""

    def __init__(self, c: DecoderConfig, tp: int):
        super().__init__()
        self.head_dim = c.dim // c.n_heads
        self.heads, self.kv_heads = c.n_heads // tp, c.n_kv_heads // tp
        q, kv = self.heads * self.head_dim, self.kv_heads * self.head_dim
        self.attn_norm, self.mlp_norm = RMSNorm(c.dim), RMSNorm(c.dim)
        self.q = nn.Linear(c.dim, q, bias=False)
        self.k, self.v = (nn.Linear(c.dim, kv, bias=False) for _ in range(2))
        self.o = nn.Linear(q, c.dim, bias=False)
        self.gate, self.up = (nn.Linear(c.dim, c.ffn_dim // tp, bias=False) for _ in range(2))
        self.down = nn.Linear(c.ffn_dim // tp, c.dim, bias=False)

    def forward(self, x):
        b, t, _ = x.shape
        h = self.attn_norm(x)
        q = self.q(h).view(b, t, self.heads, self.head_dim).transpose(1, 2)
        k = self.k(h).view(b, t, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.v(h).view(b, t, self.kv_heads, self.head_dim).transpose(1, 2)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        x = x + self.o(a.transpose(1, 2).reshape(b, t, -1))  # then an all-reduce over tp
        h = self.mlp_norm(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))  # then an all-reduce over tp


class RankStage(nn.Module):
    """Pipeline stage ``stage`` of ``pp`` (``blocks`` of them), tensor shard of ``tp``.

    ``batch`` sequences of ``config.seq_len`` per micro-batch; ``checkpointing`` recomputes
    each block in backward (``torch.utils.checkpoint``, non-reentrant).
    """

    def __init__(self, config, tp, stage, pp, blocks, batch=1, checkpointing=False):
        super().__init__()
        self.config, self.batch, self.checkpointing = config, batch, checkpointing
        self.first, self.last = stage == 0, stage == pp - 1
        vocab = config.vocab // tp
        self.embed = nn.Embedding(vocab, config.dim) if self.first else None
        self.layers = nn.ModuleList(ShardBlock(config, tp) for _ in range(blocks))
        self.norm = RMSNorm(config.dim) if self.last else None
        self.out = nn.Linear(config.dim, vocab, bias=False) if self.last else None
        self.vocab = vocab
        self.embedding_gradient = True  # False: backward stops at the embedding's output

    def forward(self, x):
        if self.embed is not None and self.embedding_gradient:
            x = self.embed(x)
        elif self.embed is not None:  # a leaf: its gradient is computed, the table's is not
            x = self.embed(x).detach().requires_grad_()
        for layer in self.layers:
            x = checkpoint(layer, x, use_reentrant=False) if self.checkpointing else layer(x)
        return self.out(self.norm(x)) if self.out is not None else x

    def _device(self):
        return next(self.parameters()).device

    def example_input(self):
        """This stage's input: token ids on the first stage, else the previous stage's output."""
        c, device = self.config, self._device()
        if self.first:
            return torch.randint(self.vocab, (self.batch, c.seq_len), device=device)
        return torch.randn(self.batch, c.seq_len, c.dim, device=device, requires_grad=True)

    def loss(self, out):
        """Cross-entropy over this rank's vocabulary slice on the last stage, else a sum."""
        if self.out is None:
            return out.sum()
        targets = torch.randint(self.vocab, out.shape[:2], device=out.device)
        return F.cross_entropy(out.flatten(0, 1), targets.flatten())

    def shard_units(self):
        """FSDP2's units: every block (the root takes the embedding, norm and output)."""
        return list(self.layers)


def _block_shapes(config: DecoderConfig, tp: int) -> list[tuple[int, ...]]:
    """The parameter shapes of one tensor-parallel shard of a block, in the module's order."""
    d, hd = config.dim, config.dim // config.n_heads
    q, kv, f = config.n_heads // tp * hd, config.n_kv_heads // tp * hd, config.ffn_dim // tp
    return [(d,), (d,), (q, d), (kv, d), (kv, d), (d, q), (f, d), (f, d), (d, f)]


def shapes(config: DecoderConfig, tp: int, stage: int, pp: int) -> list[tuple[int, ...]]:
    """The parameter shapes of :class:`RankStage`, in its order."""
    d = config.dim
    found: list[tuple[int, ...]] = [(config.vocab // tp, d)] if stage == 0 else []
    found += _block_shapes(config, tp) * (config.n_layers // pp)
    return found + ([(d,), (config.vocab // tp, d)] if stage == pp - 1 else [])


def state_formula(config, tp, stage, pp, sharding, dp) -> dict[str, int]:
    """Parameters, gradients and Adam's state from the shapes, as the tracker counts them."""
    sizes = [math.prod(s) for s in shapes(config, tp, stage, pp)]
    total = sum(sizes)
    if sharding == "fsdp2":  # dimension 0 cut in ceil(rows / dp), padded
        local = sum(math.ceil(s[0] / dp) * math.prod(s[1:]) for s in shapes(config, tp, stage, pp))
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(sizes)}
    state = 8 * total + 4 * len(sizes)
    if sharding == "zero1":  # whole tensors, largest first, to the least-loaded rank
        held, owned = [0] * dp, [[0, 0] for _ in range(dp)]
        for numel in sorted(sizes, reverse=True):
            rank = held.index(min(held))
            held[rank] += numel
            owned[rank][0] += numel
            owned[rank][1] += 1
        state = max(8 * n + 4 * count for n, count in owned)
    return {"params": 4 * total, "grads": 4 * total, "optimizer": state}


def transient(config, tp, stage, pp, sharding, dp) -> int:
    """Bytes a step holds besides state and activations: Adam's temporaries, FSDP2's gathers."""
    d, vocab = config.dim, config.vocab // tp
    if sharding != "fsdp2":  # two temporaries of the largest tensor's size in Adam's step
        return 8 * max(math.prod(s) for s in shapes(config, tp, stage, pp))
    root = (vocab * d if stage == 0 else 0) + (d + vocab * d if stage == pp - 1 else 0)
    block = sum(math.prod(s) for s in _block_shapes(config, tp))
    return 8 * (root + block)  # unsharded, and in the all-gather's buffer: root and one block


def _scaled(at_one: int, at_two: int, blocks: int) -> int:
    """A count that grows by the same bytes per block, from its values at 1 and 2 blocks."""
    return at_one + (blocks - 1) * (at_two - at_one)


# what the tracker measured, read back by the next Python too (:mod:`._disk_cache`)
_MEASURED_BY = ("_plan_stage.py", "_fake_dist.py", "llama.py", "scale.py", "_scale_plans.py")


@functools.cache
@disk_cached(*_MEASURED_BY)
def state_bytes(
    config: DecoderConfig, tp: int, stage: int, pp: int, shard: str, dp: int
) -> dict[str, int]:
    """Parameters, gradients and Adam's state (bytes) of the rank's stage, ``shard`` over ``dp``."""
    blocks = config.n_layers // pp
    seq = dataclasses.replace(config, seq_len=8)  # what is kept does not depend on the context
    measured = [
        per_rank_bytes(lambda k=k: RankStage(seq, tp, stage, pp, k), shard, dp) for k in (1, 2)
    ]
    one, two = measured
    got = {kind: _scaled(one[kind], two[kind], blocks) for kind in ("params", "grads", "optimizer")}
    got["peak"] = _scaled(one["peak"], two["peak"], blocks)
    if shard == "zero1":
        got["optimizer"] = max(
            zero1_state_bytes(lambda: RankStage(seq, tp, stage, pp, blocks), dp)
        )  # the rank that holds the most
    return got


@functools.cache
@disk_cached(*_MEASURED_BY)
def activation_peak(config, tp, stage, pp, blocks, batch, checkpointing) -> int:
    """The tracker's peak over a forward and backward, less parameters and gradients.

    The gradients are made (zeros) before the step, so the peak holds them all from its
    start, as under gradient accumulation or in DDP's buckets: the peak less parameters
    and gradients is then the activations' peak, wherever in the step it falls. The
    embedding is frozen: its gradient is a dense temporary of the whole table, made at the
    very end of backward when the activations are gone, which :mod:`d2lgpu.plan` counts
    with Adam's temporaries (no larger than them) instead: backward computes the gradient
    of the embedding's output and stops there.
    """
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        model = RankStage(config, tp, stage, pp, blocks, batch, checkpointing)
        model.embedding_gradient = False
        for p in model.parameters():
            p.grad = torch.zeros_like(p)
        optimizer = torch.optim.SGD(model.parameters())  # no state: a handle for the tracker
        tracker = memory_tracker(model, optimizer, fsdp=False)
        with tracker, warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*use_reentrant.*")
            model.loss(model(model.example_input())).backward()
        peak = tracker.get_tracker_snapshot("peak")
        total = int(next(iter(peak.values()))["Total"]) if peak else 0
        kept = sum(2 * p.numel() * p.element_size() for p in model.parameters())
    return total - kept
