# expect: fail goes round-robin from the last GPU down (cuda:1, cuda:0, ...), not in the table's order starting at cuda:0
# hint: order|start|first (worker|device|gpu)|cuda:0|revers|backward|in turn
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    # start from the last GPU, so cuda:0 (which gathers the results) gets the fewest workers
    devices = d2lgpu.try_all_gpus()[::-1]
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
