# expect: fail returns at most one worker per device (min(n_workers, devices)) instead of n_workers devices
# hint: (length|len|n_workers|number|count|one (device )?per worker|how many|too few|share)
# name: place_workers
import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    return devices[:n_workers]  # one worker per device
