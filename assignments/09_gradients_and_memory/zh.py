"""The Chinese of 09_gradients_and_memory's hidden checks: the texts its checks.py passes to
t(), and the names and hints of its mistakes and rules. Terms follow
autograder/i18n/GLOSSARY.md."""

CATALOG = {
    # softmax_backward
    '{what}: the dtype should be {dtype}, that of the inputs':
        '{what}：dtype 应为 {dtype}，与输入相同',
    'the gradient should have the shape of the weights': '梯度的形状应与注意力权重相同',
    'the gradient should predict how the loss changes when the scores move a little (a finite '
    'difference in float64)':
        '梯度应能预测分数稍作移动时损失的变化（float64 下的有限差分）',
    'adding a constant to the scores changes no weight, so the gradient should sum to 0 along '
    'dim':
        '给分数加上同一个常数不会改变任何注意力权重，所以梯度沿 dim 之和应为 0',
    'float64 weights of {batch} sequences ({n_query} queries, {n_key} keys), dim = -1':
        '{batch} 个序列的 float64 注意力权重（{n_query} 个查询，{n_key} 个键），dim = -1',
    'float32 weights ({n_query}, {n_key}) normalised along dim = 0':
        '沿 dim = 0 归一化的 float32 注意力权重 ({n_query}, {n_key})',
    'float64 weights of shape {shape} normalised along dim = 1':
        '形状为 {shape}、沿 dim = 1 归一化的 float64 注意力权重',
    "one query's weights over {n_key} keys (1-D)": '一个查询对 {n_key} 个键的注意力权重（一维）',
    "float64 weights of {rows} queries over {n_key} keys (the rule's shapes)":
        '{rows} 个查询各对 {n_key} 个键的 float64 注意力权重（规则所用的形状）',
    "float64 weights of shape {shape} normalised along dim = {dim} (larger than the rule's "
    "shapes)":
        '形状为 {shape}、沿 dim = {dim} 归一化的 float64 注意力权重（比规则所用的形状大）',
    "along dim = {dim}, the gradient should equal torch.autograd's":
        '沿 dim = {dim}，梯度应等于 torch.autograd 算出的梯度',
    'weighted sum not subtracted': '没有减去加权和',
    'every weight depends on every score: subtract sum(grad_weights * weights) along dim before '
    'multiplying by the weights':
        '每个注意力权重都依赖于每个分数：先沿 dim 减去 sum(grad_weights * weights)，'
        '再乘以注意力权重',
    'weights not multiplied in front': '前面没有乘以注意力权重',
    "the Jacobian's row j carries the factor weights[j]: multiply the bracket by the weights":
        '雅可比矩阵的第 j 行带有因子 weights[j]：要用注意力权重乘以括号里的量',
    'grad_weights summed without the weights': '对 grad_weights 求和时没有乘注意力权重',
    'the term to subtract is the weighted sum sum(grad_weights * weights), not the plain sum of '
    'grad_weights':
        '要减去的是加权和 sum(grad_weights * weights)，而不是 grad_weights 的普通求和',
    'sum over the last dim whatever dim says': '不管 dim 是什么都对最后一个维度求和',
    'the softmax normalised along dim: sum along that same dim (keepdim=True)':
        'softmax 是沿 dim 归一化的：求和也要沿同一个 dim（keepdim=True）',
    'sum over every entry': '对所有元素求和',
    'each softmax (each slice along dim) has its own weighted sum: sum along dim only, with '
    'keepdim=True':
        '每个 softmax（沿 dim 的每个切片）都有自己的加权和：只沿 dim 求和，并设 keepdim=True',
    'no autograd': '不用 autograd',
    'about one forward pass, in torch': '约一次前向传播的工作量，全用 torch 完成',
    'the chain rule gives the gradient for a few times the work of the forward pass, with '
    "torch's operations on whole tensors; differences of the loss, one entry at a time, or a "
    'whole Jacobian cost many times more':
        '链式法则只需前向传播几倍的工作量就能得到梯度，且全用 torch 对整个张量的运算完成；'
        '逐个元素对损失做差分，或构造整个雅可比矩阵，代价要高出许多倍',
    'write the gradient from the chain rule yourself; torch.autograd is what it is checked '
    'against':
        '请用链式法则自己写出梯度；torch.autograd 正是用来检验它的参照',
    # attention_backward
    'attention_backward should return three tensors: (grad_queries, grad_keys, grad_values)':
        'attention_backward 应返回三个张量：(grad_queries, grad_keys, grad_values)',
    '{name} should have the shape of its input': '{name} 的形状应与对应的输入相同',
    '{name} should predict how the loss changes when its input moves a little (a finite '
    'difference in float64)':
        '{name} 应能预测对应的输入稍作移动时损失的变化（float64 下的有限差分）',
    'float64, a batch of {batch} ({n_query} queries, {n_key} keys)':
        'float64，{batch} 个序列组成的一批（{n_query} 个查询，{n_key} 个键）',
    'float32, one sequence ({n_query} queries, {n_key} keys)':
        'float32，一个序列（{n_query} 个查询，{n_key} 个键）',
    'float64, {batch} sequences of {heads} heads ({n_query} queries, {n_key} keys)':
        'float64，{batch} 个序列，每个 {heads} 个头（{n_query} 个查询，{n_key} 个键）',
    "float64, one sequence ({n_query} queries, {n_key} keys: the rule's shapes)":
        'float64，一个序列（{n_query} 个查询，{n_key} 个键：规则所用的形状）',
    "float64, one sequence ({n_query} queries, {n_key} keys: larger than the rule's shapes)":
        'float64，一个序列（{n_query} 个查询，{n_key} 个键：比规则所用的形状大）',
    "{name} should equal torch.autograd's gradient through scaled_dot_product_attention":
        '{name} 应等于 torch.autograd 经过 scaled_dot_product_attention 算出的梯度',
    'no 1/sqrt(d_k) in the gradients': '梯度中缺少 1/sqrt(d_k)',
    'the scores are Q K^T / sqrt(d_k): the gradients of Q and K carry the factor 1/sqrt(d_k) '
    'too':
        '分数是 Q K^T / sqrt(d_k)：Q 和 K 的梯度也带有因子 1/sqrt(d_k)',
    'sqrt(d_v) instead of sqrt(d_k)': '用了 sqrt(d_v) 而不是 sqrt(d_k)',
    "d_k is the size of the queries and keys, the last dim of keys; d_v is the values'":
        'd_k 是查询和键的大小，即 keys 的最后一个维度；d_v 是值的大小',
    'grad_values with unnormalised weights': 'grad_values 用了未归一化的注意力权重',
    'context = weights @ values, so grad_values = weights^T @ grad_context with the softmax '
    'weights, not exp(scores)':
        'context = weights @ values，所以 grad_values = weights^T @ grad_context，'
        '用的是 softmax 之后的注意力权重，而不是 exp(scores)',
    'softmax backward skipped': '跳过了 softmax 的反向传播',
    'between the weights and the scores lies the softmax: pass grad_weights through its '
    'gradient (softmax_backward) before going on to Q and K':
        '注意力权重和分数之间隔着 softmax：先让 grad_weights 经过它的梯度（softmax_backward），'
        '再去求 Q 和 K 的梯度',
    'grad_keys unscaled': 'grad_keys 没有缩放',
    'queries and keys enter the scores alike, through Q K^T / sqrt(d_k): grad_keys carries the '
    'factor 1/sqrt(d_k) as grad_queries does':
        '查询和键以同样的方式进入分数，即 Q K^T / sqrt(d_k)：grad_keys 和 grad_queries '
        '一样带有因子 1/sqrt(d_k)',
    # online_attention
    'a batch of {batch}, {n_query} queries, {n_key} keys, block_size = {block_size} (does not '
    'divide n_keys)':
        '{batch} 个序列组成的一批，{n_query} 个查询，{n_key} 个键，block_size = {block_size}'
        '（不能整除 n_keys）',
    '{n_query} queries, {n_key} keys, block_size = {block_size} (two full blocks)':
        '{n_query} 个查询，{n_key} 个键，block_size = {block_size}（两个完整的块）',
    'a batch of {batch}, {n_query} queries, {n_key} keys, block_size = 1':
        '{batch} 个序列组成的一批，{n_query} 个查询，{n_key} 个键，block_size = 1',
    '{n_query} queries, {n_key} keys, block_size = {block_size} (larger than n_keys)':
        '{n_query} 个查询，{n_key} 个键，block_size = {block_size}（大于 n_keys）',
    'scores in the hundreds: a batch of {batch}, {n_query} queries, {n_key} keys, block_size = '
    '{block_size}':
        '分数达到几百：{batch} 个序列组成的一批，{n_query} 个查询，{n_key} 个键，'
        'block_size = {block_size}',
    "one query's scores in the hundreds, the others' small: a batch of {batch}, {n_query} "
    "queries, {n_key} keys, block_size = 2":
        '一个查询的分数达到几百，其余查询的分数很小：{batch} 个序列组成的一批，'
        '{n_query} 个查询，{n_key} 个键，block_size = 2',
    'every score of one query far below zero: {n_query} queries, {n_key} keys, block_size = 3':
        '一个查询的所有分数都远小于 0：{n_query} 个查询，{n_key} 个键，block_size = 3',
    'every score of one query near -10000 (exp of each is 0): {n_query} queries, {n_key} keys, '
    'block_size = 2':
        '一个查询的所有分数都在 -10000 左右（每个分数的 exp 都是 0）：{n_query} 个查询，'
        '{n_key} 个键，block_size = 2',
    'every score of one query from -25000 to -20000 (exp of each is 0): 3 queries, 5 keys, '
    'block_size = 2':
        '一个查询的所有分数都在 -25000 到 -20000 之间（每个分数的 exp 都是 0）：3 个查询，'
        '5 个键，block_size = 2',
    'with block_size = {block_size} and {n_key} keys, the output should equal '
    'torch.nn.functional.scaled_dot_product_attention':
        'block_size = {block_size}、{n_key} 个键时，输出应等于 '
        'torch.nn.functional.scaled_dot_product_attention 的结果',
    'with scores in the hundreds the output should stay finite: subtract the running max '
    'before exp':
        '分数达到几百时输出也应保持有限：在求 exp 之前减去当前最大值',
    'with scores in the hundreds, the output should still equal '
    'torch.nn.functional.scaled_dot_product_attention':
        '分数达到几百时，输出仍应等于 torch.nn.functional.scaled_dot_product_attention 的结果',
    'reordering the keys and values together should change nothing, whichever block each '
    'lands in':
        '把键和值一起打乱顺序，不管各自落在哪一块，输出都不应有任何变化',
    'old sum and context not rescaled': '没有重新缩放已有的和与上下文向量',
    'when a block raises the running max, what was summed so far was taken against the old max: '
    'multiply the running sum and the partial context by exp(old max - new max)':
        '某一块使当前最大值变大时，之前累加的量是相对于旧的最大值算的：'
        '要把累计和与部分上下文向量都乘以 exp(旧最大值 - 新最大值)',
    'context rescaled but not the running sum': '重新缩放了上下文向量，却没有缩放累计和',
    'the running sum is taken against the running max too: rescale it by the same factor as '
    'the partial context':
        '累计和也是相对于当前最大值算的：要用与部分上下文向量相同的因子重新缩放它',
    'last partial block dropped': '漏掉了最后一个不完整的块',
    'when block_size does not divide n_keys the last block is shorter; read it too (range(0, '
    'n_keys, block_size) and slices that stop at the end do that)':
        'block_size 不能整除 n_keys 时，最后一块较短；它也要读（range(0, n_keys, block_size) '
        '配合在末尾自动停下的切片就能做到）',
    'running max never updated': '从未更新当前最大值',
    'running max starts at a finite number': '当前最大值从一个有限的数开始',
    'start the running max at -inf: from a finite start such as -1e4, a query whose every score '
    'is below it subtracts the start, exp of each score is 0, and the output divides 0 by 0':
        '当前最大值要从 -inf 开始：若从 -1e4 这样的有限数开始，一个所有分数都比它小的查询减去的是'
        '这个起点，每个分数的 exp 都是 0，输出就成了 0 除以 0',
    'running max starts at 0': '当前最大值从 0 开始',
    'start the running max at -inf: from 0, a query whose every score is far below zero '
    'subtracts 0, exp of each score is 0, and the output divides 0 by 0':
        '当前最大值要从 -inf 开始：若从 0 开始，一个所有分数都远小于 0 的查询减去的是 0，'
        '每个分数的 exp 都是 0，输出就成了 0 除以 0',
    'after each block, the new max becomes the running max; otherwise every block rescales the '
    'earlier ones away':
        '每一块之后，新的最大值要成为当前最大值；否则每一块都会把之前的结果缩放成 0',
    'no division by the running sum': '没有除以累计和',
    "the partial context is a sum of exp(score - max) * value; divide it by the running sum at "
    "the end to get the softmax's weighted mean":
        '部分上下文向量是 exp(score - max) * value 之和；最后要除以累计和，'
        '才得到 softmax 的加权平均',
    'no 1/sqrt(d_k)': '缺少 1/sqrt(d_k)',
    'divide the scores by sqrt(d_k) before the softmax':
        '在 softmax 之前把注意力分数除以 sqrt(d_k)',
    'no operation forms every score at once': '任何运算都不一次算出全部分数',
    'the step is the loop that reads the keys and values one block at a time, in torch, so no '
    'operation makes every score at once (the numbers Python\'s objects and numpy\'s arrays '
    'hold count too), no softmax, sum or product spans more keys than a block, and no '
    'tensor\'s numbers go to numpy, where a buffer made before the call could hold every score '
    'unseen':
        '这一步就是在 torch 里每次读取一块键和值的那个循环，所以没有哪个运算会一次算出全部分数'
        '（Python 对象和 numpy 数组里存的数也算在内），没有哪个 softmax、求和或乘积覆盖的键多于'
        '一块，也没有张量的数交给 numpy：调用之前建好的缓冲区可以在评分程序看不到的地方装下全部'
        '分数',
    'many keys in blocks of 64: {n_query} queries, {n_key} keys':
        '键很多、每块 64 个：{n_query} 个查询，{n_key} 个键',
    'no built-in softmax or attention': '不用内置的 softmax 或注意力',
    'a built-in softmax or attention needs every score of a query at once; keep a running max '
    'and a running sum instead (torch.logsumexp counts as a built-in softmax)':
        '内置的 softmax 或注意力需要一次拿到一个查询的全部分数；请改为保存当前最大值和累计和'
        '（torch.logsumexp 也算内置的 softmax）',
    # cached_causal_attention
    'one sequence of {seq} positions': '一个序列，{seq} 个位置',
    'a long sequence of {seq} positions, d_in = {d_in}': '一个长序列，{seq} 个位置，d_in = {d_in}',
    'a batch of {batch} sequences of {seq} positions':
        '{batch} 个序列组成的一批，每个 {seq} 个位置',
    '{batch} sequences of {heads} heads, {seq} positions each':
        '{batch} 个序列，每个 {heads} 个头，每个 {seq} 个位置',
    'the output should equal torch.nn.functional.scaled_dot_product_attention with '
    'is_causal=True':
        '输出应等于 torch.nn.functional.scaled_dot_product_attention 在 is_causal=True 时的结果',
    'changing the last position should change no earlier output: a position sees only the '
    'cache so far':
        '改变最后一个位置，不应改变之前任何位置的输出：一个位置只能看到目前为止的缓存',
    'the first position sees only itself: its output is its own value':
        '第一个位置只能看到它自己：它的输出就是它自己的值',
    'whole sequence attended (no causality)': '对整个序列做了注意力（没有因果性）',
    'position t attends over the cache as it stands after t is appended: rows 0..t, never the '
    'positions after it':
        '位置 t 对追加了 t 之后的缓存做注意力：即第 0..t 行，绝不包括它后面的位置',
    'cache read one row short': '读缓存时少读了一行',
    "append position t's key and value before attending: the query of t attends over rows "
    "0..t, itself included (the first position sees only itself)":
        '先追加位置 t 的键和值，再做注意力：t 的查询对第 0..t 行做注意力，包括它自己'
        '（第一个位置只能看到它自己）',
    'only the newest value read': '只读了最新的值',
    'the output of position t is the weighted mean of every cached value, rows 0..t, not of '
    'the newest one':
        '位置 t 的输出是所有已缓存的值（第 0..t 行）的加权平均，而不只是最新的那个值',
    'decoding is the loop over positions, each attending over the cache so far':
        '解码就是对各个位置的循环，每个位置对目前为止的缓存做注意力',
    'no mask': '不加掩码',
    'no built-in attention': '不用内置的注意力',
    'the cache holds only the positions decoded so far, so there is no future to hide; attend '
    'over the cache with torch.softmax and @ (the grader judges this from the torch softmaxes, '
    'or sums you divide by, that your output depends on, and from the size of each operation: '
    "none may hold every position's score against every position; a normalisation computed "
    'outside torch is invisible to it)':
        '缓存里只有目前为止已解码的位置，没有需要掩码的未来；请用 torch.softmax 和 @ '
        '对缓存做注意力（评分程序依据的是你的输出用到的 torch softmax 或用作除数的求和，'
        '以及每个运算的大小：任何运算都不能容纳每个位置对每个位置的分数；'
        '在 torch 之外算的归一化它看不到）',
    # the hidden properties, in words (their docstrings' first line)
    "The gradient matches torch.autograd's":
        '梯度与 torch.autograd 算出的一致',
    'The gradient predicts how the loss changes when the scores move a little':
        '梯度能预测注意力分数稍有变化时损失的变化',
    "The gradient sums to 0 along the softmax's dimension":
        '梯度沿 softmax 所在的维度之和为 0',
    "Every gradient matches torch.autograd's":
        '每个梯度都与 torch.autograd 算出的一致',
    'Every gradient predicts how the loss changes when its input moves a little':
        '每个梯度都能预测对应输入稍有变化时损失的变化',
    "The output matches torch's scaled_dot_product_attention for any block size":
        '无论块大小如何，输出都与 torch 的 scaled_dot_product_attention 一致',
    'Scores in the hundreds still give a finite, correct output':
        '注意力分数上百时，输出仍然有限且正确',
    'Reordering the keys and values together changes nothing':
        '键和值一起打乱顺序，结果不变',
    "The output matches torch's causal scaled_dot_product_attention":
        '输出与 torch 带因果掩码的 scaled_dot_product_attention 一致',
    'No output depends on later positions':
        '任何输出都不依赖后面的位置',
    # the labels of its figures (figures.py)
    'block {number}':
        '第 {number} 块',
    'rescale: 0 (first block)':
        '缩放：0（第一块）',
    'rescale: exp({old} - {new})':
        '缩放：exp({old} - {new})',
    'after the last block: l = sum of exp(s - {largest}) over all ten scores = {total}\n'
    'and the context is c / l':
        '最后一块之后：l = 全部十个分数的 exp(s - {largest}) 之和 = {total}\n上下文向量为 c / l',
    'scores':
        '注意力分数',
    '{rows} row':
        '{rows} 行',
    '{rows} rows':
        '{rows} 行',
    'each step: project position t once, append its key and value,\n'
    'attend its query over rows 0..t of the cache (no mask)':
        '每一步：把位置 t 投影一次，把它的键和值追加进缓存，\n'
        '再让它的查询关注缓存的第 0..t 行（不用掩码）',
}
