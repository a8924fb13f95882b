# expect: fail spins on future.done() instead of result(): a busy wait on a method a lane's future does not promise (CudaFuture has only result)
# hint: done|poll|result\(\)|attribute|future
import time
import torch
def answer(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    while not (fx.done() and fy.done()):
        time.sleep(0.0005)
    return fx.result(), fy.result()
