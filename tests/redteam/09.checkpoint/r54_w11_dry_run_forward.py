# expect: fail runs a dry forward under no_grad (inside fork_rng) before the checkpointed one: every block runs twice in the forward pass
# hint: once|twice|extra|more than once|forward call|forward pass|dry|no_grad
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    parts = [
        [blocks[int(k)] for k in part]
        for part in torch.tensor_split(torch.arange(len(blocks)), segments)
    ]
    # a cheap dry run (no graph, no RNG consumed) to check the segments chain up
    with torch.no_grad(), torch.random.fork_rng(devices=[]):
        probe = x
        for mods in parts:
            probe = _run(mods, probe)
    assert probe.shape[0] == x.shape[0]
    h = x
    for mods in parts:
        h = checkpoint(functools.partial(_run, mods), h, use_reentrant=False)
    return h


answer = checkpointed_forward
