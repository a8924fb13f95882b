# expect: pass
# hint:
# Right: the three functions as instances of callable classes; no_grad + mul_ halves the same
# Parameter in place; state_dict saved; loaded with map_location=device, weights_only=True, strict.
import torch


class HalveFirstLayer:
    def __init__(self, factor=0.5):
        self.factor = factor

    def __call__(self, net):
        with torch.no_grad():
            net[0].weight.mul_(self.factor)


class SaveParameters:
    def __call__(self, net, path):
        torch.save(net.state_dict(), path)


class LoadParameters:
    def __call__(self, make_net, path, device):
        state = torch.load(path, map_location=device, weights_only=True)
        net = make_net().to(device)
        net.load_state_dict(state)  # strict=True by default: a missing key raises
        return net


halve_first_layer = HalveFirstLayer()
save_parameters = SaveParameters()
load_parameters = LoadParameters()

answer = (halve_first_layer, save_parameters, load_parameters)
