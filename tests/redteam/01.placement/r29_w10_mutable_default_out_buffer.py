# expect: fail the result list is a mutable default argument reused as an output buffer: every call clears and refills the same list, so a list returned earlier changes under the caller when place_workers is called again (e.g. with another worker count or GPU count).
# hint: (same list|shared list|mutable default|default argument|alias|previous(ly)? returned|returned earlier|between calls|changes? after|fresh list|new list)
import d2lgpu


def place_workers(n_workers, _out=[]):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    _out.clear()  # reuse the buffer instead of allocating a new list each call
    for i in range(n_workers):
        _out.append(devices[i % len(devices)])
    return _out


answer = place_workers
