# expect: fail asks for the devices once, at import time, not inside the function on each call
# hint: once|import|cache|stale|each (time|call)|every call|inside the function|outside|module.level|changed
# Wrong: the prompt says to ask which devices the machine has inside the function, each time it is
# called; this list is frozen at import, so a later change in the GPU count is never seen.
import d2lgpu

DEVICES = d2lgpu.try_all_gpus()  # decided once, "at the top", as the chapter's tip says


def place_workers(n_workers):
    return [DEVICES[i % len(DEVICES)] for i in range(n_workers)]


answer = place_workers
