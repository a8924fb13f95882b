# expect: fail asks which devices exist once, at import, outside the function, so a change in the GPU count is never seen
# hint: inside|each (time|call)|every call|once|outside|cache|changed|GPU count|num_gpus|try_all_gpus
import d2lgpu

_DEVICES = d2lgpu.try_all_gpus()


def place_workers(n_workers):
    return [_DEVICES[i % len(_DEVICES)] for i in range(n_workers)]


answer = place_workers
