# expect: pass frozen dataclass segment objects from bounds n*i//segments (the longer segments come last: 10 in 3 is 3, 3, 4), built in a list comprehension; the last segment runs without a checkpoint
# hint: 
from dataclasses import dataclass

from torch import nn
from torch.utils.checkpoint import checkpoint


@dataclass(frozen=True)
class Run:
    part: tuple[nn.Module, ...]

    def __call__(self, h):
        for block in self.part:
            h = block(h)
        return h


def answer(blocks, x, segments):
    n = len(blocks)
    cuts = [n * i // segments for i in range(segments + 1)]
    runs = [Run(tuple(blocks[a:b])) for a, b in zip(cuts, cuts[1:])]
    h = x
    for run in runs[:-1]:
        h = checkpoint(run, h, use_reentrant=False, preserve_rng_state=True)
    return runs[-1](h)  # backward would recompute the last segment at once: keep it plain
