# expect: pass
# hint:
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)  # the caller's stream
    copy_stream = torch.cuda.Stream(device)
    kept, landed, results = [], [], []

    def queue_copy(batch):
        torch.cuda.set_stream(copy_stream)
        try:
            kept.append(batch.to(device, non_blocking=True))
            done = torch.cuda.Event()
            done.record()  # on the copy stream, current here
            landed.append(done)
        finally:
            torch.cuda.set_stream(compute_stream)  # back to the caller's stream

    for i in range(len(batches)):
        if i == 0:
            queue_copy(batches[0])
        if i + 1 < len(batches):
            queue_copy(batches[i + 1])
        compute_stream.wait_event(landed[i])
        results.append(compute(kept[i]))
    # references kept in `kept` until here; before they go, the copy stream waits for every
    # compute, so its pool hands their memory out only after the computes that read it
    copy_stream.wait_stream(compute_stream)
    return results
