# expect: fail references kept instead of record_stream, but the event the copy stream waits for before they are released is recorded on the compute stream at the top of the last iteration, before the last compute is queued: the last batch's memory is freed while its compute may still read it
# hint: last (compute|batch)|before (the last|its) compute|event .*recorded (before|too early)|too early|freed|released|record_stream
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    n = len(batches)
    kept = [None] * n
    copied = [None] * n

    def send(j):
        with torch.cuda.stream(copy_stream):
            kept[j] = batches[j].to(device, non_blocking=True)
            copied[j] = copy_stream.record_event()

    send(0)
    results = []
    all_read = None
    for i in range(n):
        if i + 1 < n:
            send(i + 1)
        else:
            all_read = compute_stream.record_event()  # "from here on, nothing new is copied"
        compute_stream.wait_event(copied[i])
        results.append(compute(kept[i]))
    copy_stream.wait_event(all_read)  # later work on the copy stream waits for the computes
    kept.clear()
    return results


answer = pipelined
