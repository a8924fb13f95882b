# expect: pass
# hint:
# relabelled after the run (was: fail prints a corner of each result before returning: print of a tensor is a host read (a transfer)): the prompt forbids returning host copies, not a print after both results were waited for
import torch
def answer(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    xx, yy = fx.result(), fy.result()
    print("x @ x starts with", xx[0, :3], "y @ y with", yy[0, :3])
    return xx, yy
