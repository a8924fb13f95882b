# expect: fail the function given to each lane synchronizes the device after its product, so submit() waits and the second product starts only after the first
# hint: synchroni[sz]|sync|wait|inside|one after|sequen|serial|concurren|in turn
import torch


def _square_and_finish(m):
    out = m @ m
    if m.device.type == "cuda":
        torch.cuda.synchronize(m.device)  # "make sure it is done" -- inside the lane's work
    return out


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(_square_and_finish, x)
    fy = lanes[1].submit(_square_and_finish, y)
    return fx.result(), fy.result()


answer = run_concurrently
