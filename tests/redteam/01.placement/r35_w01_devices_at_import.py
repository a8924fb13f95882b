# expect: fail Asks for the devices once, at import time, outside the function, so a machine whose GPUs change after import (as the checker makes it) gets the old list.
# hint: inside|each time|every call|import|once|cache
# name: place_workers
import d2lgpu

DEVICES = d2lgpu.try_all_gpus()  # asked once: the machine will not change


def place_workers(n_workers):
    return [DEVICES[i % len(DEVICES)] for i in range(n_workers)]


answer = place_workers
