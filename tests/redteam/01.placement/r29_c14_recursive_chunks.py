# expect: pass recursion: the first len(devices) workers take the devices in order, the rest recurse
# hint: 
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()  # asked once per call; the recursion reuses it

    def deal(remaining):
        if remaining <= len(devices):
            return list(devices[:remaining])
        return devices + deal(remaining - len(devices))

    return deal(n_workers)


answer = place_workers
