# expect: fail round-robin starting from the last GPU
# hint: round-robin
import d2lgpu
def answer(n_workers):
    devs = d2lgpu.try_all_gpus()[::-1]
    return [devs[i % len(devs)] for i in range(n_workers)]
