# expect: fail rotates over the GPUs in reverse (last GPU first), not the table's cuda:0, cuda:1, ... order
# hint: order|first|cuda:0|round.?robin|table|reverse
import d2lgpu


def place_workers(n_workers):
    devs = list(reversed(d2lgpu.try_all_gpus()))
    return [devs[i % len(devs)] for i in range(n_workers)]


answer = place_workers
