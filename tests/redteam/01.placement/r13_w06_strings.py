# expect: fail returns device names as strings ("cuda:0") instead of torch.device objects
# hint: torch\.device|type|str\b|string|not a device
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = [str(d) for d in d2lgpu.try_all_gpus()]
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
