# expect: fail Numbers the workers from 1, so with several GPUs the first worker goes to cuda:1 and the order is shifted by one from the table's.
# hint: order|cuda:0|first|start|off.by.one|round.?robin
# name: place_workers
import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    return [devices[worker % len(devices)] for worker in range(1, n_workers + 1)]


answer = place_workers
