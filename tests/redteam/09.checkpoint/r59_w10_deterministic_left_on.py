# expect: fail turns on torch.use_deterministic_algorithms(True) so that the recomputation matches the forward, and leaves this process-wide setting on
# hint: determinis|process.?wide|global|setting|changed|left|put back|restore
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    if n == 0:
        return x
    torch.use_deterministic_algorithms(True)  # recomputation must match the forward
    h = x
    for part in torch.tensor_split(torch.arange(n), min(segments, n)):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(segment, h, use_reentrant=False)
    return h


answer = checkpointed_forward
