# expect: fail numbers workers from 1, so the first worker goes to cuda:1 instead of cuda:0
# hint: order|first|start|offset|shift|off.by.one|worker 0|cuda:1.*cuda:0|round.?robin
# Wrong: with two GPUs this returns [cuda:1, cuda:0, cuda:1, cuda:0, cuda:1]; the table starts at
# cuda:0 (and with 5 workers on 2 GPUs, cuda:1 now gets the extra one). Right with 0 or 1 GPU.
import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    placement = []
    for worker in range(1, n_workers + 1):  # worker 1, worker 2, ...
        placement.append(devices[worker % len(devices)])
    return placement


answer = place_workers
