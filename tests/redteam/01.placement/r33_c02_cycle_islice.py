# expect: pass itertools.cycle + islice over try_all_gpus(), looked up at call time
# hint:
from itertools import cycle, islice

import d2lgpu


def place_workers(n_workers):
    return list(islice(cycle(d2lgpu.try_all_gpus()), n_workers))


answer = place_workers
