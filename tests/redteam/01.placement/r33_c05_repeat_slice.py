# expect: pass repeat the device list enough times (ceil division) and slice to n_workers
# hint:
import d2lgpu


def place_workers(n_workers):
    devs = d2lgpu.try_all_gpus()
    reps = -(-n_workers // len(devs))  # ceil
    return (devs * reps)[:n_workers]


answer = place_workers
