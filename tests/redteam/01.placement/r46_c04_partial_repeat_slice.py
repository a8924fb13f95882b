# expect: pass functools.partial over a generic helper; repeats the device list and slices it
# hint:
import functools

import torch

import d2lgpu


def _round_robin(n_workers, *, pool):
    devices = list(pool())  # a fresh list, asked at call time
    rounds = -(-n_workers // len(devices))  # ceil division, 0 for no workers
    return (devices * rounds)[:n_workers]


# the lambda looks d2lgpu.try_all_gpus up at call time, not when the partial is made
place_workers = functools.partial(_round_robin, pool=lambda: d2lgpu.try_all_gpus())

answer = place_workers
