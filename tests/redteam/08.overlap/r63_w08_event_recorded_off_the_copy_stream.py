# expect: fail the copy's event is recorded after leaving the side stream's block, so it marks the compute stream, and the compute waits for nothing
# hint: event.{0,60}(stream|record)|record.{0,40}(copy|side) stream|(did|does) not wait|before (its|the) copy|race|stale|landed|wait_event
# WRONG: Event.record() records on the *current* stream; outside `with torch.cuda.stream(copy_stream)`
# that is the compute stream, so wait_event on it orders nothing and computes read unfilled memory.
import torch


def answer(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
        copied = torch.cuda.Event()
        copied.record()  # "after the copy"
        return x, copied

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
