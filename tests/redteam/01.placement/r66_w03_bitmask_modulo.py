# expect: fail round-robin index computed with a bit mask (i & (n-1)): wrong for 3 or 6 GPUs
# hint: round.?robin|order|three|3 gpu|six|6 gpu|modulo|%|evenly|power of (two|2)|idle|unused|busy
# Wrong: i & (n - 1) equals i % n only when n is a power of two; with 3 GPUs cuda:2 never gets a
# worker and with 6 GPUs the order is wrong, so not every GPU is kept busy.
import torch

import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    mask = len(devices) - 1  # fast modulo
    return [devices[i & mask] for i in range(n_workers)]


answer = place_workers
