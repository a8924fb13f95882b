# expect: fail returns a lazy map object that asks which GPUs exist only when it is iterated, after the function returned
# hint: list|lazy|map|iterat|generator|type|inside|each time
import d2lgpu
def answer(n_workers):
    return map(lambda i: d2lgpu.try_all_gpus()[i % len(d2lgpu.try_all_gpus())], range(n_workers))
