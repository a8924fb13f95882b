# expect: fail the function given to each lane synchronizes its device after the product; with a GPU lane it runs in submit(), so the host waits before launching the second
# hint: synchron|sync|inside|wait|lane.*function|one after
import torch

import d2lgpu


def _square_and_wait(a):
    out = a @ a
    d2lgpu.sync(a.device)  # make sure the product is finished before handing it back
    return out


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(_square_and_wait, x)
    fy = lanes[1].submit(_square_and_wait, y)
    return fx.result(), fy.result()


answer = run_concurrently
