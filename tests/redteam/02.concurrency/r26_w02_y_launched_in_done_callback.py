# expect: fail launches y @ y from a done-callback of x's future (add_done_callback): the callback runs only once x @ x has finished, so the products run one after the other; lanes whose futures have no add_done_callback (CudaLane's) raise AttributeError
# hint: callback|add_done_callback|done|after x|once x|one after|serial|sequen|launch(ed)? (y )?(only )?after
import threading

import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    x_future = lanes[0].submit(torch.matmul, x, x)
    box = []
    launched = threading.Event()

    def launch_y(_):  # lane 0 reports back: hand lane 1 its job without blocking the caller
        box.append(lanes[1].submit(torch.matmul, y, y))
        launched.set()

    x_future.add_done_callback(launch_y)
    launched.wait()
    return x_future.result(), box[0].result()


answer = run_concurrently
