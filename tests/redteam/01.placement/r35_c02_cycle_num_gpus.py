# expect: pass Asks num_gpus() once per call and builds the devices with gpu(i) / cpu(), handing them out with itertools.cycle and islice.
# hint:
# name: place_workers
from itertools import cycle, islice

from d2lgpu import devices as dev


def place_workers(n_workers):
    count = dev.num_gpus()
    pool = [dev.gpu(i) for i in range(count)] or [dev.cpu()]
    return list(islice(cycle(pool), n_workers))


answer = place_workers
