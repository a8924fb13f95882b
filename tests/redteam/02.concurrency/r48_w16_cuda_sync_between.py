# expect: fail calls torch.cuda.synchronize() (when CUDA is there) after the first submit "so x @ x has started": on a GPU the second launch waits for the first product
# hint: synchron|sync|wait|one after the other|sequen|serial|before launching|in turn|concurren|overlap
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    if torch.cuda.is_available():
        torch.cuda.synchronize()  # make sure lane 0 got going before starting lane 1
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
