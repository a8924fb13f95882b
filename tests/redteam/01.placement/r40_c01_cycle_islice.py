# expect: pass d2lgpu.try_all_gpus() asked inside the call, itertools.cycle + islice, returns a list
# hint: 
# name: place_workers
from itertools import cycle, islice

import d2lgpu


def place_workers(n_workers):
    return list(islice(cycle(d2lgpu.try_all_gpus()), n_workers))
