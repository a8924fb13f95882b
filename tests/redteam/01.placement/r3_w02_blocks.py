# expect: fail contiguous blocks of workers per device instead of round-robin
# hint: round-robin
import d2lgpu
def answer(n_workers):
    devs = d2lgpu.try_all_gpus()
    per = -(-n_workers // len(devs)) if n_workers else 1
    return [devs[i // per] for i in range(n_workers)]
