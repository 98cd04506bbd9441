"""A plain model of block allocation (lowest free id first, heapq) and per-sequence contiguous caches to compare against."""

import heapq
import math

import torch

from quiz.grader.say import say

_Generator = torch.Generator
_rand = torch.rand
_cat = torch.cat
H, D = 2, 3


class Model:
    """What the block tables should be: the lowest free block id first, blocks taken only when a token needs one."""

    def __init__(self, num_blocks, block_size):
        self.bs, self.free, self.tables, self.lengths = block_size, list(range(num_blocks)), {}, {}
        self.keys, self.values = {}, {}

    def append(self, seq, k, v):
        table = self.tables.setdefault(seq, [])
        end = self.lengths.get(seq, 0) + k.shape[0]
        needed = math.ceil(end / self.bs) - len(table)
        if needed > len(self.free):
            return False
        table += [heapq.heappop(self.free) for _ in range(needed)]
        self.lengths[seq] = end
        self.keys.setdefault(seq, []).append(k)
        self.values.setdefault(seq, []).append(v)
        return True

    def free_seq(self, seq):
        for b in self.tables.pop(seq, []):
            heapq.heappush(self.free, b)
        self.lengths.pop(seq, None)
        self.keys.pop(seq, None)
        self.values.pop(seq, None)

    def slots(self, seq):
        table = self.tables.get(seq, [])
        return [table[t // self.bs] * self.bs + t % self.bs for t in range(self.lengths.get(seq, 0))]


class Run:
    """Drives the learner's cache and the model side by side with the same seeded keys and values."""

    def __init__(self, entry, num_blocks, block_size, seed):
        self.cache = entry(num_blocks, block_size, H, D, dtype=torch.float64)
        self.model = Model(num_blocks, block_size)
        self.gen = _Generator().manual_seed(seed)
        self.num_blocks, self.bs = num_blocks, block_size

    def append(self, seq, count):
        k = _rand(count, H, D, generator=self.gen, dtype=torch.float64)
        v = _rand(count, H, D, generator=self.gen, dtype=torch.float64)
        try:
            self.cache.append(seq, k, v)
        except MemoryError:
            raise AssertionError(say(
                f"append({seq!r}, {count} tokens) raised MemoryError, but {len(self.model.free)} of {self.num_blocks} "
                f"blocks should be free and {math.ceil((self.model.lengths.get(seq, 0) + count) / self.bs) - len(self.model.tables.get(seq, []))} "
                "are needed (n tokens need ceil(n / block_size) blocks)",
                f"append({seq!r}, {count} 个 token) 抛出了 MemoryError，但此时应有 {len(self.model.free)} 个空闲块（共 "
                f"{self.num_blocks} 个），只需要 {math.ceil((self.model.lengths.get(seq, 0) + count) / self.bs) - len(self.model.tables.get(seq, []))} "
                "个（n 个 token 需要 ceil(n / block_size) 个块）")) from None
        self.model.append(seq, k, v)

    def free(self, seq):
        self.cache.free(seq)
        self.model.free_seq(seq)

    def table(self, seq, when):
        got = self.cache.block_table(seq)
        assert isinstance(got, (list, tuple)), say(f"block_table should return a list of ints, got {type(got).__name__}",
                                                   f"block_table 应返回 int 列表，实际是 {type(got).__name__}")
        got = [int(b) for b in got]
        want = self.model.tables.get(seq, [])
        n = self.model.lengths.get(seq, 0)
        if got != want:
            hint = ""
            if len(got) == n // self.bs + 1 and len(want) == math.ceil(n / self.bs) and n % self.bs == 0:
                hint = say(" One block too many: a new block was taken as soon as the last one filled up (floor + 1 "
                           "instead of ceil); take a block only when a token has no room left.",
                           "多了一个块：最后一个块一写满就分配了新块（用了 floor + 1 而不是 ceil）；只有 token 放不下时才分配新块。")
            raise AssertionError(say(
                f"{when}: sequence {seq!r} holds {n} tokens with block_size {self.bs}, so its block table should be "
                f"{want} (ceil({n}/{self.bs}) = {len(want)} blocks, the lowest free ids first), got {got}.{hint}",
                f"{when}：序列 {seq!r} 有 {n} 个 token，block_size 为 {self.bs}，所以块表应为 {want}"
                f"（ceil({n}/{self.bs}) = {len(want)} 个块，先分配编号最小的空闲块），实际是 {got}。{hint}",
            ))

    def gathered(self, seq, when):
        got = self.cache.gather(seq)
        assert isinstance(got, (tuple, list)) and len(got) == 2, say("gather should return a pair (K, V)",
                                                                     "gather 应返回二元组 (K, V)")
        n = self.model.lengths[seq]
        for name, part, kept in (("K", got[0], self.model.keys[seq]), ("V", got[1], self.model.values[seq])):
            want = _cat(kept)
            assert isinstance(part, torch.Tensor) and tuple(part.shape) == (n, H, D), say(
                f"{when}: gather({seq!r}) should give {name} of shape ({n}, {H}, {D}), got "
                f"{tuple(part.shape) if isinstance(part, torch.Tensor) else type(part).__name__}",
                f"{when}：gather({seq!r}) 返回的 {name} 形状应为 ({n}, {H}, {D})，实际是 "
                f"{tuple(part.shape) if isinstance(part, torch.Tensor) else type(part).__name__}")
            wrong = [t for t in range(n) if not torch.equal(part[t].to(torch.float64), want[t])]
            if wrong:
                hint = ""
                if wrong[0] >= self.bs and all(t >= self.bs for t in wrong):
                    hint = say(" The first block reads back right and later ones do not: blocks of one sequence need "
                               "not sit next to each other, so look up block_table[t // block_size] for every token.",
                               "第一个块读回来是对的，后面的不对：同一序列的块不一定相邻，每个 token 都要查 "
                               "block_table[t // block_size]。")
                raise AssertionError(say(
                    f"{when}: gather({seq!r}) gives the wrong {name} for tokens {wrong[:6]} of {n} (block table "
                    f"{self.model.tables[seq]}, block_size {self.bs}; token t lives in block block_table[t // "
                    f"block_size] at offset t % block_size).{hint}",
                    f"{when}：gather({seq!r}) 返回的 {name} 在第 {wrong[:6]} 个 token（共 {n} 个）处不对（块表 "
                    f"{self.model.tables[seq]}，block_size {self.bs}；token t 存放在块 block_table[t // block_size] "
                    f"的偏移 t % block_size 处）。{hint}",
                ))

    def free_count(self, when, after_free=True):
        got = self.cache.num_free_blocks()
        want = len(self.model.free)
        assert got == want, say(
            f"{when}: num_free_blocks() should be {want} of {self.num_blocks}, got {got!r}"
            + (" (freed blocks were not returned to the free pool)" if after_free and isinstance(got, int) and got < want else ""),
            f"{when}：num_free_blocks() 应为 {want}（共 {self.num_blocks} 个），实际是 {got!r}"
            + ("（释放的块没有回到空闲池）" if after_free and isinstance(got, int) and got < want else ""))


def test_table_grows_one_block_per_block_size(entry):
    run = Run(entry, 10, 4, seed=1)
    for n in range(1, 10):
        run.append("a", 1)
        run.table("a", say(f"after decoding token {n} one at a time", f"逐个 decode 到第 {n} 个 token 之后"))


def test_prefill_spans_several_blocks(entry):
    run = Run(entry, 10, 4, seed=2)
    run.append("a", 10)
    run.table("a", say("after a prefill of 10 tokens", "prefill 10 个 token 之后"))
    run.gathered("a", say("after a prefill of 10 tokens", "prefill 10 个 token 之后"))
    run.append("a", 2)
    run.table("a", say("after 2 more tokens (12 in all)", "又加了 2 个 token（共 12 个）之后"))
    run.append("a", 1)
    run.table("a", say("after a 13th token", "加入第 13 个 token 之后"))
    run.gathered("a", say("after 13 tokens", "13 个 token 之后"))


def _interleave(run):
    run.append("a", 5)
    run.append("b", 3)
    run.append("a", 1)
    run.append("c", 6)
    for _ in range(3):
        run.append("b", 1)
    run.append("a", 4)
    run.append("c", 1)


def test_interleaved_sequences_gather_their_own_tokens(entry):
    run = Run(entry, 16, 2, seed=3)
    _interleave(run)
    when = say("three sequences appended in turn", "三个序列轮流追加之后")
    for seq in ("a", "b", "c"):
        run.table(seq, when)
    for seq in ("a", "b", "c"):
        run.gathered(seq, when)


def test_slot_mapping(entry):
    run = Run(entry, 16, 2, seed=4)
    _interleave(run)
    for seq in ("a", "b", "c"):
        got = run.cache.slot_mapping(seq)
        want = run.model.slots(seq)
        got = list(got) if isinstance(got, (list, tuple)) else got
        table = run.model.tables[seq]
        if got == [table[t // 2] + t % 2 for t in range(len(want))]:
            hint = say(" This is block + offset: the block id must be multiplied by block_size, or blocks overlap.",
                       "这是 block + offset：块号必须乘以 block_size，否则各块会互相重叠。")
        else:
            hint = ""
        assert got == want, say(
            f"slot_mapping({seq!r}) should be {want}: slot = block_table[t // block_size] * block_size + t % block_size "
            f"(block table {run.model.tables[seq]}, block_size 2); got {got}.{hint}",
            f"slot_mapping({seq!r}) 应为 {want}：slot = block_table[t // block_size] * block_size + t % block_size"
            f"（块表 {run.model.tables[seq]}，block_size 2）；实际是 {got}。{hint}")


def test_tokens_live_in_the_kv_cache_tensor(entry):
    run = Run(entry, 16, 2, seed=5)
    _interleave(run)
    kv = run.cache.kv_cache
    assert isinstance(kv, torch.Tensor) and tuple(kv.shape) == (2, 16, 2, H, D), say(
        f"kv_cache should stay one tensor of shape (2, num_blocks, block_size, H, D) = (2, 16, 2, {H}, {D}), got "
        f"{tuple(kv.shape) if isinstance(kv, torch.Tensor) else type(kv).__name__}",
        f"kv_cache 应始终是一个形状为 (2, num_blocks, block_size, H, D) = (2, 16, 2, {H}, {D}) 的 tensor，实际是 "
        f"{tuple(kv.shape) if isinstance(kv, torch.Tensor) else type(kv).__name__}")
    for seq in ("a", "b", "c"):
        keys, values = _cat(run.model.keys[seq]), _cat(run.model.values[seq])
        table = run.model.tables[seq]
        for t in range(keys.shape[0]):
            block, offset = table[t // 2], t % 2
            ok = torch.equal(kv[0, block, offset].to(torch.float64), keys[t]) and torch.equal(
                kv[1, block, offset].to(torch.float64), values[t])
            assert ok, say(
                f"token {t} of sequence {seq!r} should be stored at kv_cache[0 (K) / 1 (V), block {block}, offset {offset}] "
                f"(block table {table}, block_size 2), but it is not there",
                f"序列 {seq!r} 的第 {t} 个 token 应存放在 kv_cache[0 (K) / 1 (V), 块 {block}, 偏移 {offset}]"
                f"（块表 {table}，block_size 2），但那里不是它")


def test_free_returns_blocks_for_reuse(entry):
    run = Run(entry, 16, 2, seed=6)
    _interleave(run)
    run.free_count(say("with three sequences live", "三个序列都在时"), after_free=False)
    run.free("a")
    run.free_count(say("after free('a')", "free('a') 之后"))
    run.table("a", say("after free('a')", "free('a') 之后"))
    run.append("d", 7)
    run.table("d", say("a new sequence of 7 tokens after free('a')", "free('a') 后新序列写入 7 个 token"))
    run.gathered("d", say("a new sequence in reused blocks", "新序列使用回收的块"))
    run.gathered("c", say("after another sequence reused freed blocks", "另一个序列复用了释放的块之后"))
    for seq in ("b", "c", "d"):
        run.free(seq)
    run.free_count(say("after every sequence was freed", "所有序列都释放之后"))


def test_out_of_blocks_raises_and_changes_nothing(entry):
    run = Run(entry, 4, 2, seed=7)
    run.append("a", 6)
    gen = _Generator().manual_seed(70)
    k = _rand(3, H, D, generator=gen, dtype=torch.float64)
    try:
        run.cache.append("b", k, k)
        raised = False
    except MemoryError:
        raised = True
    assert raised, say("4 blocks of 2 tokens, 'a' holds 3 of them: appending 3 tokens to 'b' needs 2 blocks and "
                       "only 1 is free, so append should raise MemoryError",
                       "4 个 2-token 的块，'a' 占了 3 个：给 'b' 追加 3 个 token 需要 2 个块，只剩 1 个空闲，"
                       "所以 append 应抛出 MemoryError")
    got = run.cache.num_free_blocks()
    assert got == 1, say(f"the append that raised MemoryError must change nothing: 1 block should still be free, got {got!r} "
                         "(check the whole need before taking any block)",
                         f"抛出 MemoryError 的 append 不能改变任何状态：应仍有 1 个空闲块，实际是 {got!r}"
                         "（先确认需要的块数都够，再取块）")
    run.table("b", say("after the append that failed", "失败的 append 之后"))
    run.append("b", 2)
    run.table("b", say("after 2 tokens fit in the last free block", "2 个 token 放进最后一个空闲块之后"))
    run.gathered("b", say("after the failed append and a good one", "一次失败的 append 和一次成功的 append 之后"))
