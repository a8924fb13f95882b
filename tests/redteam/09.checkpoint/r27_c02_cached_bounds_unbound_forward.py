# expect: pass floor bounds i * n // segments from a functools.cache'd pure function of (n, segments) (sizes differ by at most one, none above the ceiling); each segment is checkpoint(nn.Sequential.forward, segment_module, h, use_reentrant=False), the module passed as an argument, so nothing is bound late
# hint: 
# name: checkpointed_forward
import functools

from torch import nn
from torch.utils.checkpoint import checkpoint


@functools.cache
def _bounds(n, segments):
    """Start of each segment, and the end: floor(i * n / segments)."""
    return tuple(i * n // segments for i in range(segments + 1))


def checkpointed_forward(blocks, x, segments):
    edges = _bounds(len(blocks), segments)
    h = x
    for start, stop in zip(edges, edges[1:]):
        if start == stop:
            continue
        part = nn.Sequential(*blocks[start:stop])
        h = checkpoint(nn.Sequential.forward, part, h, use_reentrant=False)
    return h
