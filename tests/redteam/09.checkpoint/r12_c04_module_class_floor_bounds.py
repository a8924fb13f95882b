# expect: pass
# hint:
# name: checkpointed_forward
from torch import nn
from torch.utils.checkpoint import checkpoint


class _Segment(nn.Module):
    def __init__(self, modules):
        super().__init__()
        self.parts = nn.ModuleList(modules)

    def forward(self, h):
        for part in self.parts:
            h = part(h)
        return h


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    # boundaries k * n // segments: sizes that differ by at most one (10 in 3: 3, 3, 4)
    edges = [k * n // segments for k in range(segments + 1)]
    h = x
    for lo, hi in zip(edges, edges[1:]):
        h = checkpoint(_Segment(blocks[lo:hi]), h, use_reentrant=False)
    return h
