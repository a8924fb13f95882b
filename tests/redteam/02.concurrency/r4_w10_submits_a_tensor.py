# expect: fail computes x @ x in the caller and submits the resulting tensor instead of a function
# hint: callable|function|fn|submit\(torch\.matmul|caller|not on a lane|outside
import torch
def answer(x, y, lanes):
    fx = lanes[0].submit(x @ x)
    fy = lanes[1].submit(y @ y)
    return fx.result(), fy.result()
