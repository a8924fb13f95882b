# expect: fail submits y from a helper thread so the two submits overlap: CudaLane.submit orders its stream after the *calling thread's* current stream, and a new thread's current stream is the default one, so when the caller made y on another stream lane 1 may read y before it is ready; it also starts a thread per call, beyond what the checker's launch log in the caller's thread sees
# hint: thread|helper|current.?stream|calling thread|caller'?s (thread|stream)|wait_stream|default stream|threading
import threading

import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    box = {}
    helper = threading.Thread(
        target=lambda: box.setdefault("y", lanes[1].submit(torch.matmul, y, y))
    )
    helper.start()  # y's submit runs beside x's
    fx = lanes[0].submit(torch.matmul, x, x)
    helper.join()  # waits for the submit only, not for the product
    return fx.result(), box["y"].result()


answer = run_concurrently
