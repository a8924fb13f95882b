# expect: fail the host polls copied.query() until each copy is done before queuing its compute: a host wait, not a GPU-side wait
# hint: host.{0,40}wait|poll|query|spin|busy|sync(hroniz)?|GPU.{0,20}(should|must) wait|wait_event
# Wrong: no synchronize(), but spinning on query() until True holds the host just the same; the
# prompt wants the GPU to wait (wait_event / wait_stream), never the host.
import torch


def pipelined(batches, compute, device):
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        while not copied.query():  # "not a synchronize": wait until batch i has landed
            pass
        x.record_stream(torch.cuda.current_stream(device))
        results.append(compute(x))
    return results


answer = pipelined
