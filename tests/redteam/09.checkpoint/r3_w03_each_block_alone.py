# expect: fail every block checkpointed alone
# hint: \[1, 1, 1, 1, 1, 1, 1, 1\]
from torch.utils.checkpoint import checkpoint
def answer(blocks, x, segments):
    for b in blocks:
        x = checkpoint(b, x, use_reentrant=False)
    return x
