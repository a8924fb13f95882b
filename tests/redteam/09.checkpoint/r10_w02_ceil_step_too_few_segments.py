# expect: fail steps of ceil(n/segments) blocks give fewer segments than asked (9 in 4: 3,3,3)
# hint: (segment|number|count|exactly|fewer|ceil|tensor_split)
import math

from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    step = math.ceil(len(blocks) / segments)
    h = x
    for start in range(0, len(blocks), step):
        chunk = blocks[start : start + step]

        def run(h, chunk=chunk):
            for block in chunk:
                h = block(h)
            return h

        h = checkpoint(run, h, use_reentrant=False)
    return h


answer = checkpointed_forward
