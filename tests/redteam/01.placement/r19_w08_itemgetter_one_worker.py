# expect: fail operator.itemgetter with one index returns a single device, not a tuple, so one worker (and zero workers) raise TypeError
# hint: one worker|single|n_workers\s*=\s*[01]|place_workers\([01]\)|zero|empty|TypeError|raise|error|itemgetter
import operator

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    pick = operator.itemgetter(*[i % len(devices) for i in range(n_workers)])
    return list(pick(devices))


answer = place_workers
