# expect: fail steps of ceil(N/S) blocks: 9 blocks in 4 gives only 3 segments
# hint: ceil|fewer|number of segments|segment count|how many segments|exactly|tensor_split
import math

from torch.utils.checkpoint import checkpoint


class _Segment:
    def __init__(self, blocks):
        self.blocks = blocks

    def __call__(self, h):
        for block in self.blocks:
            h = block(h)
        return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    size = math.ceil(len(blocks) / segments)  # no segment longer than this
    h = x
    for start in range(0, len(blocks), size):
        h = checkpoint(_Segment(blocks[start : start + size]), h, use_reentrant=False)
    return h


answer = checkpointed_forward
