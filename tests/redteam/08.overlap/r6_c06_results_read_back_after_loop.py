# expect: pass
# hint:
# relabelled after the run (was: fail after queuing every compute, copies the results to the host (.cpu()) before returning: the list holds host tensors, not the computes' device results): the prompt forbids host reads only until the last compute is queued, and reads the results' values; the checker accepts results read back after the loop on purpose (test_results_read_back_to_the_host_after_the_loop_pass)
import torch
def answer(batches, compute, device):
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    def send(b):
        with torch.cuda.stream(side):
            x = b.to(device, non_blocking=True)
            return x, side.record_event()
    out, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        cur.wait_event(ev)
        x.record_stream(cur)
        out.append(compute(x))
    return [y.cpu() for y in out]
