# expect: pass a while loop over the blocks, each segment an nn.Sequential of the same modules passed straight to checkpoint as the function; divmod sizes, the extra blocks first (4, 3, 3), determinism_check spelled out
# hint: 
from torch import nn
from torch.utils.checkpoint import checkpoint


def answer(blocks, x, segments):
    size, extra = divmod(len(blocks), segments)
    h, start, s = x, 0, 0
    while start < len(blocks):
        stop = start + size + (s < extra)
        segment = nn.Sequential(*blocks[start:stop])  # holds the same modules, no copy
        h = checkpoint(segment, h, use_reentrant=False, determinism_check="default")
        start, s = stop, s + 1
    return h
