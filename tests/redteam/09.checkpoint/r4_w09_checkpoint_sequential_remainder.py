# expect: fail checkpoint_sequential sizes its segments len // segments and gives the remainder to the last one (11 blocks in 4: 2, 2, 2, 5), longer than ceil(len / segments)
# hint: ceil|longer|at most|remainder|sizes?|uneven|differ
from torch.utils.checkpoint import checkpoint_sequential
def answer(blocks, x, segments):
    return checkpoint_sequential(blocks, segments, x, use_reentrant=False)
