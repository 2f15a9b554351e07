"""The median's sorting networks (generators/median_networks.h's, the Halide
side's) as graphs of min / max nodes, and their emission as TIR.

A network is built in Python (`Network`: each min or max a node, shared
nodes made once, padding with the largest value folded away), and only the
nodes that lead to the values a stage stores are emitted, in order, as
stores into a scratch array of the stage's sblock (`scratch[7] =
min(scratch[3], scratch[5]);` in the CUDA C), its elements reused as values
die. Emitted as values (`T.bind`, or T.min / T.max nested), a network is
either a chain of lets, which TVM 0.27 lowers in minutes, or expression
trees, exponentially many nodes at 7x7 (`Network.emit`).

The lists below are of node ids: sorted_list (Batcher's odd-even merge sort,
padded to a power of two), merged (two sorted lists), median3, and the
selections of a window whose columns (and rows) are sorted.
"""
from tvm.script import tirx as T


class Network:
    """Min/max nodes over leaves (PrimExprs), hash-consed, with TOP (a value
    above every sample, the padding of a list to a power of two) folded."""

    TOP = -1  # the node id of +infinity

    def __init__(self):
        self.nodes = []  # ("leaf", expr) | ("min" | "max", a, b)
        self._ids = {}

    def leaf(self, expr):
        self.nodes.append(("leaf", expr))
        return len(self.nodes) - 1

    def _op(self, kind, a, b):
        if a == b:
            return a
        if a == self.TOP or b == self.TOP:
            other = b if a == self.TOP else a
            return other if kind == "min" else self.TOP
        key = (kind, min(a, b), max(a, b))
        if key not in self._ids:
            self.nodes.append(key)
            self._ids[key] = len(self.nodes) - 1
        return self._ids[key]

    def min(self, a, b):
        return self._op("min", a, b)

    def max(self, a, b):
        return self._op("max", a, b)

    def _needed(self, outputs):
        """The nodes that lead to `outputs`, in order (a topological one)."""
        needed = [False] * len(self.nodes)
        stack = list(outputs)
        while stack:
            n = stack.pop()
            if n == self.TOP:
                raise ValueError("median network: an output is the padding")
            if not needed[n]:
                needed[n] = True
                if self.nodes[n][0] != "leaf":
                    stack += [self.nodes[n][1], self.nodes[n][2]]
        return [n for n in range(len(self.nodes)) if needed[n]]

    def slots(self, outputs):
        """({node: slot}, slot count): each needed node's element of a
        scratch array, a slot reused once its node's last reader is made
        (the outputs kept to the end): the array is as long as the most
        values live at once, not the network."""
        order = self._needed(outputs)
        last = {n: len(self.nodes) for n in outputs}
        for n in order:
            if self.nodes[n][0] != "leaf":
                for operand in self.nodes[n][1:]:
                    last[operand] = max(last.get(operand, n), n)
        slot, free, count = {}, [], 0
        for n in order:
            if self.nodes[n][0] != "leaf":
                for operand in set(self.nodes[n][1:]):
                    if last[operand] == n:
                        free.append(slot[operand])
            if free:
                slot[n] = free.pop()
            else:
                slot[n], count = count, count + 1
        return slot, count

    def emit(self, outputs, scratch, slot, op=None):
        """Emits (inside the current sblock) the nodes that lead to
        `outputs`, in order, each one store into its slot of `scratch` (a
        "local" array, registers once every index is a constant); returns
        the outputs' values. Stores, not `T.bind`: TVM 0.27's passes
        (SplitHostDevice) are slow on a chain of a few hundred nested lets
        (a 7x7 direct network's), and quick on stores.
        `op(kind, a, b)` makes a min or max (packed_op: two lanes a word);
        T.min / T.max if None."""
        for n in self._needed(outputs):
            node = self.nodes[n]
            if node[0] == "leaf":
                value = T.Cast(scratch.dtype, node[1])
            else:
                a, b = scratch[slot[node[1]]], scratch[slot[node[2]]]
                if op is not None:
                    value = op(node[0], a, b)
                else:
                    value = T.min(a, b) if node[0] == "min" else T.max(a, b)
            T.buffer_store(scratch, value, [slot[n]])
        return [scratch[slot[n]] for n in outputs]

    def count(self, outputs):
        """How many min/max nodes lead to `outputs` (the network's cost)."""
        seen, stack = set(), list(outputs)
        while stack:
            n = stack.pop()
            if n != self.TOP and n not in seen:
                seen.add(n)
                if self.nodes[n][0] != "leaf":
                    stack += [self.nodes[n][1], self.nodes[n][2]]
        return sum(1 for n in seen if self.nodes[n][0] != "leaf")


def packed_op(target):
    """min or max of each 16-bit lane of two uint32 words: on "cuda" the
    SIMD intrinsics __vminu2 / __vmaxu2 (one VIMNMX.U16x2 on sm_90, as the
    hand kernel hw_row_pairs uses), opaque calls; "portable" the same
    function lane by lane in TIR, for the CPU check."""
    def cuda(kind, a, b):
        return T.call_extern("uint32", f"__v{kind}u2", a, b)

    def portable(kind, a, b):
        f = T.min if kind == "min" else T.max
        low = f(T.bitwise_and(a, T.uint32(0xFFFF)), T.bitwise_and(b, T.uint32(0xFFFF)))
        high = f(T.shift_right(a, T.uint32(16)), T.shift_right(b, T.uint32(16)))
        return T.bitwise_or(low, T.shift_left(high, T.uint32(16)))
    return {"cuda": cuda, "portable": portable}[target]


# The networks of median_networks.h, on lists of node ids.

def compare_exchange(net, v, i, j):
    v[i], v[j] = net.min(v[i], v[j]), net.max(v[i], v[j])


def odd_even_merge_sort(net, v, sorted_runs=1):
    n = len(v)
    p = sorted_runs
    while p < n:
        k = p
        while k >= 1:
            j = k % p
            while j + k < n:
                for i in range(k):
                    if i + j + k >= n:
                        break
                    if (i + j) // (2 * p) == (i + j + k) // (2 * p):
                        compare_exchange(net, v, i + j, i + j + k)
                j += 2 * k
            k //= 2
        p *= 2


def next_power_of_two(n):
    p = 1
    while p < n:
        p *= 2
    return p


def sorted_list(net, v):
    if len(v) < 2:
        return list(v)
    n = len(v)
    v = list(v) + [Network.TOP] * (next_power_of_two(n) - n)
    odd_even_merge_sort(net, v)
    return v[:n]


def merged(net, a, b):
    if not a:
        return list(b)
    if not b:
        return list(a)
    n = len(a) + len(b)
    run = next_power_of_two(max(len(a), len(b)))
    v = list(a) + [Network.TOP] * (run - len(a)) + list(b) + [Network.TOP] * (run - len(b))
    odd_even_merge_sort(net, v, run)
    return v[:n]


def median3(net, a, b, c):
    return net.max(net.min(a, b), net.min(net.max(a, b), c))


def median_of_sorted_rows(net, rows, k):
    """rows[i][j]: the cell of row rank i, column rank j of a k x k window
    whose columns and rows are sorted; only the cells where neither
    (i+1)(j+1) nor (k-i)(k-j) exceeds m + 1 can be the median."""
    m = (k * k - 1) // 2
    candidates, below = [], 0
    for i in range(k):
        for j in range(k):
            if (i + 1) * (j + 1) <= m + 1 and (k - i) * (k - j) <= m + 1:
                candidates.append(rows[i][j])
            if (k - i) * (k - j) > m + 1:
                below += 1
    rank = m - below
    return sorted_list(net, candidates)[rank]


def median_of_sorted_columns(net, column, k):
    """The median of the k x k window whose columns are sorted: column(d, q)
    is rank q of the window's column d (0..k-1)."""
    if k == 3:
        max_of_min = net.max(net.max(column(0, 0), column(1, 0)), column(2, 0))
        med_of_med = median3(net, column(0, 1), column(1, 1), column(2, 1))
        min_of_max = net.min(net.min(column(0, 2), column(1, 2)), column(2, 2))
        return median3(net, max_of_min, med_of_med, min_of_max)
    rows = [sorted_list(net, [column(d, q) for d in range(k)]) for q in range(k)]
    return median_of_sorted_rows(net, rows, k)
