# expect: pass checkpoint_sequential(list(blocks), segments, x, use_reentrant=False) (the prompt: 'checkpoint_sequential's own split passes too')
# hint: 
from torch.utils.checkpoint import checkpoint_sequential
def answer(blocks, x, segments):
    return checkpoint_sequential(list(blocks), segments, x, use_reentrant=False)
