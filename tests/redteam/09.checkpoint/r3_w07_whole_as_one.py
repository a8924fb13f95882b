# expect: fail the whole model checkpointed as one segment
# hint: as one segment
from torch.utils.checkpoint import checkpoint
def answer(blocks, x, segments):
    def all_blocks(h):
        for b in blocks:
            h = b(h)
        return h
    return checkpoint(all_blocks, x, use_reentrant=False)
