# expect: fail the final drain calls torch.cuda.synchronize() without the device: on cuda:1 it waits for the current GPU, not the run's
# hint: device|cuda:1|current gpu|name.{0,30}(device|gpu)|synchronize\(device\)|another gpu
# Wrong: the prompt says to name the device in torch.cuda's calls, synchronize(device) among
# them; without it the host waits on cuda:0 while cuda:1's last copy back may not have landed.
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    ahead = send(batches[0])
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        buf = buffers[i % 2]
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        if i > 0:
            previous.synchronize()
            consume(i - 1, buffers[(i - 1) % 2])
        previous = landed
    torch.cuda.synchronize()  # the end: nothing left to overlap, wait for everything
    consume(n - 1, buffers[(n - 1) % 2])
