# expect: fail returns device strings like "cuda:0", not torch.device objects
# hint: torch\.device|str\b|string|type|isinstance
import d2lgpu
import torch


def place_workers(n_workers):
    """Round-robin over try_all_gpus(), as names ready for .to()."""
    names = [str(d) for d in d2lgpu.try_all_gpus()]
    return [names[i % len(names)] for i in range(n_workers)]


answer = place_workers
