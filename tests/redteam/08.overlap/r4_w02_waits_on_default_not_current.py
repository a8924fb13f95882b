# expect: fail the waits and record_stream go to the default stream while the computes run on the current stream: right only when the caller's current stream is the default one
# hint: current stream|default stream|wait
import torch
def answer(batches, compute, device):
    compute_stream = torch.cuda.default_stream(device)  # "the" compute stream
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    out, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(ev)
        x.record_stream(compute_stream)
        out.append(compute(x))  # queued on the current stream
    return out
