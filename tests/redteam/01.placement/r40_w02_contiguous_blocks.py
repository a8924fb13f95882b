# expect: fail gives each device a contiguous block of workers ([cuda:0, cuda:0, cuda:0, cuda:1, cuda:1]) instead of round-robin
# hint: (round.?robin|order|in turn|table|alternat|cuda:0, cuda:1)
# name: place_workers
import math

import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    per = math.ceil(n_workers / len(devices)) if n_workers else 1
    return [devices[i // per] for i in range(n_workers)]
