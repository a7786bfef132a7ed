"""The Chinese of 01_attention_by_hand's hidden checks: the texts its checks.py passes
to t(), and the names and hints of its mistakes and rules. Terms follow
autograder/i18n/GLOSSARY.md."""

CATALOG = {
    'scores of 1e4 must give finite weights (no nan, no inf)':
        '注意力分数达到 1e4 时，注意力权重仍须是有限值（不能出现 nan 或 inf）',
    'random case {number} ({n} queries, {seq} keys)':
        '随机用例 {number}（{n} 个查询，{seq} 个键）',
    '{example}: queries, keys and values': '{example}：查询、键和值',
    '{example}: scores of all three queries': '{example}：全部三个查询的注意力分数',
    '{example}: scores of query {query}': '{example}：查询 {query} 的注意力分数',
    '{example}: softmax of the scores': '{example}：注意力分数的 softmax',
    'scores of size 1e4': '量级为 1e4 的注意力分数',
    'random case {number} (dim left out)': '随机用例 {number}（不传 dim）',
    '{example}: weighted values (approximated attention weights)':
        '{example}：加权后的值向量（用近似注意力权重）',
    '{example}: outputs (approximated attention weights)': '{example}：输出（用近似注意力权重）',
    '{example}: output {number}': '{example}：输出 {number}',
    'random case {number} (dim={dim})': '随机用例 {number}（dim={dim}）',
    'weights applied from the left': '权重矩阵乘在了左边',
    'in the row convention each input is a row, so multiply x @ W, not W @ x':
        '在行约定下，每个输入是一行，所以应计算 x @ W，而不是 W @ x',
    'query and key weight matrices swapped': '查询和键的权重矩阵用反了',
    'queries come from W_query and keys from W_key; check the order you return':
        '查询由 W_query 得到，键由 W_key 得到；请检查返回值的顺序',
    'row i belongs to query i: compute queries @ keys^T, not keys @ queries^T':
        '第 i 行属于查询 i：应计算 queries @ keys^T，而不是 keys @ queries^T',
    'scores scaled too early': '过早地缩放了注意力分数',
    'keys.T on a batch': '对一批键用了 keys.T',
    'on a batch of keys .T reverses every dimension, not just the last two; write '
    'keys.transpose(-2, -1), which swaps only the key and feature dimensions':
        '对一批键，.T 会把所有维度倒过来，而不只是最后两个；请写 keys.transpose(-2, -1)，'
        '它只交换键所在的维度和特征维度',
    'this step returns the raw dot products; the 1/sqrt(d_k) comes later':
        '这一步返回未经缩放的点积；乘以 1/sqrt(d_k) 是后面步骤的事',
    'softmax without max-subtraction': 'softmax 没有先减去最大值',
    'exp of a large score overflows to inf and inf/inf is nan; subtract the maximum along dim '
    'first':
        '分数很大时 exp 会溢出成 inf，而 inf/inf 得到 nan；请先沿 dim 减去最大值',
    'take the maximum and the sum along `dim`, the dimension the caller names, not always the '
    'last one':
        '沿调用者指定的维度 `dim` 取最大值、求和，而不是总沿最后一个维度',
    'softmax over dim 0': 'softmax 沿第 0 维计算',
    'over dim 0, a row of one query\'s scores is normalised one number at a time, and every '
    'weight is 1: take the maximum and the sum along `dim` (-1, the last, when the caller names '
    'none)':
        '沿第 0 维计算时，一个查询的一行分数被逐个数字单独归一化，每个权重都是 1：应沿 `dim` '
        '取最大值、求和（调用者没有指定时为 -1，即最后一个维度）',
    'normalised over the whole tensor': '对整个张量做了归一化',
    'each slice along dim sums to 1 on its own; sum with keepdim=True along dim only':
        '沿 dim 的每个切片各自求和为 1；只沿 dim 求和，并设 keepdim=True',
    'scores clamped instead of shifted': '把分数截断了，而不是平移',
    'clamping the scores to a safe range changes the weights whenever two scores pass the bound '
    '(they tie); subtract the maximum along dim instead, which changes nothing mathematically':
        '把分数截断到一个“安全”范围，只要有两个分数超过边界（它们就相等了），权重就变了；'
        '应改为沿 dim 减去最大值，这在数学上不改变任何结果',
    'scores far from zero: two rows in the thousands, one positive, one negative (3 rows, 4 '
    'columns)':
        '远离 0 的分数：两行分数达到几千，一行为正，一行为负（3 行 4 列）',
    'no built-in softmax': '不用内置的 softmax',
    'this step is about writing softmax yourself, with torch.exp and a sum (torch.logsumexp '
    'counts as a built-in softmax: it is the log of softmax\'s denominator, computed stably '
    'for you)':
        '这一步就是要你用 torch.exp 和求和亲手写出 softmax（torch.logsumexp 也算内置的 softmax：'
        '它就是 softmax 分母的对数，而且已经替你做好了数值稳定）',
    'weights not transposed': '注意力权重没有转置',
    "element [j, i] uses weights[i, j]: key j's value times query i's weight for it":
        '元素 [j, i] 用的是 weights[i, j]：键 j 的值向量乘以查询 i 分给它的注意力权重',
    'row i of the weights belongs to query i: compute weights @ values':
        '注意力权重的第 i 行属于查询 i：应计算 weights @ values',
    # the hidden properties, in words (their docstrings' first line)
    'With dim=0, every column of weights sums to 1':
        '取 dim=0 时，每一列注意力权重之和都为 1',
    'Very large scores still give finite weights':
        '很大的注意力分数也得到有限的注意力权重',
    # the labels of its figures (figures.py)
    'each row':
        '逐行',
}
