# expect: pass checkpoint_sequential with use_reentrant=False on an nn.Sequential
# hint: 
from torch import nn
from torch.utils.checkpoint import checkpoint_sequential
def answer(blocks, x, segments):
    return checkpoint_sequential(nn.Sequential(*blocks), segments, x, use_reentrant=False)
