# expect: pass copy_ into empty_like buffers made on the side stream, wait_stream before the next copy is queued, a final synchronize after the last compute is queued
# hint:
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = torch.empty_like(b, device=device)
            x.copy_(b, non_blocking=True)
        return x

    out = []
    x_next = send(batches[0])
    for i in range(len(batches)):
        x = x_next
        compute_stream.wait_stream(copy_stream)  # covers copies 0..i only: i + 1 is not queued yet
        if i + 1 < len(batches):
            x_next = send(batches[i + 1])  # runs during compute i
        x.record_stream(compute_stream)
        out.append(compute(x))
    torch.cuda.synchronize(device)  # harmless: every compute is queued already
    return out


answer = pipelined
