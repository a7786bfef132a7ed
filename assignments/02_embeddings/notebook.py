# %% [markdown]
# # Assignment 2: From words to vectors
#
# Attention works on vectors, but a sentence is a string. Before any attention can happen,
# each word has to become a row of numbers. This notebook builds that path in three short
# steps: a vocabulary that numbers the words, a function that turns a sentence into those
# numbers, and an embedding table that turns each number into a vector.
#
# **Where the examples come from.** The three sentences of this notebook, and the
# vocabularies, ids and embeddings printed for them, come from three worked examples in
# PyTorch whose authors are not named:
#
# - *Original self-attention: scaled-dot product attention*, notes with Chinese comments
#   that follow Sebastian Raschka's blog post on coding self-attention from scratch. They
#   embed "Life is short, eat dessert first" and go on to scaled dot-product attention with
#   one head and with several.
# - *自注意力机制* ("The self-attention mechanism"), a Jupyter notebook that takes
#   "The sun rises in the east" through the same steps and ends with a `SelfAttention`
#   module.
# - A notebook in two parts, *Scaled Dot Product Attention* and *Multi Head Attention*, on
#   "Life is short, eat dessert last", which follows Raschka's *Understanding and Coding the
#   Self-Attention Mechanism of Large Language Models From Scratch* and Vaswani et al.,
#   *Attention Is All You Need*.
#
# Every value they print for the steps of this notebook is printed here beside what your
# code gives, so you need none of them; the next assignments carry on with the same sentences.
#
# | step | you write | points |
# | --- | --- | --- |
# | 1 | `build_vocab`: number the distinct words of a sentence | 2 |
# | 2 | `encode`: a sentence as a tensor of word ids | 1 |
# | 3 | `embed`: ids to vectors with a seeded embedding table | 2 |
#
# **Total: {total_points} points.** Each step has a stub that raises `NotImplementedError`;
# replace the body with your code. The test cell after each stub runs a few public checks
# you can see; when you hand in, hidden checks with other sentences and sizes run as well,
# so make your code correct in general, not just for the examples.
#
# Conventions used in the whole course: vectors are **rows**, so a sentence of `seq` words
# embedded in `dim` numbers each is a tensor of shape `(seq, dim)`. Floating-point tensors
# are `float32`; ids are integers (`torch.long`).

# %% [markdown zh]
# # 作业 2：从词到向量
#
# 注意力处理的是向量，而句子是字符串。在做任何注意力计算之前，每个词都得先变成一行数字。本次作业分三小步搭出这条路：用词表给词编号，用一个函数把句子变成这些编号，再用嵌入表把每个编号变成一个向量。
#
# **资料来源。** 本次作业的三个句子，以及为它们打印出的词表、id 和嵌入，来自三份用 PyTorch 写的示例，都没有署作者名：
#
# - 《Original self-attention: scaled-dot product attention》：一份带中文注释的资料，参照 Sebastian Raschka 介绍如何从零实现自注意力的博客文章写成。它先把“Life is short, eat dessert first”变成嵌入，再讲单头和多头的缩放点积注意力。
# - 《自注意力机制》：一份 Jupyter 笔记本，让“The sun rises in the east”走完同样的步骤，最后写成一个 `SelfAttention` 模块。
# - 一份分为《Scaled Dot Product Attention》和《Multi Head Attention》两部分的笔记本，例句是“Life is short, eat dessert last”，参照的是 Raschka 的《Understanding and Coding the Self-Attention Mechanism of Large Language Models From Scratch》以及 Vaswani 等人的《Attention Is All You Need》。
#
# 这些资料在本次作业各步骤中打印的每个数值，这里都会与你的代码结果并排打印出来，所以你不需要阅读其中任何一份；后面几次作业会继续使用这些句子。
#
# | 步骤 | 你要写的函数 | 分值 |
# | --- | --- | --- |
# | 1 | `build_vocab`：给句子中互不相同的词编号 | 2 |
# | 2 | `encode`：把句子变成由词元 id 组成的张量 | 1 |
# | 3 | `embed`：用设定了随机种子的嵌入表把 id 变成向量 | 2 |
#
# **总分：{total_points} 分。** 每一步都有一个待完成的函数，它的函数体只会抛出 `NotImplementedError`；请把函数体换成你自己的代码。每个函数后面的测试单元格会运行几项你能看到的公开测试；提交之后，还会用其他句子和尺寸运行隐藏检查，所以你的代码必须在一般情况下都正确，而不只是对这几个例子正确。
#
# 全课程通用的约定：向量是**行向量**，所以一个有 `seq` 个词、每个词嵌入为 `dim` 个数的句子，是形状为 `(seq, dim)` 的张量。浮点张量都是 `float32`；id 是整数（`torch.long`）。

# %% setup
import string
import unicodedata

import torch
from torch import nn

# %% checks

# %% [markdown]
# ## The running examples
#
# Three short sentences come back again and again in this course:
#
# - "Life is short, eat dessert first"
# - "The sun rises in the east"
# - "Life is short, eat dessert last"
#
# The first and the last differ in a single word, which makes it easy to watch how one
# changed word moves the ids of the others. The middle one contains both "The" and "the": to
# a computer these are two different strings, and we will keep them apart.
#
# ## Step 0 (given): splitting a sentence into words
#
# A word should not change because a comma happens to follow it: "short," and "short" are
# the same word. The helper below, which you do not have to write, deletes every character
# listed in `string.punctuation` (commas, full stops, question marks and so on) and every
# other character Unicode classes as punctuation (the Chinese ，。！？、「」, the ellipsis …,
# the guillemets « »), and then splits on white space. It leaves capital letters and other
# symbols (€, +) alone. Both of your first two functions should call it:
#
# ```python
# >>> split_words("Life is short, eat dessert first")
# ['Life', 'is', 'short', 'eat', 'dessert', 'first']
# >>> split_words("«Life» is short… eat dessert！")
# ['Life', 'is', 'short', 'eat', 'dessert']
# ```

# %% [markdown zh]
# ## 贯穿全课程的例句
#
# 本课程会反复用到三个短句：
#
# - “Life is short, eat dessert first”
# - “The sun rises in the east”
# - “Life is short, eat dessert last”
#
# 第一句和最后一句只差一个词，正好可以观察改动一个词会怎样改变其他词的 id。中间那句同时包含“The”和“the”：对计算机来说这是两个不同的字符串，我们也把它们当作两个词。
#
# ## 第 0 步（已给出）：把句子切分成词
#
# 一个词不应该因为后面恰好跟着逗号就变成另一个词：“short,”和“short”是同一个词。下面这个辅助函数不需要你来写：它删除 `string.punctuation` 中列出的每个字符（逗号、句点、问号等），以及 Unicode 归为标点的其他所有字符（例如中文的“，。！？、「」”、省略号“…”、法语引号“« »”），然后按空白切分。大写字母和其他符号（€、+）保持不变。你要写的前两个函数都应该调用它：
#
# ```python
# >>> split_words("Life is short, eat dessert first")
# ['Life', 'is', 'short', 'eat', 'dessert', 'first']
# >>> split_words("«Life» is short… eat dessert！")
# ['Life', 'is', 'short', 'eat', 'dessert']
# ```

# %% given split_words

# %% strings zh
{
    "The sentence's words: punctuation removed, split on white space.":
        "句子中的词：先去掉标点，再按空白切分。",
    "Punctuation is every character of string.punctuation and every character Unicode counts\n"
    "    as punctuation (its category starts with P), so ，。！？、「」 and … go too.":
        "标点指 string.punctuation 中的每个字符，以及 Unicode 归为标点的每个字符\n"
        "    （类别以 P 开头），所以 ，。！？、「」 和 … 也会被去掉。",
}

# %% [markdown]
# ## Step 1: a vocabulary
#
# A vocabulary is a dictionary from each distinct word to a whole number, its **id**. Real
# models use vocabularies of tens of thousands of words built from a large text collection.
# We keep things small and build it from the one sentence at hand.
#
# Which word gets which number? Any fixed rule would do, but everybody has to use the same
# one, or the ids (and everything computed from them later) will not match. Ours:
#
# **Rule for this step:** take the words given by `split_words`, keep each distinct word
# once, sort them with Python's own `sorted` (no `key`, no lower-casing), and number them
# 0, 1, 2, ... in that order.
#
# Python compares strings character by character by their code points, and every capital
# letter comes before every lower-case letter. So "Life" sorts before "dessert", and "The"
# before "east". For the first sentence the order is Life, dessert, eat, first, is, short,
# so "Life" gets id 0 and "short" gets id 5. Notice that the order in which the words
# appear in the sentence plays no role at all.

# %% [markdown zh]
# ## 第 1 步：词表
#
# 词表是一个字典，把每个不同的词映射到一个整数，也就是它的 **id**。真实的模型使用从大量文本中建立的词表，往往有几万个词。我们从简：只用手头这一个句子来建立词表。
#
# 哪个词对应哪个编号？任何固定的规则都行，但大家必须用同一条规则，否则 id（以及后面用它们算出的一切）就对不上。我们的规则是：
#
# **本步规则：** 取 `split_words` 给出的词，每个不同的词只保留一次，用 Python 自带的 `sorted` 排序（不加 `key`，也不转成小写），然后按这个顺序依次编号为 0、1、2……
#
# Python 逐个字符地按码位比较字符串，而每个大写字母都排在每个小写字母之前。所以“Life”排在“dessert”前面，“The”排在“east”前面。第一个句子的顺序是 `Life`、`dessert`、`eat`、`first`、`is`、`short`，因此“Life”的 id 是 0，“short”的 id 是 5。注意：词在句子中出现的先后顺序对编号毫无影响。

# %% solution build_vocab

# %% strings zh
{
    "Number the sentence's distinct words in Python's sort order, from 0.":
        "按 Python 的排序顺序给句子中互不相同的词编号，从 0 开始。",
    "Capitals sort before lower case ('Life' < 'dessert'), as ``sorted`` does.":
        "与 ``sorted`` 一样，大写字母排在小写字母之前（'Life' < 'dessert'）。",
    "Returns a dict word -> id.": "返回一个 dict：词 -> id。",
}

# %% tests build_vocab points=2
vocab = build_vocab("Bob saw Alice, Alice saw Bob.")
assert isinstance(vocab, dict), (
    f"build_vocab should return a dict, but it returned a {type(vocab).__name__}"
)
assert "Alice," not in vocab and "Bob." not in vocab, (
    f"punctuation kept: {vocab} has words with punctuation attached; use split_words"
)
assert vocab != {"Bob": 0, "saw": 1, "Alice": 2}, (
    "unsorted vocabulary: the words are numbered in the order they appear; sort them first"
)
assert vocab == {"Alice": 0, "Bob": 1, "saw": 2}, (
    f"expected {{'Alice': 0, 'Bob': 1, 'saw': 2}}, got {vocab}"
)
wide = build_vocab("「Bob」 saw Alice， Alice saw Bob。")
assert wide == {"Alice": 0, "Bob": 1, "saw": 2}, (
    f"Unicode punctuation (「」，。) is punctuation too; use split_words; got {wide}")
mixed = build_vocab("the cat saw The Dog")
assert mixed == {"Dog": 0, "The": 1, "cat": 2, "saw": 3, "the": 4}, (
    f"capitals sort before lower case and 'The' and 'the' are two words; got {mixed}"
)

# %% strings zh
{
    "build_vocab should return a dict, but it returned a {type(vocab).__name__}":
        "build_vocab 应当返回 dict，实际返回的是 {type(vocab).__name__}",
    "punctuation kept: {vocab} has words with punctuation attached; use split_words":
        "标点没有去掉：{vocab} 中有带着标点的词；请使用 split_words",
    "unsorted vocabulary: the words are numbered in the order they appear; sort them first":
        "词表没有排序：词是按出现的先后编号的；请先排序",
    "expected {{'Alice': 0, 'Bob': 1, 'saw': 2}}, got {vocab}":
        "应为 {{'Alice': 0, 'Bob': 1, 'saw': 2}}，实际为 {vocab}",
    "Unicode punctuation (「」，。) is punctuation too; use split_words; got {wide}":
        "Unicode 标点（「」，。）也是标点；请使用 split_words；实际得到 {wide}",
    "capitals sort before lower case and 'The' and 'the' are two words; got {mixed}":
        "大写字母排在小写字母之前，而且 'The' 和 'the' 是两个不同的词；实际得到 {mixed}",
    # data kept in English: the sentences the functions read
    '"Bob saw Alice, Alice saw Bob."': '"Bob saw Alice, Alice saw Bob."',
    '"the cat saw The Dog"': '"the cat saw The Dog"',
}

# %% code
# Each sentence's vocabulary: as its source printed it, then from your build_vocab.
printed_vocabularies = {
    "Life is short, eat dessert first":
        {{documents.DOC000_VOCAB}},
    "The sun rises in the east":
        {{documents.DOC001_VOCAB}},
    "Life is short, eat dessert last":
        {{documents.DOC002_VOCAB}},
}
for sentence, printed in printed_vocabularies.items():
    print(repr(sentence))
    print("  printed in its source:", printed)
    print("  your build_vocab:     ", build_vocab(sentence))

# %% strings zh
{
    "# Each sentence's vocabulary: as its source printed it, then from your build_vocab.":
        "# 每个句子的词表：先是资料打印的，再是你的 build_vocab 给出的。",
    '"  printed in its source:"': '"  资料中的结果："',
    '"  your build_vocab:     "': '"  你的代码结果："',
    # data kept in English: the documents' sentences
    '"Life is short, eat dessert first"': '"Life is short, eat dessert first"',
    '"The sun rises in the east"': '"The sun rises in the east"',
    '"Life is short, eat dessert last"': '"Life is short, eat dessert last"',
}

# %% [markdown]
# ## Step 2: a sentence as ids
#
# With a vocabulary in hand, a sentence becomes the list of its words' ids, in the order the
# words appear. We store it as a tensor of integers (`dtype=torch.long`), the type PyTorch
# expects for indices. "Life is short, eat dessert first" has six words, so its ids form a
# tensor of shape `(6,)`; the first entry is 0, because "Life" has id 0.
#
# The vocabulary you are given may hold more words than the sentence, so look each word up
# in it rather than building a new one. A word that is not in the vocabulary has no id: in
# that case raise a `KeyError` whose message names the word (a plain dictionary lookup
# `vocab[word]` already does exactly that).

# %% [markdown zh]
# ## 第 2 步：把句子变成 id
#
# 有了词表，句子就变成了其中各个词的 id 组成的列表，顺序与词在句中出现的顺序相同。我们把它存成整数张量（`dtype=torch.long`），这是 PyTorch 对索引要求的类型。“Life is short, eat dessert first”有六个词，所以它的 id 构成形状为 `(6,)` 的张量；第一个元素是 0，因为“Life”的 id 是 0。
#
# 传进来的词表可能比句子包含更多的词，所以要在这个词表里查每个词，而不是重新建一个词表。不在词表中的词没有 id：这时要抛出 `KeyError`，并在消息里写出这个词（直接用字典查找 `vocab[word]` 恰好就会这样做）。

# %% solution encode

# %% strings zh
{
    "The id of each word of the sentence, in order, as a LongTensor of shape (seq,).":
        "句子中每个词的 id，按原来的顺序组成形状为 (seq,) 的 LongTensor。",
    "An unknown word raises KeyError naming the word.":
        "遇到词表里没有的词时抛出 KeyError，并在消息中写出这个词。",
    "the word {word!r} is not in the vocabulary": "词 {word!r} 不在词表中",
}

# %% tests encode points=1
vocab = {"Alice": 0, "Bob": 1, "saw": 2}
ids = encode("Alice saw Bob!", vocab)
expect_tensor(ids, (3,), "the ids of 'Alice saw Bob!'", dtype=torch.long)
assert ids.tolist() == [0, 2, 1], f"expected the ids [0, 2, 1], got {ids.tolist()}"
repeated = encode("Bob saw Bob", vocab)
assert repeated.tolist() == [1, 2, 1], (
    f"expected [1, 2, 1] (the ids of the vocabulary you are given), got {repeated.tolist()}"
)
try:
    encode("Alice saw Carol", vocab)
except KeyError as error:
    assert "Carol" in str(error), f"the KeyError should name the unknown word; it says {error}"
else:
    raise AssertionError("'Carol' is not in the vocabulary: encode should raise a KeyError")

# %% strings zh
{
    "\"the ids of 'Alice saw Bob!'\"": "\"'Alice saw Bob!' 的 id\"",
    "expected the ids [0, 2, 1], got {ids.tolist()}": "id 应为 [0, 2, 1]，实际为 {ids.tolist()}",
    "expected [1, 2, 1] (the ids of the vocabulary you are given), got {repeated.tolist()}":
        "应为 [1, 2, 1]（即所给词表中的 id），实际为 {repeated.tolist()}",
    "the KeyError should name the unknown word; it says {error}":
        "KeyError 的消息应当写出那个未知的词；它现在是 {error}",
    "'Carol' is not in the vocabulary: encode should raise a KeyError":
        "'Carol' 不在词表中：encode 应当抛出 KeyError",
    # data kept in English: the sentences encode reads
    '"Bob saw Bob"': '"Bob saw Bob"',
    '"Alice saw Carol"': '"Alice saw Carol"',
}

# %% code
# Each sentence's ids: as its source printed them, then from your encode.
printed_ids = {
    "Life is short, eat dessert first": {{documents.DOC000_IDS}},
    "The sun rises in the east": {{documents.DOC001_IDS}},
    "Life is short, eat dessert last": {{documents.DOC002_IDS}},
}
for sentence, printed in printed_ids.items():
    print(repr(sentence))
    print("  printed in its source:", torch.tensor(printed))
    print("  your encode:          ", encode(sentence, build_vocab(sentence)))

# %% strings zh
{
    "# Each sentence's ids: as its source printed them, then from your encode.":
        "# 每个句子的 id：先是资料打印的，再是你的 encode 给出的。",
    '"  printed in its source:"': '"  资料中的结果："',
    '"  your encode:          "': '"  你的代码结果："',
    # data kept in English: the documents' sentences
    '"Life is short, eat dessert first"': '"Life is short, eat dessert first"',
    '"The sun rises in the east"': '"The sun rises in the east"',
    '"Life is short, eat dessert last"': '"Life is short, eat dessert last"',
}

# %% [markdown]
# ## Step 3: ids to vectors
#
# An embedding is a table with one row per word of the vocabulary, `vocab_size` rows of
# `dim` numbers each. Embedding a sentence just means looking up the row of each of its ids:
# ids of shape `(seq,)` give vectors of shape `(seq, dim)`. (It is the same as multiplying a
# one-hot vector by the table, without ever building the one-hot vector.)
#
# ![Each token id of a sentence picks one row of the embedding table](figure:embedding_lookup)
#
# PyTorch's `nn.Embedding(vocab_size, dim)` is such a table. It fills itself with random
# numbers from a standard normal distribution **at the moment it is created**; during
# training those numbers would be learned. Calling the module on a tensor of ids returns the
# rows.
#
# Random numbers make results hard to compare, so we fix them: `torch.manual_seed(seed)`
# resets PyTorch's random number generator, and the same seed gives the same table **of the
# same shape**. The shape matters even though only the looked-up rows are ever used: it
# decides which random numbers those rows receive, so under one seed `nn.Embedding(6, 3)`
# and `nn.Embedding(50_000, 3)` give different rows for the same ids (the section after the
# tests shows why). Pass the real `vocab_size`, however few of its rows the sentence uses.
#
# **Rule for this step:** call `torch.manual_seed(seed)` first, *then* create
# `nn.Embedding(vocab_size, dim)`, look up the ids and return the result `.detach()`ed. The
# vectors are input data for the next assignments, not parameters we want to train here, so
# they should carry no gradient history.

# %% [markdown zh]
# ## 第 3 步：把 id 变成向量
#
# 嵌入表就是一张表，词表里的每个词占一行，共 `vocab_size` 行，每行 `dim` 个数。把句子嵌入，就是查出它每个 id 对应的那一行：形状为 `(seq,)` 的 id 得到形状为 `(seq, dim)` 的向量。（这相当于用独热向量去乘这张表，只是从来不必真的构造独热向量。）
#
# ![句子先变成词元 id，每个 id 取出嵌入表中对应的一行](figure:embedding_lookup)
#
# PyTorch 的 `nn.Embedding(vocab_size, dim)` 就是这样一张表。它在**创建的那一刻**就用标准正态分布的随机数把自己填满；训练时这些数会被学习更新。用一个 id 张量调用这个模块，返回的就是对应的各行。
#
# 随机数让结果难以比较，所以我们把它固定下来：`torch.manual_seed(seed)` 会重置 PyTorch 的随机数生成器，同一个种子总是给出**同样形状下**同样的表。虽然真正用到的只有被查到的那几行，但表的形状依然要紧：它决定了这些行拿到哪些随机数。所以在同一个种子下，`nn.Embedding(6, 3)` 和 `nn.Embedding(50_000, 3)` 为同样的 id 给出的行并不相同（测试之后的一节会说明原因）。无论句子只用到其中多少行，都要传入真实的 `vocab_size`。
#
# **本步规则：** 先调用 `torch.manual_seed(seed)`，**然后**再创建 `nn.Embedding(vocab_size, dim)`，查出这些 id 对应的行，并返回 `.detach()` 之后的结果。这些向量是后面几次作业的输入数据，而不是我们要在这里训练的参数，所以不应带有梯度记录。

# %% solution embed

# %% strings zh
{
    "Look the ids up in a freshly seeded embedding table.":
        "在刚设定过随机种子的嵌入表中查出这些 id 对应的行。",
    "PyTorch's generator is seeded with `seed` before the table nn.Embedding(vocab_size, dim)\n"
    "    is made, so that a seed always draws the same table of a given shape.":
        "先用 `seed` 设定 PyTorch 随机数生成器的种子，再创建嵌入表\n"
        "    nn.Embedding(vocab_size, dim)，这样（形状相同时）同一个种子总是抽出同一张表。",
    "token_ids: (seq,). Returns (seq, dim), detached.":
        "token_ids：(seq,)。返回 (seq, dim)，已 detach。",
}

# %% tests embed points=2
torch.manual_seed(0)  # pretend some other random numbers were drawn before
vectors = embed(torch.tensor([2, 0]), 3, 2)
expect_tensor(vectors, (2, 2), "embed(tensor([2, 0]), vocab_size=3, dim=2)")
assert not vectors.requires_grad, "the vectors should be detached (requires_grad False)"
expect_close(vectors, [[-1.1969, 0.2093], [-0.1115, 0.1204]],
             "rows 2 and 0 of the seed-123 table of 3 rows and 2 columns",
             mistakes=[("embedding made before seeding",
                        [[-1.0845, -1.3986], [1.5410, -0.2934]])])
other_seed = embed(torch.tensor([2, 0]), 3, 2, seed=7)
assert not torch.allclose(other_seed, vectors), "a different seed should give a different table"
expect_tensor(embed(torch.tensor([0, 4, 5, 2, 1, 3]), 6, 16), (6, 16), "the (6, 16) embedding")

# %% strings zh
{
    "# pretend some other random numbers were drawn before": "# 假设之前已经抽过别的随机数",
    "the vectors should be detached (requires_grad False)":
        "返回的向量应当已经 detach（requires_grad 为 False）",
    '"rows 2 and 0 of the seed-123 table of 3 rows and 2 columns"':
        '"种子为 123 的 3 行 2 列嵌入表中下标为 2 和 0 的两行"',
    "a different seed should give a different table": "换一个种子应当得到不同的嵌入表",
    '"the (6, 16) embedding"': '"形状为 (6, 16) 的嵌入"',
}

# %% [markdown]
# ## The three sentences, embedded
#
# Each source embeds its sentence with seed 123 in a table of its own size: the two
# "dessert" sentences in `nn.Embedding(6, 16)`, six rows of 16 numbers, and the sun sentence
# in `nn.Embedding(50_000, 3)`, a table the size of a real model's vocabulary, 50 000 rows
# of 3 numbers, of which the sentence uses only six. The
# cell below prints each embedding as its source printed it, then as your functions make
# it; each row is one word, in the order of the sentence.
#
# Compare the two "dessert" sentences. Their tables are the same (same seed, same shape),
# yet the row of "is" changes: with "first", the sorted words give "is" id 4, with "last"
# they give it id 3, and row 3 of the table is the row "first" had. The table knows ids,
# not words.

# %% [markdown zh]
# ## 三个句子的嵌入
#
# 每份资料都用种子 123、按各自的尺寸建表来嵌入它的句子：两个“dessert”句子用 `nn.Embedding(6, 16)`，即 6 行、每行 16 个数；太阳那句用 `nn.Embedding(50_000, 3)`，一张与真实模型词表同样大小的表，有 50 000 行、每行 3 个数，这句话只用到其中 6 行。下面的单元格先打印资料打印的嵌入，再打印你的函数算出的嵌入；每一行对应一个词，顺序与句中相同。
#
# 比较两个“dessert”句子：它们的嵌入表完全相同（种子相同，形状也相同），但“is”的那一行变了。句子以“first”结尾时，排序后“is”的 id 是 4；换成“last”后，它的 id 变成 3，而表中下标为 3 的那一行正是原来“first”的那一行。嵌入表只认 id，不认词。

# %% code
# Each sentence embedded with its source's table under seed 123: as the source printed it,
# then from your functions. Each entry: the table's size (vocab_size, dim), then the rows.
printed_embeddings = {
    "Life is short, eat dessert first": (
        (6, 16),
        {{documents.DOC000_EMBEDDING}}),
    "The sun rises in the east": (
        (50_000, 3),
        {{documents.DOC001_EMBEDDING}}),
    "Life is short, eat dessert last": (
        (6, 16),
        {{documents.DOC002_EMBEDDING}}),
}
for sentence, ((vocab_size, dim), printed) in printed_embeddings.items():
    print(f"{sentence!r} in nn.Embedding({vocab_size}, {dim}), printed in its source:")
    print(torch.tensor(printed))
    print("from your build_vocab, encode and embed:")
    print(embed(encode(sentence, build_vocab(sentence)), vocab_size, dim))
    print()

# %% strings zh
{
    "# Each sentence embedded with its source's table under seed 123: as the source printed it,\n"
    "# then from your functions. Each entry: the table's size (vocab_size, dim), then the rows.":
        "# 用各份资料的嵌入表（种子 123）嵌入每个句子：先是资料打印的，再是你的函数算出的。\n"
        "# 每一项先给出表的大小 (vocab_size, dim)，再给出各行。",
    "in nn.Embedding({vocab_size}, {dim}), printed in its source:":
        "在 nn.Embedding({vocab_size}, {dim}) 中的嵌入（资料打印的）：",
    '"from your build_vocab, encode and embed:"': '"你的 build_vocab、encode 和 embed 算出的："',
    # data kept in English: the documents' sentences
    '"Life is short, eat dessert first"': '"Life is short, eat dessert first"',
    '"The sun rises in the east"': '"The sun rises in the east"',
    '"Life is short, eat dessert last"': '"Life is short, eat dessert last"',
}

# %% [markdown]
# ## Why the table's shape matters
#
# Only the looked-up rows are ever used, yet the whole table is drawn, and its shape decides
# what those rows hold. Two facts about how PyTorch (2.13, on the CPU) fills a table with
# normal random numbers, the way `nn.Embedding` fills itself:
#
# 1. **The table is filled row after row from one stream of numbers.** With `dim` numbers
#    per row, row $r$ holds numbers $r \cdot \text{dim}$ to $r \cdot \text{dim} + \text{dim} - 1$
#    of the stream. Change `dim`, and every row after the first starts at another place.
# 2. **The numbers are made in blocks of 16.** When the table's size,
#    `vocab_size * dim`, is not a multiple of 16, the last 16 numbers are made a second
#    time from fresh random draws; a table of fewer than 16 numbers is filled one number at
#    a time by another method altogether. So the number of rows matters too.
#
# Under seed 123, `nn.Embedding(50_000, 3)` (150 000 numbers) and `nn.Embedding(6, 16)`
# (96 numbers) both have a size divisible by 16, so they start with the same stream: every
# number of the sun sentence's six rows above appears in the rows of "Life" and "dessert"
# of the (6, 16) table. `nn.Embedding(6, 3)` has 18 numbers, remakes its last 16, and shares
# only its first two numbers with them. The cell below prints the first six numbers of each
# table.

# %% [markdown zh]
# ## 为什么表的形状要紧
#
# 真正用到的只有被查到的那几行，但整张表都会被抽出来，而表的形状决定了这些行里装的是什么。关于 PyTorch（2.13 版，在 CPU 上）怎样用正态随机数填满一张表（`nn.Embedding` 正是这样填充自己的），有两点事实：
#
# 1. **表按行依次从同一串随机数中取值。** 每行有 `dim` 个数时，下标为 $r$ 的行装的是这串数中下标从 $r \cdot \text{dim}$ 到 $r \cdot \text{dim} + \text{dim} - 1$ 的数。改变 `dim`，第一行之后的每一行都会从别的位置开始取。
# 2. **随机数以 16 个为一组生成。** 如果表的大小 `vocab_size * dim` 不是 16 的倍数，最后 16 个数会用新抽取的随机数重新生成一遍；不足 16 个数的表则完全换用另一种方法，一个一个地生成。所以行数同样要紧。
#
# 在种子 123 下，`nn.Embedding(50_000, 3)`（150 000 个数）和 `nn.Embedding(6, 16)`（96 个数）的大小都能被 16 整除，因此它们开头的那串数相同：上面太阳那句六行中的每个数，都能在 (6, 16) 表中“Life”和“dessert”两行里找到。`nn.Embedding(6, 3)` 只有 18 个数，最后 16 个被重新生成，与前两张表只有开头两个数相同。下面的单元格打印每张表的前六个数。

# %% code
# The first six numbers of three tables drawn under seed 123, read row after row.
for rows, dim in [(6, 16), (50_000, 3), (6, 3)]:
    torch.manual_seed(123)
    table = nn.Embedding(rows, dim).weight.detach()
    print(f"nn.Embedding({rows}, {dim}):", table.flatten()[:6])

# %% strings zh
{
    "# The first six numbers of three tables drawn under seed 123, read row after row.":
        "# 在种子 123 下抽出的三张表，按行依次读出的前六个数。",
}

# %% [markdown]
# ## What you built
#
# $$\text{sentence} \xrightarrow{\ \texttt{split\_words}\ } \text{words}
# \xrightarrow{\ \texttt{encode}\ } \text{ids} \in \{0, \dots, V-1\}^{\text{seq}}
# \xrightarrow{\ \texttt{embed}\ } x \in \mathbb{R}^{\text{seq} \times \text{dim}}$$
#
# The rows of $x$ are the inputs of attention. The next assignment takes one of them, turns
# it into a query, and asks how strongly it should attend to every word of the sentence.

# %% [markdown zh]
# ## 本作业小结
#
# $$\text{句子} \xrightarrow{\ \texttt{split\_words}\ } \text{词}
# \xrightarrow{\ \texttt{encode}\ } \text{id} \in \{0, \dots, V-1\}^{\text{seq}}
# \xrightarrow{\ \texttt{embed}\ } x \in \mathbb{R}^{\text{seq} \times \text{dim}}$$
#
# $x$ 的每一行都是注意力的输入。下一次作业会取出其中一行，把它变成查询，再计算它应当对句子中的每个词投入多少注意力。
