# expect: pass
# hint:
import torch
def answer(x, y, lanes):
    fx = lanes[0].submit(torch.Tensor.matmul, x, x)
    fy = lanes[1].submit(torch.einsum, "ij,jk->ik", y, y)
    return fx.result(), fy.result()
