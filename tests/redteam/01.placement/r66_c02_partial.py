# expect: pass
# hint:
# Right: a general dealer bound with functools.partial to the helper *function* (called each time,
# not its result), returning a tuple.
import functools

import torch

import d2lgpu


def deal(n_workers, *, list_devices):
    devices = list_devices()
    return tuple(devices[i % len(devices)] for i in range(n_workers))


answer = functools.partial(deal, list_devices=d2lgpu.try_all_gpus)
