# expect: fail round-robin shifted by one: the first worker gets cuda:1, not cuda:0
# hint: round.?robin|order|start|first (worker|device)|offset|begin|shift|cuda:0 first|table
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    # worker 1 on device 1, worker 2 on device 2, ... (counting workers from 1)
    return [devices[(worker + 1) % len(devices)] for worker in range(n_workers)]


answer = place_workers
