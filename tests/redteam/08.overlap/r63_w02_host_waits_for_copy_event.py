# expect: fail the host waits for each copy (event.synchronize()) instead of making the compute stream wait on the GPU
# hint: host.{0,40}wait|sync|synchroni[sz]e|wait_event|wait_stream|on the gpu|sync point
# WRONG: the values are right and the copy of batch i + 1 is queued before the host blocks, so the
# timeline still looks overlapped; but the prompt says the GPU must wait, never the host.
import torch


def answer(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            done = torch.cuda.Event()
            done.record(copy_stream)
            return x, done

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        copied.synchronize()  # make sure batch i has landed before computing on it
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
