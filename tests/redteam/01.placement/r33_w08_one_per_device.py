# expect: fail returns at most one worker per device (min(n_workers, devices)), ignoring the requested n_workers length
# hint: n_workers|length|len|number of|how many|\d+ devices?
import d2lgpu


def place_workers(n_workers):
    devs = d2lgpu.try_all_gpus()
    return devs[:n_workers]


answer = place_workers
