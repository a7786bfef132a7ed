"""The tensors the five source documents print, typed in as the documents print them.

The one home of every printed document value: the hidden checks (``autograder/checks/steps/``) and
the tests of ``solutions`` (``tests/solutions/``) import them from here, and the build writes
them into the notebooks where a code cell of ``assignments/`` says ``{{documents.NAME}}``
(``autograder/build/printed_values.py``).

One constant per printed value; the comment above each names the document (a file of
``../shared/seeds/``) and the cell or step that prints it. Inputs the documents state (004's
integer inputs and weights, the sentences, vocabulary and layer sizes) are here too, so that a
check reads the whole worked example from one place. Checks and tests compare with
``autograder.checks.compare.TOLERANCE``, the course contract's tolerance: the printed digits
are the expected values.

Measured against ``solutions`` under torch 2.13.0 CPU (a one-off script, not a test), the
largest absolute deviation from these digits is 6.9e-05: 002's omega_2[5], printed -80.1705
where torch computes -80.170570 (with -144.2133 vs -144.213242, one of the two float32
differences ``../shared/seeds/README.md`` notes). Everywhere else it is at most 5.0e-05, the
rounding of the fourth printed decimal; no value uses more than 39 % of that tolerance.
"""

import torch

from autograder.i18n import t

# ---------------------------------------------------------------------------------------------
# 004_44ec7f25faf84393.txt: attention by hand on integer inputs
# ---------------------------------------------------------------------------------------------

# 004, "Step 1": the three inputs, one per row
DOC004_INPUTS = torch.tensor(
    [
        [1.0, 0.0, 1.0, 0.0],
        [0.0, 2.0, 0.0, 2.0],
        [1.0, 1.0, 1.0, 1.0],
    ]
)

# 004, "Step 2": w_key, w_query, w_value, (d_in, d_out) for x @ W
DOC004_W_KEY = torch.tensor(
    [
        [0.0, 0.0, 1.0],
        [1.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
    ]
)
DOC004_W_QUERY = torch.tensor(
    [
        [1.0, 0.0, 1.0],
        [1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 1.0, 1.0],
    ]
)
DOC004_W_VALUE = torch.tensor(
    [
        [0.0, 2.0, 0.0],
        [0.0, 3.0, 0.0],
        [1.0, 0.0, 3.0],
        [1.0, 1.0, 0.0],
    ]
)

# 004, "Step 3": print(keys)
DOC004_KEYS = torch.tensor(
    [
        [0.0, 1.0, 1.0],
        [4.0, 4.0, 0.0],
        [2.0, 3.0, 1.0],
    ]
)

# 004, "Step 3": print(querys)
DOC004_QUERIES = torch.tensor(
    [
        [1.0, 0.0, 2.0],
        [2.0, 2.0, 2.0],
        [2.0, 1.0, 3.0],
    ]
)

# 004, "Step 3": print(values)
DOC004_VALUES = torch.tensor(
    [
        [1.0, 2.0, 3.0],
        [2.0, 8.0, 0.0],
        [2.0, 6.0, 3.0],
    ]
)

# 004, "Step 4": attn_scores = querys @ keys.T
DOC004_SCORES = torch.tensor(
    [
        [2.0, 4.0, 4.0],
        [4.0, 16.0, 12.0],
        [4.0, 12.0, 10.0],
    ]
)

# 004, "Step 5": softmax(attn_scores, dim=-1), the exact weights
DOC004_SOFTMAX = torch.tensor(
    [
        [6.3379e-02, 4.6831e-01, 4.6831e-01],
        [6.0337e-06, 9.8201e-01, 1.7986e-02],
        [2.9539e-04, 8.8054e-01, 1.1917e-01],
    ]
)

# 004, "Step 5": the weights rounded "for readability", the input of steps 6 and 7
DOC004_ROUNDED_WEIGHTS = torch.tensor(
    [
        [0.0, 0.5, 0.5],
        [0.0, 1.0, 0.0],
        [0.0, 0.9, 0.1],
    ]
)

# 004, "Step 6": weighted_values = values[:, None] * attn_scores_softmax.T[:, :, None]
DOC004_WEIGHTED_VALUES = torch.tensor(
    [
        [
            [0.0000, 0.0000, 0.0000],
            [0.0000, 0.0000, 0.0000],
            [0.0000, 0.0000, 0.0000],
        ],
        [
            [1.0000, 4.0000, 0.0000],
            [2.0000, 8.0000, 0.0000],
            [1.8000, 7.2000, 0.0000],
        ],
        [
            [1.0000, 3.0000, 1.5000],
            [0.0000, 0.0000, 0.0000],
            [0.2000, 0.6000, 0.3000],
        ],
    ]
)

# 004, "Step 7": outputs = weighted_values.sum(dim=0)
DOC004_OUTPUTS = torch.tensor(
    [
        [2.0000, 7.0000, 1.5000],
        [2.0000, 8.0000, 0.0000],
        [2.0000, 7.8000, 0.3000],
    ]
)

# ---------------------------------------------------------------------------------------------
# 001_9a1d645332709f3f.txt (a Jupyter notebook): 'The sun rises in the east', row convention
# ---------------------------------------------------------------------------------------------

DOC001_SENTENCE = "The sun rises in the east"

# 001, cell In [1]: print(dc)
DOC001_VOCAB = {"The": 0, "east": 1, "in": 2, "rises": 3, "sun": 4, "the": 5}

# 001, cell In [2]: print(sentence_int)
DOC001_IDS = torch.tensor([0, 4, 3, 2, 5, 1])

# 001, cell In [16]: vocab_size = 50_000, the rows of its nn.Embedding(vocab_size, 3)
DOC001_VOCAB_SIZE = 50_000

# 001, cell In [16]: Embedding(50_000, 3) under torch.manual_seed(123), print(embedded_sentence)
DOC001_EMBEDDING = torch.tensor(
    [
        [0.3374, -0.1778, -0.3035],
        [0.1794, 1.8951, 0.4954],
        [-1.1925, 0.6984, -1.4097],
        [-0.2196, -0.3792, 0.7671],
        [0.2692, -0.0770, -1.0205],
        [-0.5880, 0.3486, 0.6603],
    ]
)

# 001, cell In [7]: print(omega_3), the unscaled scores of query 3 (index 2)
DOC001_OMEGA_3 = torch.tensor([0.4344, -2.5037, 0.9265, -0.3509, 1.0740, -0.9315])

# 001, cell In [14]: print(attention_weights_3) = softmax(omega_3 / 2**0.5)
DOC001_WEIGHTS_3 = torch.tensor([0.1973, 0.0247, 0.2794, 0.1132, 0.3102, 0.0751])

# 001, cell In [17]: print(context_vector_3)
DOC001_CONTEXT_3 = torch.tensor([-0.5296, -0.2799, -0.4107, -0.6006])

# 001, cell In [21]: SelfAttention(3, 2, 4) under torch.manual_seed(123), print(output)
DOC001_SELF_ATTENTION_OUTPUT = torch.tensor(
    [
        [-0.1564, 0.1028, -0.0763, -0.0764],
        [0.5313, 1.3607, 0.7891, 1.3110],
        [-0.5296, -0.2799, -0.4107, -0.6006],
        [0.0071, 0.3345, 0.0969, 0.1998],
        [-0.3542, -0.1234, -0.2626, -0.3706],
        [0.1008, 0.4780, 0.2021, 0.3674],
    ]
)

# ---------------------------------------------------------------------------------------------
# 000_3833b0c10d6a2799.txt: 'Life is short, eat dessert first', weights rand(d_out, d)
# ---------------------------------------------------------------------------------------------

DOC000_SENTENCE = "Life is short, eat dessert first"

# 000, In [17]: print(dc)
DOC000_VOCAB = {"Life": 0, "dessert": 1, "eat": 2, "first": 3, "is": 4, "short": 5}

# 000, In [18]: print(sentence_int)
DOC000_IDS = torch.tensor([0, 4, 5, 2, 1, 3])

# 000, In [19]: Embedding(6, 16) under torch.manual_seed(123), print(embedded_sentence)
DOC000_EMBEDDING = torch.tensor(
    [
        [0.3374, -0.1778, -0.3035, -0.5880, 0.3486, 0.6603, -0.2196, -0.3792,
         0.7671, -1.1925, 0.6984, -1.4097, 0.1794, 1.8951, 0.4954, 0.2692],
        [0.5146, 0.9938, -0.2587, -1.0826, -0.0444, 1.6236, -2.3229, 1.0878,
         0.6716, 0.6933, -0.9487, -0.0765, -0.1526, 0.1167, 0.4403, -1.4465],
        [0.2553, -0.5496, 1.0042, 0.8272, -0.3948, 0.4892, -0.2168, -1.7472,
         -1.6025, -1.0764, 0.9031, -0.7218, -0.5951, -0.7112, 0.6230, -1.3729],
        [-1.3250, 0.1784, -2.1338, 1.0524, -0.3885, -0.9343, -0.4991, -1.0867,
         0.8805, 1.5542, 0.6266, -0.1755, 0.0983, -0.0935, 0.2662, -0.5850],
        [-0.0770, -1.0205, -0.1690, 0.9178, 1.5810, 1.3010, 1.2753, -0.2010,
         0.4965, -1.5723, 0.9666, -1.1481, -1.1589, 0.3255, -0.6315, -2.8400],
        [0.8768, 1.6221, -1.4779, 1.1331, -1.2203, 1.3139, 1.0533, 0.1388,
         2.2473, -0.8036, -0.2808, 0.7697, -0.6596, -0.7979, 0.1838, 0.2293],
    ]
)  # fmt: skip

# 000, In [16]: print(attention_weights_2), query 2 (index 1) = softmax(omega_2 / 24**0.5)
DOC000_WEIGHTS_2 = torch.tensor([0.2912, 0.0106, 0.0982, 0.0625, 0.4917, 0.0458])

# 000, In [8]: print(context_vector_2), the 28-d context of query 2
DOC000_CONTEXT_2 = torch.tensor(
    [
        -1.5993, 0.0156, 1.2670, 0.0032, -0.6460, -1.1407, -0.4908, -1.4632,
        0.4747, 1.1926, 0.4506, -0.7110, 0.0602, 0.7125, -0.1628, -2.0184,
        0.3838, -2.1188, -0.8136, -1.5694, 0.7934, -0.2911, -1.3640, -0.2366,
        -0.9564, -0.5265, 0.0624, 1.7084,
    ]
)  # fmt: skip

# 000, In [10]: multihead_query_2.shape (h = 3 heads)
DOC000_MULTIHEAD_QUERY_2_SHAPE = (3, 24)

# 000, In [15]: multihead_keys.shape, multihead_values.shape (h = 3 heads)
DOC000_MULTIHEAD_KEYS_SHAPE = (3, 6, 24)
DOC000_MULTIHEAD_VALUES_SHAPE = (3, 6, 28)

# ---------------------------------------------------------------------------------------------
# 002_87d44a0dba0e3e94.txt: 'Life is short, eat dessert last', weights randn(d_out, d)
# drawn right after the seeded embedding, with no reseed
# ---------------------------------------------------------------------------------------------

DOC002_SENTENCE = "Life is short, eat dessert last"

# 002, In [2]: print(sentence_dict)
DOC002_VOCAB = {"Life": 0, "dessert": 1, "eat": 2, "is": 3, "last": 4, "short": 5}

# 002, In [3]: print(sentence_int)
DOC002_IDS = torch.tensor([0, 3, 5, 2, 1, 4])

# 002, In [5]: Embedding(6, 16) under torch.manual_seed(123), print(embed_sentence)
DOC002_EMBEDDING = torch.tensor(
    [
        [0.3374, -0.1778, -0.3035, -0.5880, 0.3486, 0.6603, -0.2196, -0.3792,
         0.7671, -1.1925, 0.6984, -1.4097, 0.1794, 1.8951, 0.4954, 0.2692],
        [0.8768, 1.6221, -1.4779, 1.1331, -1.2203, 1.3139, 1.0533, 0.1388,
         2.2473, -0.8036, -0.2808, 0.7697, -0.6596, -0.7979, 0.1838, 0.2293],
        [0.2553, -0.5496, 1.0042, 0.8272, -0.3948, 0.4892, -0.2168, -1.7472,
         -1.6025, -1.0764, 0.9031, -0.7218, -0.5951, -0.7112, 0.6230, -1.3729],
        [-1.3250, 0.1784, -2.1338, 1.0524, -0.3885, -0.9343, -0.4991, -1.0867,
         0.8805, 1.5542, 0.6266, -0.1755, 0.0983, -0.0935, 0.2662, -0.5850],
        [-0.0770, -1.0205, -0.1690, 0.9178, 1.5810, 1.3010, 1.2753, -0.2010,
         0.4965, -1.5723, 0.9666, -1.1481, -1.1589, 0.3255, -0.6315, -2.8400],
        [0.5146, 0.9938, -0.2587, -1.0826, -0.0444, 1.6236, -2.3229, 1.0878,
         0.6716, 0.6933, -0.9487, -0.0765, -0.1526, 0.1167, 0.4403, -1.4465],
    ]
)  # fmt: skip

# 002, In [7]: print(x_2), embedding row 2 (index 1)
DOC002_X_2 = torch.tensor(
    [
        0.8768, 1.6221, -1.4779, 1.1331, -1.2203, 1.3139, 1.0533, 0.1388,
        2.2473, -0.8036, -0.2808, 0.7697, -0.6596, -0.7979, 0.1838, 0.2293,
    ]
)  # fmt: skip

# 002, In [10]: print(omega_24) = q_2 . keys[4]
DOC002_OMEGA_24 = torch.tensor(58.9875)

# 002, In [11]: print(omega_2); torch 2.13 gives -144.2132 and -80.1706 for the 4th and 6th
DOC002_OMEGA_2 = torch.tensor([-57.1016, -85.4889, 160.1854, -144.2133, 58.9875, -80.1705])

# 002, In [12]: print(attention_2) = softmax(omega_2 / 24**0.5), saturated
DOC002_ATTENTION_2 = torch.tensor(
    [5.4640e-20, 1.6633e-22, 1.0000e00, 1.0353e-27, 1.0686e-09, 4.9255e-22]
)

# 002, In [13]: print(context_vector_2)
DOC002_CONTEXT_2 = torch.tensor(
    [
        -4.6812, 4.3038, -5.0492, -2.6208, -2.4619, -0.3670, -1.0982, 3.0041,
        -2.2975, 3.9133, -3.7064, -1.8859, 3.9662, -4.3787, -1.7991, 4.1266,
        -2.3905, 2.7373, 2.9809, 6.5839, 0.3691, -6.0942, 3.2605, -3.9929,
        6.6571, 1.6524, -4.1800, 2.8630,
    ]
)  # fmt: skip

# 002, In [15], [20], [22]: the multi-head shapes, h = 3 heads
DOC002_MULTIHEAD_WEIGHT_SHAPES = ((3, 24, 16), (3, 24, 16), (3, 28, 16))
# 002, In [16]: print(q_2.shape), query 2 in every head
DOC002_MULTIHEAD_QUERY_2_SHAPE = (3, 24)
# 002, In [18]: keys.shape as torch.bmm(W_k, input_stack) leaves them, (h, d_k, seq)
DOC002_MULTIHEAD_KEYS_SHAPE = (3, 24, 6)
# 002, In [20], [21], [22]: omega_2, attention_2 and context_vector_2 shapes
DOC002_MULTIHEAD_OMEGA_2_SHAPE = (3, 6)
DOC002_MULTIHEAD_ATTENTION_2_SHAPE = (3, 6)
DOC002_MULTIHEAD_CONTEXT_2_SHAPE = (3, 28)

# ---------------------------------------------------------------------------------------------
# 003_59c699581324b67d.txt: column convention, a double-loop module, nn.MultiheadAttention
# ---------------------------------------------------------------------------------------------

# 003, In [3]: data = torch.randn((4, 4)) right after torch.manual_seed(0)
DOC003_INPUT = torch.tensor(
    [
        [-1.1258, -1.1524, -0.2506, -0.4339],
        [0.8487, 0.6920, -0.3160, -2.1152],
        [0.3223, -1.2633, 0.3500, 0.3081],
        [0.1198, 1.2377, 1.1168, -0.2473],
    ]
)

# 003, In [2]: d2, d3 = 10, 10 in the loop module's forward, the sizes of the values (d2)
# and of the queries and keys (d3)
DOC003_D2 = DOC003_D3 = 10

# 003, In [4]: afd(data), the loop module's output H (d2 = 10, N = 4); its forward draws
# WQ = randn(10, 4), WK = randn(10, 4), WV = randn(10, 4) after data, d3 = 10
DOC003_LOOP_OUTPUT = torch.tensor(
    [
        [0.5689, 0.6598, 1.5184, 0.9254],
        [-0.2293, -0.4523, -2.2452, -1.1773],
        [-0.7210, -0.8249, -0.7496, -1.3198],
        [-0.2952, -0.1535, -0.0277, 0.3204],
        [0.9266, 0.9983, 1.2646, 1.3426],
        [-0.2005, -0.2239, -0.0952, -0.3015],
        [1.1224, 1.0853, -0.0742, 1.0859],
        [0.8179, 0.6819, 0.3794, -0.0328],
        [0.1456, 0.1609, 1.5256, 0.2119],
        [0.1954, -0.0705, -0.0035, -1.1535],
    ]
)

# 003, In [5]: L, N, E, S = 3, 4, 10, 6 and nn.MultiheadAttention(embed_dim=E, num_heads=10)
DOC003_MHA_SIZES = {"L": 3, "N": 4, "E": 10, "S": 6, "num_heads": 10}

# 003, In [11] and In [12]: attn_output.shape (L, N, E), attn_output_weights.shape (N, L, S)
DOC003_MHA_OUTPUT_SHAPE = (3, 4, 10)
DOC003_MHA_WEIGHTS_SHAPE = (4, 3, 6)


# What a student sees of each document: the example it works, as the notebooks name it (a
# case's label never says "document 002", which no student has).
EXAMPLES = {
    "000": f"the sentence '{DOC000_SENTENCE}'",
    "001": f"the sentence '{DOC001_SENTENCE}'",
    "002": f"the sentence '{DOC002_SENTENCE}'",
    "003": "the seeded 4x4 input of the loop",
    "004": "the hand-sized example",
}


def example(document):
    """The worked example of `document` ("000" ...) as a case's label names it, in the
    course's language (students know the examples, not the documents' numbers)."""
    return t(EXAMPLES[document])
