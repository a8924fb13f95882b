# expect: fail the devices listed once, when the module is imported
# hint: at call time|made once, outside
import d2lgpu
DEVICES = d2lgpu.try_all_gpus()
def answer(n_workers):
    return [DEVICES[i % len(DEVICES)] for i in range(n_workers)]
