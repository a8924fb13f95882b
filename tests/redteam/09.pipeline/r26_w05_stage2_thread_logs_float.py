# expect: fail runs stage 2 and the loss in a worker thread fed by a queue (as the chapter's stage_worker), which logs each micro-batch's loss with float(): M host reads, made in another thread than the step's, and the order of the two stages' calls is left to the thread scheduler
# hint: thread|float|read|host|each micro|per micro|log|once|queue
import queue
import threading

import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    inbox = queue.Queue()
    weighted, log = [], []

    def stage2_worker():
        while (item := inbox.get()) is not None:
            h, yb, share = item
            loss = loss_fn(stage2(h), yb.to(d2))
            log.append(float(loss))  # a log line per micro-batch, off the main thread
            weighted.append(loss * share)

    worker = threading.Thread(target=stage2_worker)
    worker.start()
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        inbox.put((stage1(xb.to(d1)).to(d2), yb, len(xb) / len(x)))
    inbox.put(None)
    worker.join()
    answer.micro_batch_losses = log
    total = sum(weighted)
    total.backward()
    return total.detach()
