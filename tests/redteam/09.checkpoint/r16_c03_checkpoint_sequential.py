# expect: pass torch's checkpoint_sequential with use_reentrant=False
# hint: 
from torch.utils.checkpoint import checkpoint_sequential


def answer(blocks, x, segments):
    return checkpoint_sequential(blocks, segments, x, use_reentrant=False)
