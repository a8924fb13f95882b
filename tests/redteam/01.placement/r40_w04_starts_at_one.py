# expect: fail starts the round-robin at worker 1 (i from 1), so two GPUs give cuda:1, cuda:0, ...
# hint: (order|start|first|cuda:0|off.?by|round.?robin|table)
# name: place_workers
import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    return [devices[i % len(devices)] for i in range(1, n_workers + 1)]
