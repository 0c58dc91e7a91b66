"""Random programs, checked against PyTorch: the CTest programs.differential.

  python differential.py --irscope BIN [--seeds N] [--first S] [--jobs J]
                         [--out DIR] [--exact] [--keep DIR]

For each seed, program_grammar.make_program(seed) builds a program that looks
like a real model; this PyTorch exports it with torch.export (its dynamic
dims as drawn; statically when the drawn dims do not export), saves it, and
computes the module's outputs on its example inputs and, for a dynamic
program, on inputs of another size. irscope runs the .pt2 and compares with
them (--exact: rtol 0, atol 0, for an irscope built on this very torch;
otherwise assert_close's defaults). Where the outputs differ, PyTorch's value
of every node (an fx Interpreter over the exported graph) is the reference
intermediates of a second irscope run, whose first divergence says its kind:
a flipped decision or float noise is reported as such (with --exact, on the
libtorch that exported it, any difference is irscope's and fails); a wrong
value or an irscope error is a failure, kept in --keep (the .pt2, its inputs and
references, and, where `irscope reduce` finds one, the smallest failing cut
as MIN.json) with the command that reproduces it.

Outcomes are counted and printed, with the closing line
"N passed, N failed" (decisions and noise pass, and are counted apart).
Exit 1 when any program failed, or when more than a tenth of the seeds do
not export (the grammar has drifted from the PyTorch at hand).
"""
import argparse
import concurrent.futures
import json
import os
import logging
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import traceback
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# The fixtures' own helpers: a program's input and output names, values by name.
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "data", "programs"))


def export(program):
    """The program exported with its dynamic dims, or statically when they do not export."""
    import torch

    try:
        return torch.export.export(program.module, program.args, dynamic_shapes=program.dynamic_shapes,
                                   strict=False), True
    except Exception:  # noqa: BLE001 - a drawn dim torch.export cannot keep symbolic: try it static
        if program.dynamic_shapes is None:
            raise
        return torch.export.export(program.module, program.args, strict=False), False


def intermediates(ep, args):
    """PyTorch's value of every node of the exported graph, by node name (as irscope names them)."""
    import torch
    from torch.export.graph_signature import InputKind

    flat = []
    user = iter(args)
    for spec in ep.graph_signature.input_specs:
        if spec.kind == InputKind.USER_INPUT:
            flat.append(next(user))
        elif spec.target in ep.state_dict:
            flat.append(ep.state_dict[spec.target])
        else:
            flat.append(ep.constants[spec.target])
    values = {}

    class Recorder(torch.fx.Interpreter):
        def run_node(self, n):
            result = super().run_node(n)
            if n.op == "call_function":
                if isinstance(result, torch.Tensor):
                    values[n.name] = result.detach().clone()
                elif isinstance(result, (int, float, bool)):
                    # A size or other Python number, as irscope holds it: int64, float64, bool.
                    dtype = torch.bool if isinstance(result, bool) else (
                        torch.float64 if isinstance(result, float) else torch.int64)
                    values[n.name] = torch.tensor(result, dtype=dtype)
            return result

    with torch.no_grad():
        Recorder(ep.graph_module).run(*flat)
    return values


class ForkServer:
    """irscope's fork server (app/launcher/fork_protocol.h): the binary loads
    libtorch once, and each run is a child forked from it, its own process
    with its own output and exit status. One per worker process."""

    def __init__(self, binary):
        self.binary = binary
        self.sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        # One intra-op thread, as the reference (check_seed): a reduction's
        # split over threads depends on their count, and so does its last bit.
        env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
        self.proc = subprocess.Popen([binary, "--fork-server", str(theirs.fileno())], pass_fds=[theirs.fileno()],
                                     env=env)
        theirs.close()

    def run(self, args, timeout):
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            payload = b"".join(a.encode() + b"\0" for a in [os.getcwd(), *args])
            socket.send_fds(self.sock, [struct.pack("=I", len(payload))], [out.fileno(), err.fileno()])
            self.sock.sendall(payload)
            self.sock.settimeout(30)
            pid = struct.unpack("=i", self._read(4))[0]
            if pid <= 0:  # the server could not fork: no child, no status to come
                raise RuntimeError("the irscope fork server could not start a run")
            self.sock.settimeout(timeout)
            try:
                status = struct.unpack("=i", self._read(4))[0]
            except socket.timeout:
                os.kill(pid, 9)  # pid > 0: that one child, never a group
                self.sock.settimeout(30)
                status = struct.unpack("=i", self._read(4))[0]
            out.seek(0)
            err.seek(0)
            code = os.waitstatus_to_exitcode(status)
            return code, out.read().decode(errors="replace"), err.read().decode(errors="replace")

    def close(self):
        self.sock.close()  # the server exits when its socket closes
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()

    def _read(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise RuntimeError("the irscope fork server went away")
            data += chunk
        return data


_servers = {}


def run_irscope(binary, args, timeout=120):
    server = _servers.get(binary)
    if server is None:
        server = _servers[binary] = ForkServer(binary)
    try:
        code, out, err = server.run(["run", *args, "--json"], timeout)
    except Exception:
        # Out of step with the server (a timeout, a lost child): the next run gets a new one.
        del _servers[binary]
        server.close()
        raise
    try:
        report = json.loads(out) if out.strip() else {}
    except json.JSONDecodeError:
        report = {}
    return code, report, err.strip()


def check_seed(seed, binary, workdir, exact, keep):
    """One seed: (outcome, detail). Outcomes: match, decision, noise, value, error, not_exportable."""
    import torch

    warnings.filterwarnings("ignore")
    logging.getLogger("torch._export.serde.serialize").setLevel(logging.ERROR)
    torch.set_num_threads(1)
    from make_programs import named, signature_names
    from program_grammar import make_program

    base = os.path.join(workdir, f"seed{seed}")
    program = make_program(seed)  # the grammar's own failure is the harness's: it fails the run
    try:
        ep, dynamic = export(program)
    except Exception as e:  # noqa: BLE001 - counted, not failed: PyTorch itself refused the program
        return "not_exportable", f"{type(e).__name__}: {str(e).splitlines()[0][:160] if str(e) else ''}"
    try:
        inputs, outputs = signature_names(ep)
        torch.export.save(ep, base + ".pt2")
        module = ep.module()
        with torch.no_grad():
            torch.save(named(outputs, module(*program.args)), base + ".expected.pt")
            sets = [(None, base + ".expected.pt")]
            if dynamic and program.args_b is not None:
                torch.save(named(inputs, program.args_b), base + ".inputs_b.pt")
                torch.save(named(outputs, module(*program.args_b)), base + ".expected_b.pt")
                sets.append((base + ".inputs_b.pt", base + ".expected_b.pt"))
    except Exception as e:  # noqa: BLE001 - PyTorch could not run or save its own export
        return "not_exportable", f"PyTorch: {type(e).__name__}: {str(e).splitlines()[0][:160] if str(e) else ''}"
    tol = ["--rtol", "0", "--atol", "0"] if exact else []
    blocks = "+".join(program.blocks)
    explained = None  # a decision or noise on one input set; the other is still checked
    for inputs_file, expected in sets:
        feed = ["--inputs", inputs_file] if inputs_file else []
        code, report, err = run_irscope(binary, [base + ".pt2", *feed, "--expected", expected, *tol])
        if code == 0 and report.get("matched"):
            continue
        if not report.get("ran", False) or code == 2:
            detail = err.splitlines()[-1] if err else f"exit {code}"
            keep_failure(keep, base, seed, inputs_file, None)
            return "error", f"{blocks}: {detail}"
        # Outputs differ: PyTorch's node values locate the first divergence and say what it is.
        args = program.args if inputs_file is None else program.args_b
        refs = base + (".intermediates.pt" if inputs_file is None else ".intermediates_b.pt")
        torch.save(intermediates(ep, args), refs)
        code, report, err = run_irscope(binary, [base + ".pt2", *feed, "--reference-intermediates", refs, *tol])
        first = report.get("intermediates", {}).get("first_divergence")
        if not first:
            keep_failure(keep, base, seed, inputs_file, refs)
            return "value", f"{blocks}: outputs differ, every node matches PyTorch's ({err[-200:]})"
        kind = first.get("kind", "value")
        where = f"{first.get('node')} ({first.get('op_type')})"
        if kind in ("decision", "noise") and not exact:
            explained = explained or (kind, f"{blocks}: {where}: {first.get('explanation', '')}")
            continue
        # On the very libtorch that exported it, any difference is irscope's: kept and failed.
        keep_failure(keep, base, seed, inputs_file, refs)
        return "value", f"{blocks}: {where}: {kind}: {first.get('explanation', first.get('comparison'))}"
    return explained or ("match", blocks)


def keep_failure(keep, base, seed, inputs_file, refs):
    if not keep:
        return
    os.makedirs(keep, exist_ok=True)
    for f in os.listdir(os.path.dirname(base)):
        if f.startswith(os.path.basename(base) + "."):
            shutil.copy(os.path.join(os.path.dirname(base), f), keep)


def reduce_failure(binary, keep, seed, refs_name):
    """The smallest failing cut of a kept program, by irscope reduce (best effort)."""
    pt2 = os.path.join(keep, f"seed{seed}.pt2")
    refs = os.path.join(keep, refs_name)
    if not (os.path.exists(pt2) and os.path.exists(refs)):
        return None
    out = os.path.join(keep, f"seed{seed}.min.json")
    p = subprocess.run([binary, "reduce", pt2, "--weights", pt2, "--inputs", pt2, "--reference-intermediates", refs,
                        "--budget", "30", "-o", out, "-q", "--force"], capture_output=True, text=True, timeout=120)
    return out if p.returncode == 0 and os.path.exists(out) else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--irscope", required=True)
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", default=None)
    ap.add_argument("--exact", action="store_true")
    ap.add_argument("--keep", default=None)
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    workdir = a.out or os.path.join(os.getcwd(), "differential")
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    started = time.time()
    counts, notes = {}, []
    seeds = list(range(a.first, a.first + a.seeds))
    with concurrent.futures.ProcessPoolExecutor(max_workers=a.jobs) as pool:
        futures = {pool.submit(check_seed, s, a.irscope, workdir, a.exact, a.keep): s for s in seeds}
        for f in concurrent.futures.as_completed(futures):
            seed = futures[f]
            try:
                outcome, detail = f.result()
            except Exception:  # noqa: BLE001 - the harness's own failure is a failure
                outcome, detail = "error", traceback.format_exc().splitlines()[-1]
            counts[outcome] = counts.get(outcome, 0) + 1
            if outcome != "match":
                notes.append((seed, outcome, detail))
    elapsed = time.time() - started
    notes.sort()
    failed = [n for n in notes if n[1] in ("value", "error")]
    for seed, outcome, detail in notes:
        if outcome in ("value", "error") or not a.quiet:
            print(f"seed {seed}: {outcome}: {detail}")
    for seed, outcome, _ in failed:
        if a.keep and outcome == "value":
            minimal = reduce_failure(a.irscope, a.keep, seed, f"seed{seed}.intermediates.pt")
            if minimal:
                print(f"seed {seed}: reduced to {minimal}")
        if a.keep:
            print(f"seed {seed}: reproduce: {a.irscope} run {os.path.join(a.keep, f'seed{seed}.pt2')} "
                  f"--expected {os.path.join(a.keep, f'seed{seed}.expected.pt')}")
    refused = counts.get("not_exportable", 0)
    ran = a.seeds - refused
    print(f"\n{a.seeds} seeds in {elapsed:.1f} s ({a.jobs} jobs): " +
          ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    passed = ran - len(failed)
    # A grammar torch.export mostly refuses tests nothing: that is a failure too.
    if refused > a.seeds // 10 or passed == 0:
        print(f"{refused} of {a.seeds} programs were not exportable: the grammar has drifted from this PyTorch")
        failed.append((0, "not_exportable", ""))
    print(f"{passed} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
