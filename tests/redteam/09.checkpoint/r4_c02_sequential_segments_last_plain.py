# expect: pass
# hint: 
import numpy as np
from torch import nn
from torch.utils.checkpoint import checkpoint
def answer(blocks, x, segments):
    """Each segment an nn.Sequential of its blocks (numpy.array_split gives the index groups);
    the last segment runs without a checkpoint, as checkpoint_sequential does."""
    groups = [g for g in np.array_split(np.arange(len(blocks)), segments) if len(g)]
    seqs = [nn.Sequential(*(blocks[int(i)] for i in g)) for g in groups]
    h = x
    for seq in seqs[:-1]:
        h = checkpoint(seq, h, use_reentrant=False)
    return seqs[-1](h)
