# expect: fail launches from a generator expression: the second product is launched only after the first result is waited for
# hint: generator|lazy|lazily|one after the other|sequen|before launching|wait(s|ed|ing)? for the first|serial
import torch


def _launch(lane, t):
    return lane.submit(torch.matmul, t, t)


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    futures = (_launch(lane, t) for lane, t in zip(lanes, (x, y)))  # launch both
    return tuple(future.result() for future in futures)  # then wait for both


answer = run_concurrently
