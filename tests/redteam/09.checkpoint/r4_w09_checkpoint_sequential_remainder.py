# expect: pass checkpoint_sequential's own split (11 blocks in 4: 2, 2, 2 checkpointed, then 5 without a checkpoint): relabelled in round 4, as the prompt now says that checkpoint_sequential's last, unchecked segment may be longer than ceil(len(blocks) / segments)
# hint: 
from torch.utils.checkpoint import checkpoint_sequential
def answer(blocks, x, segments):
    return checkpoint_sequential(blocks, segments, x, use_reentrant=False)
