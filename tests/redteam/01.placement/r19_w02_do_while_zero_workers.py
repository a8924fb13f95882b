# expect: fail do-while loop places at least one worker, so place_workers(0) returns one device instead of []
# hint: zero workers|0 workers|no workers|n_workers\s*=\s*0|place_workers\(0\)|empty|\[\]
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    placement = []
    worker = 0
    while True:  # place a worker, then ask whether we are done
        placement.append(devices[worker % len(devices)])
        worker += 1
        if worker >= n_workers:
            break
    return placement


answer = place_workers
