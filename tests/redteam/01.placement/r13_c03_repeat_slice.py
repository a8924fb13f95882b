# expect: pass list repetition then slice, with a print of the placement
# hint: 
import math

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    repeats = math.ceil(n_workers / len(devices))
    placement = (devices * repeats)[:n_workers]
    print(f"{n_workers} workers on {len(devices)} device(s): {[str(d) for d in placement]}")
    return placement


answer = place_workers
