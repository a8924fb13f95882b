# expect: pass textbook round-robin over try_all_gpus() with a list comprehension and modulo
# hint:
import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
