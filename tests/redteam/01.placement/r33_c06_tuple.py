# expect: pass a tuple of devices (relabelled: the prompt says a tuple works too, as r29_c15 was judged)
# hint: 
import d2lgpu


def place_workers(n_workers):
    devs = d2lgpu.try_all_gpus()
    return tuple(devs[i % len(devs)] for i in range(n_workers))


answer = place_workers
