# expect: pass returns a tuple built by repeating the device list enough times and slicing to n_workers
# hint:
import d2lgpu


def place_workers(n_workers):
    devices = tuple(d2lgpu.try_all_gpus())
    rounds = -(-n_workers // len(devices))  # ceiling division
    return (devices * rounds)[:n_workers]


answer = place_workers
