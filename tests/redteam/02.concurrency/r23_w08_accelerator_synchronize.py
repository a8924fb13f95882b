# expect: fail calls torch.accelerator.synchronize() after launching x @ x "so the first launch is really queued": a device-wide wait before launching y @ y, the same serialization as torch.cuda.synchronize under another name
# hint: synchron|accelerator|wait|before (launch|submit)|serial
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)
    if torch.accelerator.is_available():
        torch.accelerator.synchronize()  # flush the launch queue
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
