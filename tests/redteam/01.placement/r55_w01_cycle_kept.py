# expect: fail a module-level round-robin cycle survives between calls, so a second call with the same GPUs starts mid-cycle
# hint: state|between calls|each call|second call|call(ed)? (it )?again|repeat|previous|earlier|same (answer|result)
import itertools

import d2lgpu

_cycle = None
_cycle_devices = None


def place_workers(n_workers):
    """Round-robin over d2lgpu.try_all_gpus(); the cycle is rebuilt only when the GPUs change."""
    global _cycle, _cycle_devices
    devices = d2lgpu.try_all_gpus()  # asked on every call, as the prompt says
    if devices != _cycle_devices:  # new machine layout: start a fresh cycle
        _cycle_devices = devices
        _cycle = itertools.cycle(devices)
    # ...but the same layout keeps handing out devices where the last call stopped
    return [next(_cycle) for _ in range(n_workers)]


answer = place_workers
