# expect: fail caches the device list on the first call and reuses it on later calls
# hint: once|cache|stale|first call|second call|each (time|call)|every call|reuse|changed|remember
# Wrong: the first call's answer is right, but the devices are kept in a global and never asked
# again, so later calls on a machine that reports a different number of GPUs get the old list.
import d2lgpu

_devices = None


def place_workers(n_workers):
    global _devices
    if _devices is None:  # "querying CUDA is slow, do it once"
        _devices = d2lgpu.try_all_gpus()
    return [_devices[i % len(_devices)] for i in range(n_workers)]


answer = place_workers
