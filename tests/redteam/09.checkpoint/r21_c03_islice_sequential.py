# expect: pass one iterator over the blocks, each segment an nn.Sequential of the next `size` blocks taken with islice, all checkpointed
# hint: 
from itertools import islice

from torch import nn
from torch.utils.checkpoint import checkpoint


def answer(blocks, x, segments):
    stream = iter(blocks)
    n = len(blocks)
    h = x
    for s in range(segments):
        size = n // segments + (1 if s < n % segments else 0)  # 10 in 3: 4, 3, 3
        segment = nn.Sequential(*islice(stream, size))
        h = checkpoint(segment, h, use_reentrant=False)
    return h
