# expect: fail shares the workers out in contiguous blocks (0,0,0,1,1) instead of round-robin order
# hint: order|round.?robin|in turn|alternat|cuda:1|table
import d2lgpu


def place_workers(n_workers):
    devs = d2lgpu.try_all_gpus()
    per = -(-n_workers // len(devs))
    return [devs[i // per] for i in range(n_workers)]


answer = place_workers
