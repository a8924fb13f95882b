# expect: fail times each copy with timing events and reads elapsed_time in the loop: the host waits for each copy (a sync point)
# hint: elapsed_time
import torch
def answer(batches, compute, device):
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    copy_ms = []

    def send(b):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        with torch.cuda.stream(side):
            start.record()
            x = b.to(device, non_blocking=True)
            end.record()
        return x, start, end

    out, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, start, end = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        cur.wait_event(end)
        x.record_stream(cur)
        out.append(compute(x))
        copy_ms.append(start.elapsed_time(end))  # log how long the copy took
    return out
