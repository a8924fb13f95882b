# expect: fail treats n_workers=0 as "one worker per device" and returns a non-empty list
# hint: zero|0 workers|n_workers\s*=\s*0|place_workers\(0\)|empty|length|len|how many|number of
# Wrong: the function must return n_workers devices, so place_workers(0) is []; here 0 silently
# becomes len(devices). Right for every n_workers >= 1.
import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    n_workers = n_workers or len(devices)  # 0: default to one worker per device
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
