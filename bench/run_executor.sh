#!/bin/sh
# Executor benchmark: irscope vs Python on the same machine, same run.
#  1. a 30,000-node chain of tiny elementwise ops: irscope's Session vs a bare
#     C++ loop of the same at:: calls (dropping each value, and keeping every
#     one: the targets are 1.1x and 1.25x), and vs a Python
#     loop calling torch.ops.aten the way torch_ir's IRExecutor does (registry
#     dict, schema walk per node), and vs a bare Python loop of the same calls;
#  2. a real model (torchvision ResNet-18, exported to /tmp by the fixture
#     exporter) vs PyTorch eager on the same libtorch 1.13.
# Usage: bench/run_executor.sh [BUILD_DIR]   (default build-exec)
set -e
BUILD=${1:-build-exec}
BIN=$BUILD/bin/bench_executor
[ -x "$BIN" ] || BIN=$BUILD/bench/bench_executor
N=30000
THREADS=${THREADS:-1}
export OMP_NUM_THREADS=$THREADS
echo "== chain of $N tiny ops"
"$BIN" chain $N
/usr/bin/python3 - $N <<'PY'
import sys, time, torch
torch.set_num_threads(1)
n = int(sys.argv[1])
ops = [torch.ops.aten.add.Tensor, torch.ops.aten.mul.Tensor, torch.ops.aten.neg.default]
nodes = [(f"n{i}", ops[i % 3], ({"other": 1.0} if i % 3 == 0 else {"other": 0.5} if i % 3 == 1 else {}),
          "x" if i == 0 else f"n{i-1}") for i in range(n)]
x = torch.ones(4)
def bare():
    v = x
    for _, op, attrs, _ in nodes:
        v = op(v, attrs["other"]) if attrs else op(v)
    return v
def torch_ir_style():
    # What torch_ir's executor does per node: inputs by producer from a dict,
    # the op looked up on torch.ops.aten, arguments walked from the schema.
    registry = {"x": x}
    for name, op, attrs, src in nodes:
        inputs = [registry[src]]
        args, it = [], iter(inputs)
        for a in op._schema.arguments:
            if str(a.type) == "Tensor":
                args.append(next(it, attrs.get(a.name)))
            elif a.name in attrs:
                args.append(attrs[a.name])
        out = op(*args)
        registry[name] = out
    return registry[nodes[-1][0]]
for f in (bare, torch_ir_style):
    f()
    ts = []
    for _ in range(5):
        t0 = time.perf_counter(); f(); ts.append(time.perf_counter() - t0)
    ts.sort()
    print(f"python-{f.__name__} nodes={n} seconds_per_run={ts[2]:.6f} us_per_node={ts[2]/n*1e6:.3f}")
PY
echo "== ResNet-18 (torchvision), batch 1, 224x224, $THREADS thread(s)"
/usr/bin/python3 - <<'PY'
import sys, time, torch, torchvision
sys.path.insert(0, "tests/data")
import make_ir_fixtures as m
torch.manual_seed(0)
model = torchvision.models.resnet18().eval()
x = torch.randn(1, 3, 224, 224)
m.write_fixture("/tmp", "bench_resnet18", model, (x,), ["x"], "ResNet18", m.Lowering(batch_norm=True))
torch.set_num_threads(int(__import__("os").environ.get("OMP_NUM_THREADS", "1")))
with torch.no_grad():
    for _ in range(2): model(x)
    ts = []
    for _ in range(10):
        t0 = time.perf_counter(); model(x); ts.append(time.perf_counter() - t0)
ts.sort()
print(f"pytorch-eager seconds_per_run={ts[5]:.6f}")
PY
"$BIN" model /tmp/bench_resnet18.json /tmp/bench_resnet18.weights.pt /tmp/bench_resnet18.inputs.pt 10
