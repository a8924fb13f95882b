# expect: pass itertools.islice over itertools.cycle of try_all_gpus(), built fresh on every call
# hint:
from itertools import cycle, islice

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    return list(islice(cycle(d2lgpu.try_all_gpus()), n_workers))


answer = place_workers
