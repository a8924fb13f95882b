# expect: fail returns the same cached list object every call, so a caller that edits it changes what later calls return
# hint: same (list|object)|shared|mutat|copy|fresh|new list|aliased|modif
import d2lgpu

_memo = {}


def place_workers(n_workers):
    """Round-robin over try_all_gpus(), memoised per (n_workers, devices) to save the work."""
    devices = d2lgpu.try_all_gpus()
    key = (n_workers, tuple(devices))
    if key not in _memo:
        _memo[key] = [devices[i % len(devices)] for i in range(n_workers)]
    return _memo[key]  # the very list handed out last time, not a copy


answer = place_workers
