# expect: fail shares workers out in contiguous blocks ([cuda:0, cuda:0, cuda:0, cuda:1, cuda:1]) instead of round-robin
# hint: order|round.?robin|in turn|alternat|interleav|block|contiguous|chunk|cuda:1.*cuda:0|cuda:0.*cuda:1
# Wrong: the split is as even as round-robin, but not in the order the table shows; identical to
# the right answer only with 0 or 1 GPU, or with n_workers equal to the GPU count.
import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    k = len(devices)
    return [devices[i * k // n_workers] for i in range(n_workers)]


answer = place_workers
