"""A Llama-style decoder in plain torch, sized from 125M to 70B parameters, never materialized.

What it is for: chapter 11 plans runs of real model sizes. :class:`Decoder` is the Llama
architecture's shape (token embedding; ``n_layers`` blocks of RMSNorm, grouped-query
attention, RMSNorm, SwiGLU MLP; a final RMSNorm; an untied output projection), built on
the meta device or under ``FakeTensorMode`` so that a 70B model costs nothing here.
:data:`CONFIGS` holds the sizes, each from its published configuration:

* ``"7B"``: Llama 2 7B (Touvron et al. 2023, "Llama 2", Table 1 and the released
  ``config.json``): width 4096, 32 layers, 32 heads, MLP 11008, vocabulary 32000;
* ``"8B"`` and ``"70B"``: Llama 3 (Dubey et al. 2024, "The Llama 3 Herd of Models",
  Table 3): width 4096 / 8192, 32 / 80 layers, 32 / 64 heads, 8 key-value heads, MLP
  14336 / 28672, vocabulary 128256;
* ``"125M"`` and ``"1B"``: the same recipe at GPT-3 Small's width and depth (768, 12
  layers; Brown et al. 2020, Table 2.1) and at width 2048, 16 layers (Llama 3.2 1B's
  shape, MLP 8192), with Llama 2's vocabulary for the small one.

:func:`parameter_count` and :func:`flops_per_token` are the closed forms the chapter checks
against ``FlopCounterMode`` and the ``6 N`` rule. No rotary embedding: it adds no
parameters and a few element-wise FLOPs per token, which no planning number here needs.

What it is not: a model to train or load weights into; there is no tokenizer and no KV
cache.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

__all__ = [
    "CONFIGS",
    "Block",
    "Decoder",
    "DecoderConfig",
    "RMSNorm",
    "flops_per_token",
    "parameter_count",
]


@dataclass(frozen=True)
class DecoderConfig:
    dim: int
    n_layers: int
    n_heads: int
    n_kv_heads: int
    ffn_dim: int
    vocab: int
    seq_len: int = 2048


CONFIGS = {
    "125M": DecoderConfig(768, 12, 12, 12, 2048, 32000),
    "1B": DecoderConfig(2048, 16, 32, 8, 8192, 128256),
    "7B": DecoderConfig(4096, 32, 32, 32, 11008, 32000, 4096),
    "8B": DecoderConfig(4096, 32, 32, 8, 14336, 128256, 8192),
    "70B": DecoderConfig(8192, 80, 64, 8, 28672, 128256, 8192),
}


class RMSNorm(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * self.weight


class Block(nn.Module):
    """One decoder layer: pre-norm grouped-query attention, then pre-norm SwiGLU."""

    def __init__(self, c: DecoderConfig):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = c.n_heads, c.n_kv_heads, c.dim // c.n_heads
        kv = c.n_kv_heads * self.head_dim
        self.attn_norm, self.mlp_norm = RMSNorm(c.dim), RMSNorm(c.dim)
        self.q, self.k, self.v = (nn.Linear(c.dim, n, bias=False) for n in (c.dim, kv, kv))
        self.o = nn.Linear(c.dim, c.dim, bias=False)
        self.gate, self.up = (nn.Linear(c.dim, c.ffn_dim, bias=False) for _ in range(2))
        self.down = nn.Linear(c.ffn_dim, c.dim, bias=False)

    def forward(self, x):
        b, t, _ = x.shape
        h = self.attn_norm(x)
        q = self.q(h).view(b, t, self.heads, self.head_dim).transpose(1, 2)
        k = self.k(h).view(b, t, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.v(h).view(b, t, self.kv_heads, self.head_dim).transpose(1, 2)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        x = x + self.o(a.transpose(1, 2).reshape(b, t, -1))
        h = self.mlp_norm(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


class Decoder(nn.Module):
    """A Llama-style decoder of configuration ``config`` (a :class:`DecoderConfig` or a name)."""

    def __init__(self, config: DecoderConfig | str = "125M", *, batch: int = 1):
        super().__init__()
        if isinstance(config, str):
            if config not in CONFIGS:
                raise ValueError(f"config must be one of {', '.join(CONFIGS)}, got {config!r}")
            config = CONFIGS[config]
        if not isinstance(config, DecoderConfig):
            raise TypeError(f"config must be a DecoderConfig or a name, got {config!r}")
        if not isinstance(batch, int) or isinstance(batch, bool) or batch < 1:
            raise ValueError(f"batch must be an int >= 1 (sequences per step), got {batch!r}")
        self.config, self.batch = config, batch
        self.embed = nn.Embedding(config.vocab, config.dim)
        self.layers = nn.ModuleList(Block(config) for _ in range(config.n_layers))
        self.norm = RMSNorm(config.dim)
        self.out = nn.Linear(config.dim, config.vocab, bias=False)

    def forward(self, tokens):
        x = self.embed(tokens)
        for layer in self.layers:
            x = layer(x)
        return self.out(self.norm(x))

    def example_input(self):
        """One step's tokens: ``batch`` sequences of ``seq_len``, on the model's device."""
        c = self.config
        return torch.randint(c.vocab, (self.batch, c.seq_len), device=self.embed.weight.device)

    def shard_units(self):
        """What FSDP2 shards as one unit each: every block (the root takes the rest)."""
        return list(self.layers)


def parameter_count(config: DecoderConfig, *, embedding: bool = True) -> int:
    """Parameters of :class:`Decoder` (``embedding=False``: without the token embedding)."""
    d, kv = config.dim, config.n_kv_heads * (config.dim // config.n_heads)
    block = 2 * d * d + 2 * d * kv + 3 * d * config.ffn_dim + 2 * d
    total = config.n_layers * block + d + config.vocab * d  # final norm, output projection
    return total + (config.vocab * d if embedding else 0)


def flops_per_token(config: DecoderConfig, seq_len: int | None = None) -> dict[str, float]:
    """Training FLOPs per token (forward and backward), as ``FlopCounterMode`` counts them.

    ``matmul``: ``6 N`` for the ``N`` weights that multiply (every parameter but the
    embedding, a lookup, and the norms' gains, element-wise); ``attention``: the two
    products ``Q K^T`` and ``A V``, ``4 t d`` per layer forward at context ``t``, times 3
    (``FlopCounterMode`` counts the causal mask's skipped half too).
    """
    t = config.seq_len if seq_len is None else seq_len
    d = config.dim
    weights = parameter_count(config, embedding=False) - (2 * config.n_layers + 1) * d
    return {"matmul": 6.0 * weights, "attention": 3.0 * 4 * t * d * config.n_layers}
