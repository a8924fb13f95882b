# expect: fail off by one: the first worker gets cuda:1 (index i+1), so the order is 1,0,1,... not 0,1,0,...
# hint: order|first|cuda:0|round.?robin|table|start
import d2lgpu


def place_workers(n_workers):
    devs = d2lgpu.try_all_gpus()
    return [devs[(i + 1) % len(devs)] for i in range(n_workers)]


answer = place_workers
