# expect: fail shares workers out in contiguous blocks (cuda:0, cuda:0, cuda:0, cuda:1, cuda:1) instead of in turn
# hint: order|round.robin|in turn|interleav|block|contiguous|chunk|cuda:0, cuda:1
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    k = len(devices)
    # balanced: each device gets a contiguous run of workers
    return [devices[i * k // n_workers] for i in range(n_workers)]


answer = place_workers
