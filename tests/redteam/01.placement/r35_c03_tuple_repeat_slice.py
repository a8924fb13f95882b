# expect: pass Returns a tuple: the device list repeated enough times and sliced to n_workers, which is the same round-robin order.
# hint:
# name: place_workers
import d2lgpu


def place_workers(n_workers):
    pool = tuple(d2lgpu.devices.try_all_gpus())
    rounds = -(-n_workers // len(pool)) if n_workers > 0 else 0  # ceil division
    return (pool * rounds)[:n_workers]


answer = place_workers
