# expect: fail runs every compute under torch.autocast("cuda", float16) "since the results only go to a file": on a GPU compute's matrix products run in half precision, so consume gets values that differ from compute(batch i); on the simulated GPU (CPU tensors) autocast does nothing
# hint: autocast|half|float16|precision|amp|differ
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_in, back = torch.cuda.Stream(device), torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_in):
            x = b.to(device, non_blocking=True)
        return x, copy_in.record_event()

    pending = None
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, landed = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(landed)
        x.record_stream(compute_stream)
        with torch.autocast(device_type="cuda", dtype=torch.float16):  # inference only: fp16 is enough
            y = compute(x)
        if pending is not None:
            j, buffer, copied = pending
            copied.synchronize()
            consume(j, buffer)
        back.wait_stream(compute_stream)
        buffer = buffers[i % 2]
        with torch.cuda.stream(back):
            y.record_stream(back)
            buffer.copy_(y, non_blocking=True)
            pending = (i, buffer, back.record_event())
    j, buffer, copied = pending
    copied.synchronize()
    consume(j, buffer)
