# expect: fail x.record_stream names torch.cuda.current_stream() without the device: for a batch on cuda:1 that is a stream of the current GPU, so the allocator does not wait for the compute on cuda:1 before reusing the batch's memory
# hint: record_stream|current_stream\(\)|without (the|a) device|current GPU|cuda:1|other (GPU|device)|wrong (GPU|device)|name the device
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    results = []
    nxt = None

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    nxt = send(batches[0])
    for i in range(len(batches)):
        x, ev = nxt
        if i + 1 < len(batches):
            nxt = send(batches[i + 1])
        compute_stream.wait_event(ev)
        x.record_stream(torch.cuda.current_stream())  # "the stream that computes on it"
        results.append(compute(x))
    return results


answer = pipelined
