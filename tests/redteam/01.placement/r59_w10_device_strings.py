# expect: fail returns device names as strings ("cuda:0", "cpu") instead of torch.device objects
# hint: torch\.device|str|string|type|not a device|name
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    names = [str(d) for d in d2lgpu.try_all_gpus()]
    return [names[i % len(names)] for i in range(n_workers)]


answer = place_workers
