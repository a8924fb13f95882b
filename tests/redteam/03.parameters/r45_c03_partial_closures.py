# expect: pass functions made by a factory; save is a functools.partial; model moved to device before loading
# hint: 
import functools

import torch


def _make_functions(save_fn=torch.save, load_fn=torch.load, factor=0.5):
    def halve(net):
        with torch.no_grad():
            net[0].weight.mul_(factor)

    def save(state_of, net, path):
        save_fn(state_of(net), path)

    def load(make_net, path, device):
        net = make_net().to(device)  # the model's device wins in load_state_dict
        net.load_state_dict(load_fn(path, map_location=device, weights_only=True))
        return net

    return halve, functools.partial(save, lambda net: net.state_dict()), load


halve_first_layer, save_parameters, load_parameters = _make_functions()


answer = (halve_first_layer, save_parameters, load_parameters)
