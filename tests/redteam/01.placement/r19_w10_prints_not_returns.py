# expect: fail prints the placement and returns None
# hint: print|return|None
import d2lgpu


def place_workers(n_workers):
    """Print one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    placement = [devices[i % len(devices)] for i in range(n_workers)]
    print(placement)


answer = place_workers
