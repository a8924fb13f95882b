# expect: fail prefetches the next batch from a thread of its own: that thread's current stream is the default stream, so the copies are not on a side stream and nothing makes the computes wait for them
# hint: thread|side stream|Stream\(|default stream|wait_event|wait
from concurrent.futures import ThreadPoolExecutor

import torch


def pipelined(batches, compute, device):
    results = []
    with ThreadPoolExecutor(max_workers=1) as loader:
        ahead = loader.submit(lambda b: b.to(device, non_blocking=True), batches[0]) if batches else None
        for i in range(len(batches)):
            x = ahead.result()  # the copy was queued
            if i + 1 < len(batches):
                ahead = loader.submit(lambda b: b.to(device, non_blocking=True), batches[i + 1])
            results.append(compute(x))
    return results


answer = pipelined
