# expect: fail copies each result from the device into new pinned memory (y.to("cpu", non_blocking=True)), then into the buffer on the host: not into the given buffers, and an extra host copy per result
# hint: buffers?|new pinned|fresh pinned|pinned memory|to\(.?cpu|\.cpu|extra (host )?copy|copy (from the device )?into (one of )?the
# Wrong: "buffers is ... all the pinned memory there is for results. Copy each result from the
# device into one of them". Section 8.8's results_to_host habit: every result gets new pinned memory.
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    ahead = send(batches[0])
    pending = None
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        if pending is not None:
            j, on_host, ev = pending
            ev.synchronize()
            buf = buffers[j % 2]
            buf.copy_(on_host)  # host to host, after the copy back has landed
            consume(j, buf)
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            on_host = y.to("cpu", non_blocking=True)  # new pinned memory for each result
            pending = (i, on_host, back_stream.record_event())
    j, on_host, ev = pending
    ev.synchronize()
    buffers[j % 2].copy_(on_host)
    consume(j, buffers[j % 2])
