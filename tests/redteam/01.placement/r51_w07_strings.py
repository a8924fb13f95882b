# expect: fail returns device names as strings ("cuda:0"), not torch.device objects
# hint: torch\.device|\bstr\b|string|type
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one device per worker, round-robin over d2lgpu.try_all_gpus()."""
    names = [str(d) for d in d2lgpu.try_all_gpus()]  # strings are what .to() accepts anyway
    return [names[i % len(names)] for i in range(n_workers)]


answer = place_workers
