# expect: fail reseeds the global generator with torch.manual_seed at the start of every segment so that the recomputation repeats its dropout masks, which changes the caller's random state and draws other masks than a plain forward
# hint: seed|rng|random|generator|state
# name: checkpointed_forward
import torch
from torch.utils.checkpoint import checkpoint


class _Seeded:
    def __init__(self, mods, seed):
        self.mods, self.seed = list(mods), seed

    def __call__(self, h):
        torch.manual_seed(self.seed)  # the forward and its recomputation draw alike
        for m in self.mods:
            h = m(h)
        return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    h = x
    for s, part in enumerate(torch.tensor_split(torch.arange(len(blocks)), segments)):
        segment = _Seeded(blocks[int(part[0]) : int(part[-1]) + 1], seed=1000 + s)
        h = checkpoint(segment, h, use_reentrant=False, preserve_rng_state=False)
    return h
