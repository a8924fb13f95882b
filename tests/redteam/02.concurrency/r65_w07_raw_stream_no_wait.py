# expect: fail on CUDA lanes it bypasses submit and queues on lane.stream directly, without wait_stream on the current stream or record_stream: a race on inputs
# hint: wait_stream|current stream|record_stream|race|submit|inputs? (not )?ready|bypass|stream order|other stream
# Wrong: the chapter's rule (products_on_streams, CudaLane) is that a side stream must wait for the
# current stream that made the inputs; this skips it, and only CPU lanes take the right path.

import torch


def answer(x, y, lanes):
    """(x @ x, y @ y) on lanes[0] and lanes[1] at the same time."""
    streams = [getattr(lane, "stream", None) for lane in lanes]
    if all(s is not None for s in streams):
        # skip the Python overhead of submit(): queue straight onto the lanes' streams
        out = []
        for s, m in zip(streams, (x, y)):
            with torch.cuda.stream(s):  # also makes the stream's device current
                out.append(m @ m)
        for s in streams:
            s.synchronize()  # both launched: now wait for both
        return tuple(out)
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()
