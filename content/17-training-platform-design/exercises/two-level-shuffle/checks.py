"""A reference two-level shuffle (seeded shard order, bounded buffer) and the tests that name the usual mistakes."""

import random
from collections import Counter

from quiz.grader.say import say

_Random = random.Random  # taken when the checks load, before any learner code runs


def reference(shards, buffer_size, seed, epoch=0, drain=True, rng_seed=None, variant=None):
    """The statement's steps; variant "pop_j" takes buffer.pop(j) instead of swap-and-pop, "replace" emits a
    random item of a full buffer and puts the incoming item in its place (ShufflerIterDataPipe's way)."""
    rng = _Random(seed + epoch if rng_seed is None else rng_seed)
    order = list(range(len(shards)))
    rng.shuffle(order)
    out, buffer = [], []

    def emit():
        j = rng.randrange(len(buffer))
        if variant == "pop_j":
            out.append(buffer.pop(j))
            return
        buffer[j], buffer[-1] = buffer[-1], buffer[j]
        out.append(buffer.pop())

    for s in order:
        for item in shards[s]:
            if variant == "replace" and len(buffer) == buffer_size:
                j = rng.randrange(len(buffer))
                out.append(buffer[j])
                buffer[j] = item
                continue
            buffer.append(item)
            if len(buffer) == buffer_size and variant != "replace":
                emit()
    while drain and buffer:
        emit()
    return out


def make_shards(sizes, start=0):
    shards = []
    for n in sizes:
        shards.append(list(range(start, start + n)))
        start += n
    return shards


def _call(entry, shards, buffer_size, seed, epoch):
    got = entry([list(s) for s in shards], buffer_size, seed, epoch)
    assert isinstance(got, list), say(f"two_level_shuffle should return a list, got {type(got).__name__}",
                                      f"two_level_shuffle 应返回 list，实际返回了 {type(got).__name__}")
    return got


def _shards_kept_in_order(shards, got):
    """True when the output is the shards, in their input order, each one contiguous."""
    at = 0
    for shard in shards:
        if sorted(got[at : at + len(shard)]) != sorted(shard):
            return False
        at += len(shard)
    return at == len(got)


def diagnose(shards, buffer_size, seed, epoch, got):
    """A sentence naming the usual mistake the output matches, or ''."""
    if got == reference(shards, buffer_size, seed, epoch, drain=False):
        return say(f" (the last {buffer_size - 1} items are missing: the buffer still held them when the stream ended; "
                   f"drain it at the end)",
                   f"（少了最后 {buffer_size - 1} 个样本：数据流结束时它们还在 buffer 里；最后要把 buffer 清空输出）")
    if epoch and got == reference(shards, buffer_size, seed, 0):
        return say(" (this is the order of epoch 0: the epoch is ignored, so every epoch repeats the same order; "
                   "seed the generator with seed + epoch)",
                   "（这是 epoch 0 的顺序：epoch 被忽略了，每个 epoch 的顺序都一样；生成器的种子应为 seed + epoch）")
    if len(shards) > 2 and _shards_kept_in_order(shards, got):
        return say(" (the shards come out in their input order, each shuffled on its own: the shard order must be "
                   "shuffled too, and the buffer mixes items across shard boundaries)",
                   "（各 shard 按输入顺序输出，只在 shard 内部打乱：shard 的顺序也要打乱，buffer 还会跨 shard 边界混合样本）")
    if buffer_size > 1 and got == reference(shards, buffer_size, seed, epoch, variant="pop_j"):
        return say(" (the item was taken with buffer.pop(j): that shifts the items after j and changes which item "
                   "later draws pick; swap buffer[j] with buffer[-1], then buffer.pop())",
                   "（用 buffer.pop(j) 取出了样本：它会把 j 之后的样本前移，后面的抽取就取到别的样本；"
                   "应先交换 buffer[j] 与 buffer[-1]，再 buffer.pop()）")
    if got == reference(shards, buffer_size, seed, epoch, variant="replace"):
        return say(" (a full buffer emitted a random item and took the incoming one in its place, as "
                   "ShufflerIterDataPipe does: that first emits when item buffer_size + 1 arrives; the statement "
                   "appends first and emits as soon as the buffer holds buffer_size items)",
                   "（buffer 满了之后输出一个随机样本、把新读入的样本放到它的位置，像 ShufflerIterDataPipe 那样："
                   "那样要等第 buffer_size + 1 个样本到来才第一次输出；题面是先追加，buffer 一达到 buffer_size 个就输出）")
    if sorted(got) == sorted(x for s in shards for x in s) and got != reference(shards, buffer_size, seed, epoch):
        return say(" (a permutation, but not the one the statement's steps give with random.Random(seed + epoch): "
                   "one generator, the shard order first, then one randrange(len(buffer)) per emitted item)",
                   "（是一个排列，但不是题面步骤用 random.Random(seed + epoch) 得到的那个：只用一个生成器，"
                   "先打乱 shard 顺序，再每输出一个样本调用一次 randrange(len(buffer))）")
    return ""


CASES = [
    ([5, 3, 0, 7, 4, 6], 4, 11, 0),
    ([10, 10, 10, 10], 1, 3, 2),
    ([2, 9, 4], 50, 7, 1),
    ([8, 1, 6, 6, 3, 12, 5], 6, 0, 3),
]


def _first_difference(want, got):
    k = next((i for i, (w, g) in enumerate(zip(want, got)) if w != g), min(len(want), len(got)))
    return say(f"first difference at position {k} of {len(want)} (got {len(got)} items); expected starts "
               f"{want[:16]}, got {got[:16]}",
               f"第一个不同在位置 {k}（共 {len(want)} 个，实际 {len(got)} 个）；应以 {want[:16]} 开头，实际是 {got[:16]}")


def test_matches_statement(entry):
    for sizes, b, seed, epoch in CASES:
        shards = make_shards(sizes)
        got = _call(entry, shards, b, seed, epoch)
        want = reference(shards, b, seed, epoch)
        assert got == want, say(
            f"shard sizes {sizes}, buffer_size={b}, seed={seed}, epoch={epoch}: {_first_difference(want, got)}"
            f"{diagnose(shards, b, seed, epoch, got)}",
            f"shard 大小 {sizes}，buffer_size={b}，seed={seed}，epoch={epoch}：{_first_difference(want, got)}"
            f"{diagnose(shards, b, seed, epoch, got)}",
        )


def test_is_a_permutation(entry):
    for sizes, b, seed in (([30, 0, 17, 25, 9], 8, 5), ([1] * 12, 3, 9), ([40], 64, 2)):
        shards = make_shards(sizes)
        got = _call(entry, shards, b, seed, 0)
        want = Counter(x for s in shards for x in s)
        have = Counter(got)
        missing, extra = sorted((want - have).elements()), sorted((have - want).elements())
        note = diagnose(shards, b, seed, 0, got) if missing else ""
        assert not missing and not extra, say(
            f"shard sizes {sizes}, buffer_size={b}: every item must come out exactly once; "
            f"missing {missing[:10]} ({len(missing)}), extra or repeated {extra[:10]} ({len(extra)}){note}",
            f"shard 大小 {sizes}，buffer_size={b}：每个样本必须恰好输出一次；"
            f"缺少 {missing[:10]}（{len(missing)} 个），多出或重复 {extra[:10]}（{len(extra)} 个）{note}",
        )


def test_deterministic_per_seed_and_epoch(entry):
    shards = make_shards([20, 15, 25, 10])
    for epoch in (0, 4):
        first = _call(entry, shards, 6, 13, epoch)
        second = _call(entry, shards, 6, 13, epoch)
        assert first == second, say(
            f"two calls with seed=13, epoch={epoch} gave different orders: every random choice must come from "
            f"random.Random(seed + epoch), not the module-level random functions (and do not change `shards`); "
            f"a resumed or re-run job must see the same order",
            f"seed=13、epoch={epoch} 的两次调用给出了不同的顺序：每个随机选择都必须来自 random.Random(seed + epoch)，"
            f"而不是模块级的 random 函数（也不要修改 `shards`）；恢复或重跑的作业必须看到相同的顺序",
        )


def test_seeds_and_epochs_differ(entry):
    shards = make_shards([12, 12, 12, 12, 12])
    base = _call(entry, shards, 8, 100, 0)
    other_seed = _call(entry, shards, 8, 101, 0)
    assert base != other_seed, say("seed 100 and seed 101 gave the same order: the seed must drive the shuffle",
                                   "seed 100 和 seed 101 给出了相同的顺序：打乱必须由 seed 决定")
    next_epoch = _call(entry, shards, 8, 100, 1)
    assert base != next_epoch, say(
        "epoch 0 and epoch 1 gave the same order: seed the generator with seed + epoch, otherwise every epoch "
        "repeats one order (what forgetting set_epoch does)",
        "epoch 0 和 epoch 1 给出了相同的顺序：生成器的种子应为 seed + epoch，否则每个 epoch 都重复同一个顺序"
        "（忘了 set_epoch 就是这个后果）",
    )


def test_buffer_bound(entry):
    """An item read at stream position p cannot come out before position p - (buffer_size - 1)."""
    sizes, b, seed = [9, 14, 6, 11, 8], 5, 21
    shards = make_shards(sizes)
    got = _call(entry, shards, b, seed, 0)
    order = list(range(len(shards)))
    _Random(seed).shuffle(order)
    stream = {x: p for p, x in enumerate(x for s in order for x in shards[s])}
    for k, x in enumerate(got):
        p = stream.get(x)
        assert p is None or k >= p - (b - 1), say(
            f"buffer_size={b}: item {x} is read at stream position {p} (shard order {order}) but came out at "
            f"position {k}, {p - k} places early; a buffer of {b} items can move an item at most {b - 1} places "
            f"earlier: it cannot emit what it has not read yet" + diagnose(shards, b, seed, 0, got),
            f"buffer_size={b}：样本 {x} 在数据流第 {p} 位被读入（shard 顺序 {order}），却在第 {k} 位输出，"
            f"提前了 {p - k} 位；{b} 个样本的 buffer 最多只能把样本提前 {b - 1} 位：它不能输出还没读入的样本"
            + diagnose(shards, b, seed, 0, got),
        )
