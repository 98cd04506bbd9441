"""A small training run (AdamW, StepLR, dropout on the default CPU generator, a DataLoader over a
DistributedSampler), a save at step 5 in the middle of epoch 1, and resumed runs compared with an
uninterrupted one bit for bit. observe()/restore() carry the resumed run's whole state to the judge,
which trains on from it with its own code."""

import copy

import torch
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

from quiz.grader.say import say

_get_rng_state = torch.get_rng_state  # taken when the checks load, before any learner code runs
_set_rng_state = torch.set_rng_state
_manual_seed = torch.manual_seed
_deepcopy = copy.deepcopy

STEPS, SAVE_AT, BATCH = 8, 5, 4
_gen = torch.Generator().manual_seed(2024)
X = torch.randn(10, 3, generator=_gen, dtype=torch.float64)
Y = torch.randn(10, 1, generator=_gen, dtype=torch.float64)
DATA = TensorDataset(X, Y, torch.arange(10))


class Run:
    """The training run the learner's save/load see; step() is one optimizer step on the next batch."""

    def __init__(self, seed):
        _manual_seed(seed)
        self.model = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.Dropout(0.3), torch.nn.Tanh(),
                                         torch.nn.Linear(8, 1)).double()
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=0.05, weight_decay=0.01)
        self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, step_size=2, gamma=0.5)
        sampler = DistributedSampler(DATA, num_replicas=1, rank=0, shuffle=True, seed=7)
        self.loader = DataLoader(DATA, batch_size=BATCH, sampler=sampler)
        self.epoch, self.consumed = 0, 0
        self.loader.sampler.set_epoch(0)
        self.batches = iter(self.loader)

    def step(self):
        try:
            batch = next(self.batches)
        except StopIteration:
            self.epoch += 1
            self.loader.sampler.set_epoch(self.epoch)
            self.batches = iter(self.loader)
            self.consumed = 0
            batch = next(self.batches)
        self.consumed += 1
        x, y, _ = batch
        loss = torch.nn.functional.mse_loss(self.model(x), y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.scheduler.step()
        return float(loss.detach())


_ACTIVE = [None]


def _snapshot(run):
    """The run's whole state as plain data; the live batch iterator is read out and replaced by an equal one."""
    state = {"rng": _get_rng_state(), "params": [p.detach().clone() for p in run.model.parameters()],
             "optimizer": _deepcopy(run.optimizer.state_dict()), "scheduler": dict(run.scheduler.state_dict()),
             "epoch": int(run.epoch), "consumed": int(run.consumed)}
    rest = []
    for _, batch in zip(range(20), run.batches):
        rest.append(batch)
    run.batches = iter(rest)
    state["rest"] = [[int(i) for i in batch[2]] for batch in rest]
    return state


def observe():
    run = _ACTIVE[0]
    if run is None:
        return None
    try:
        return _snapshot(run)
    except Exception as exc:  # noqa: BLE001 - a run the learner's code broke is reported, and fails
        return {"broken": f"{type(exc).__name__}: {exc}"[:300]}


def restore(observed):
    """On the judge's side: the active run in the state the learner's call left it."""
    run = _ACTIVE[0]
    if run is None or observed is None:
        return
    if "broken" in observed:
        run.broken = str(observed["broken"])
        return
    with torch.no_grad():
        for p, v in zip(run.model.parameters(), observed["params"]):
            p.copy_(v)
    run.optimizer.load_state_dict(_deepcopy(observed["optimizer"]))
    run.scheduler.load_state_dict(dict(observed["scheduler"]))
    run.epoch, run.consumed = int(observed["epoch"]), int(observed["consumed"])
    run.batches = iter([[X[ids], Y[ids], torch.tensor(ids)] for ids in observed["rest"]])
    _set_rng_state(observed["rng"])


def _scenario(entry, loads=2):
    """Runs A (uninterrupted), B (saves at SAVE_AT and trains on) and resumed runs C, D from B's checkpoint."""
    keep = _get_rng_state()
    try:
        a = Run(0)
        out = {"a": [a.step() for _ in range(STEPS)], "a_params": [p.detach().clone() for p in a.model.parameters()]}
        b = Run(0)
        _ACTIVE[0] = b
        for _ in range(SAVE_AT):
            b.step()
        out["before"] = _snapshot(b)
        ckpt = entry.save(b)
        out["b"] = [b.step() for _ in range(STEPS - SAVE_AT)]
        out["b_final"] = _snapshot(b)
        for name, seed in (("c", 1), ("d", 2))[:loads]:
            _manual_seed(100 + seed)
            run = Run(seed)
            _manual_seed(200 + seed)  # the resumed process's generator is somewhere else entirely
            _ACTIVE[0] = run
            entry.load(run, ckpt)
            assert not hasattr(run, "broken"), say(f"after load the run could not be read: {run.broken}",
                                                   f"load 之后无法读取这个 run：{run.broken}")
            out[name + "_loaded"] = _snapshot(run)
            _ACTIVE[0] = None
            out[name] = [run.step() for _ in range(STEPS - SAVE_AT)]
            out[name + "_params"] = [p.detach().clone() for p in run.model.parameters()]
        return out
    finally:
        _ACTIVE[0] = None
        _set_rng_state(keep)


def _same_tensors(xs, ys):
    return len(xs) == len(ys) and all(x.shape == y.shape and torch.equal(x, y) for x, y in zip(xs, ys))


def _aliased_note(out, key, part):
    if part(out[key]) == part(out["b_final"]) and part(out[key]) != part(out["before"]):
        return say(" They equal the saving run's state at the END of training, not at the save: the checkpoint holds "
                   "live tensors (model.state_dict() returns tensors that share storage with the parameters, and "
                   "optimizer.state_dict() the optimizer's own state tensors; training keeps changing both in place). Copy them at save (copy.deepcopy), as "
                   "torch.save would by writing them out.",
                   " 它们等于保存的那个 run 训练结束时的状态，而不是保存时的：checkpoint 里是活的 tensor（model.state_dict() "
                   "返回与参数共享存储的 tensor，optimizer.state_dict() 返回优化器自己的状态 tensor，训练会继续原地修改它们）。保存时要复制（copy.deepcopy），"
                   "就像 torch.save 写出文件那样。")
    return ""


def _params(s):
    return [t.tolist() for t in s["params"]]


def _opt_state(s):
    state, groups = s["optimizer"]["state"], s["optimizer"]["param_groups"]
    moments = [[state[i][k].tolist() for k in ("step", "exp_avg", "exp_avg_sq")] for i in sorted(state)]
    return moments + [[g.get("lr") for g in groups]]


def _moments(s):
    return _opt_state(s)[:-1]


def test_restores_model(entry):
    out = _scenario(entry, loads=1)
    assert _params(out["c_loaded"]) == _params(out["before"]), say(
        "after load the model's parameters differ from those at the save (step 5)." + _aliased_note(out, "c_loaded", _params),
        "load 之后模型参数与保存时（第 5 步）不同。" + _aliased_note(out, "c_loaded", _params),
    )


def test_restores_optimizer(entry):
    out = _scenario(entry, loads=1)
    got, want = out["c_loaded"]["optimizer"]["state"], out["before"]["optimizer"]["state"]
    assert len(got) == len(want), say(
        f"after load AdamW holds state for {len(got)} of {len(want)} parameters: without exp_avg, exp_avg_sq and step "
        "the resumed run restarts Adam's moment estimates and bias correction, and its updates differ. "
        "Save optimizer.state_dict() and load it with optimizer.load_state_dict().",
        f"load 之后 AdamW 只有 {len(got)} / {len(want)} 个参数的状态：没有 exp_avg、exp_avg_sq 和 step，"
        "续训会从头估计 Adam 的一阶、二阶矩并重新做 bias correction，更新量就不同了。"
        "保存 optimizer.state_dict()，用 optimizer.load_state_dict() 恢复。",
    )
    assert _opt_state(out["c_loaded"]) == _opt_state(out["before"]), say(
        "after load AdamW's state (step, exp_avg, exp_avg_sq or the learning rate) differs from the state at the save."
        + _aliased_note(out, "c_loaded", _moments),
        "load 之后 AdamW 的状态（step、exp_avg、exp_avg_sq 或学习率）与保存时不同。" + _aliased_note(out, "c_loaded", _moments),
    )


def test_restores_scheduler(entry):
    out = _scenario(entry, loads=1)
    got, want = out["c_loaded"]["scheduler"], out["before"]["scheduler"]
    assert got.get("last_epoch") == want.get("last_epoch"), say(
        f"after load the StepLR scheduler is at last_epoch {got.get('last_epoch')}, but it had stepped "
        f"{want.get('last_epoch')} times at the save: without its state it halves the learning rate at the wrong "
        "steps. Save scheduler.state_dict() and load it with scheduler.load_state_dict().",
        f"load 之后 StepLR 的 last_epoch 是 {got.get('last_epoch')}，而保存时它已经 step 了 {want.get('last_epoch')} 次："
        "没有它的状态，学习率会在错误的步数减半。保存 scheduler.state_dict()，用 scheduler.load_state_dict() 恢复。",
    )


def _one_draw_ahead(rng):
    gen = torch.Generator()
    gen.set_state(rng)
    torch.empty((), dtype=torch.int64).random_(generator=gen)
    return gen.get_state()


def test_restores_rng(entry):
    out = _scenario(entry, loads=1)
    got, want = out["c_loaded"]["rng"], out["before"]["rng"]
    if torch.equal(got, want):
        return
    if torch.equal(got, _one_draw_ahead(want)):
        hint = say(" It is exactly one draw past the saved state: creating the DataLoader iterator (iter(run.loader)) "
                   "draws a base seed from the default generator, so restore the RNG state after rebuilding the "
                   "iterator, as the last thing load does.",
                   " 它恰好比保存的状态多走了一步：创建 DataLoader 迭代器（iter(run.loader)）会从默认生成器取一个 base seed，"
                   "所以要在重建迭代器之后再恢复 RNG 状态，放在 load 的最后一步。")
    else:
        hint = say(" Dropout draws its masks from the default CPU generator: save torch.get_rng_state() and restore it "
                   "with torch.set_rng_state(), or the resumed run drops different units.",
                   " dropout 的 mask 来自默认的 CPU 生成器：保存 torch.get_rng_state()，再用 torch.set_rng_state() 恢复，"
                   "否则续训时 dropout 丢掉的是另一些单元。")
    raise AssertionError(say("after load the default CPU generator is not in the state it had at the save.",
                             "load 之后默认 CPU 生成器的状态与保存时不同。") + hint)


def test_restores_data_position(entry):
    out = _scenario(entry, loads=1)
    got, want = out["c_loaded"], out["before"]
    assert got["epoch"] == want["epoch"], say(
        f"after load run.epoch is {got['epoch']}, but the save was taken in epoch {want['epoch']}",
        f"load 之后 run.epoch 是 {got['epoch']}，但保存发生在 epoch {want['epoch']}")
    if got["rest"] == want["rest"] and got["consumed"] == want["consumed"]:
        return
    note = ""
    if len(got["rest"]) > len(want["rest"]) and got["rest"][-len(want["rest"]):] == want["rest"]:
        note = say(f" The resumed run would see the epoch again from its start: skip the {want['consumed']} batches "
                   "already consumed in this epoch after rebuilding the iterator.",
                   f" 续训会从这个 epoch 的开头重新读：重建迭代器之后，要跳过本 epoch 已经消费的 {want['consumed']} 个 batch。")
    elif len(got["rest"]) == len(want["rest"]):
        note = say(" The batches are in another order: the permutation is seeded with seed + epoch, so call "
                   "run.loader.sampler.set_epoch(epoch) before iter(run.loader).",
                   " batch 的顺序不同：排列的种子是 seed + epoch，所以要在 iter(run.loader) 之前调用 "
                   "run.loader.sampler.set_epoch(epoch)。")
    raise AssertionError(say(
        f"after load the rest of epoch {want['epoch']} should be the batches {want['rest']} (sample indices; "
        f"{want['consumed']} batches were consumed), with run.consumed = {want['consumed']}; the run would read "
        f"{got['rest']} with run.consumed = {got['consumed']}.{note}",
        f"load 之后 epoch {want['epoch']} 剩下的应是 batch {want['rest']}（样本下标；已消费 {want['consumed']} 个 batch），"
        f"且 run.consumed = {want['consumed']}；实际会读到 {got['rest']}，run.consumed = {got['consumed']}。{note}"))


def test_resumed_run_is_bit_exact(entry):
    out = _scenario(entry, loads=1)
    want, got = out["a"][SAVE_AT:], out["c"]
    assert got == want and _same_tensors(out["c_params"], out["a_params"]), say(
        f"the uninterrupted run's losses for steps {SAVE_AT + 1}-{STEPS} are {want}; the resumed run's are {got}"
        + ("" if got != want else ", and its final parameters differ")
        + ". A resumed run must match bit for bit: model, optimizer, scheduler, RNG and data position all restored.",
        f"不中断的 run 在第 {SAVE_AT + 1}-{STEPS} 步的 loss 是 {want}；续训的是 {got}"
        + ("" if got != want else "，最终参数也不同")
        + "。续训必须逐位一致：模型、优化器、scheduler、RNG 和数据位置都要恢复。",
    )


def test_save_leaves_run_alone(entry):
    out = _scenario(entry, loads=1)
    assert out["b"] == out["a"][SAVE_AT:], say(
        f"the run that saved went on differently from the uninterrupted one (losses {out['b']} instead of "
        f"{out['a'][SAVE_AT:]}): save must only read the run (no draws from the generator, no changes to its state).",
        f"保存之后，这个 run 继续训练的结果与不中断的 run 不同（loss 是 {out['b']}，应为 {out['a'][SAVE_AT:]}）："
        "save 只能读取 run（不能从生成器取随机数，也不能改它的状态）。",
    )


def test_checkpoint_loads_twice(entry):
    out = _scenario(entry, loads=2)
    want = out["a"][SAVE_AT:]
    if out["d"] == want:
        return
    note = ""
    if _opt_state(out["d_loaded"]) != _opt_state(out["before"]) and out["c"] == want:
        note = say(" The second load found the optimizer state changed by the first resumed run's training: "
                   "Optimizer.load_state_dict keeps the tensors it is given as its state when dtype and device already "
                   "match, and Adam updates them in place. Load a copy (copy.deepcopy(state)).",
                   " 第二次 load 时，优化器状态已被第一次续训改掉：dtype 和 device 已经一致时，Optimizer.load_state_dict "
                   "直接把传入的 tensor 当作自己的状态，Adam 又会原地更新它们。请 load 一份副本（copy.deepcopy(state)）。")
    raise AssertionError(say(
        f"resuming a second time from the same checkpoint gave losses {out['d']} instead of {want}: a checkpoint must "
        f"stay valid after a run has been resumed from it.{note}",
        f"从同一个 checkpoint 第二次续训得到的 loss 是 {out['d']}，应为 {want}：从一个 checkpoint 续训之后，"
        f"它必须仍然有效。{note}"))
