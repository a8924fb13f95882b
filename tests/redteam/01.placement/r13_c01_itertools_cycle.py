# expect: pass itertools.cycle + islice over try_all_gpus()
# hint: 
import itertools

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    return list(itertools.islice(itertools.cycle(d2lgpu.try_all_gpus()), n_workers))


answer = place_workers
