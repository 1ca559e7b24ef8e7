"""Realistic requests, typed the way ML engineers type them, with what a practitioner would accept for each.

Each expectation was set from first principles before looking at a plan (FLOPs ≈ 6·N·D plus attention, ~40% MFU on
H100s, ~45% on A100s, on-demand for multi-node synchronous jobs unless spot is asked for, $ at catalog prices): a
family set a practitioner would sign, a wall-hours range and a cost range wide enough for honest disagreement
between practitioners, never fitted to this engine's output. ``None`` leaves a property open.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Case", "CASES", "GPU_FAMILIES", "H100_CLASS", "SEED_SCALING", "LARGE_SCALE"]

H100_CLASS = frozenset({"p5", "p5e", "p5en", "p6-b200"})
GPU_FAMILIES = frozenset({"p4d", "p4de", *H100_CLASS})
SMALL_GPUS = frozenset({"g5", "g6", "g6e"})
ANY_GPU = GPU_FAMILIES | SMALL_GPUS
ON_DEMAND = frozenset({"on-demand", "capacity-block"})
ANY_PURCHASE = frozenset({"spot", "on-demand", "capacity-block"})


@dataclass(frozen=True)
class Case:
    text: str
    families: frozenset[str] | None = None
    hours: tuple[float, float] | None = None  # the plan's wall hours
    cost: tuple[float, float] | None = None  # the plan's estimated cost, USD
    purchase: frozenset[str] = ANY_PURCHASE
    denied: bool | None = None
    regions: frozenset[str] | None = None
    approval_required: bool | None = None
    extra: tuple[str, ...] = field(default=())  # named checks in test_quality.CHECKS


CASES: tuple[Case, ...] = (
    # fine-tunes of small and mid models
    Case("fine-tune 7B on 1B tokens", ANY_GPU, (1, 40), (20, 400)),
    Case("ft 7b on 1b tokens by friday", ANY_GPU, (1, 40), (20, 400)),
    Case("sft mistral-7b on 300M tokens", ANY_GPU, (0.5, 20), (5, 200)),
    Case("fine-tune llama-3.1-8b on 2B tokens, production, by next Wednesday", ANY_GPU, (2, 60), (50, 1200),
         ON_DEMAND),
    Case("fine-tune 13B on 2B tokens", ANY_GPU, (3, 80), (100, 2500)),
    Case("fine-tune qwen2.5-14b on 1B tokens, no interruptions", ANY_GPU, (2, 60), (80, 2000), ON_DEMAND),
    Case("fine tune a 3B model on 500M tokens", ANY_GPU, (0.3, 20), (3, 150)),
    Case("fine-tune 1B on 10M tokens", ANY_GPU, (0.25, 2), (0.1, 20), extra=("every plan pays start-up",)),
    Case("finetune gpt2 on 100M tokens", ANY_GPU, (0.25, 6), (0.1, 20), extra=("every plan pays start-up",)),
    # 70B's 1.1 TB of state fits one 8× B200 node (1.4 TB), which may run on spot as a single-node experiment
    Case("fine-tune 70B on 1B tokens by Friday", GPU_FAMILIES, (5, 80), (800, 15000)),
    Case("full fine-tune llama 3.1 70b on 500M tokens", GPU_FAMILIES, (3, 60), (400, 9000)),
    Case("fine-tune 70B on 1B tokens by Friday, production", GPU_FAMILIES, (5, 80), (2000, 20000), ON_DEMAND),
    Case("fine-tune qwen 72b on 2B tokens, prod", GPU_FAMILIES, (10, 160), (4000, 30000), ON_DEMAND),
    # adapters
    Case("LoRA 7B on 200M tokens", ANY_GPU, (0.5, 40), (5, 80)),
    Case("lora llama-3.1-8b on 50M tokens, budget $20", ANY_GPU, (0.25, 12), (0.5, 20)),
    Case("QLoRA 70B on 100M tokens", ANY_GPU, (1, 60), (20, 600)),
    Case("qlora llama 3 70b on 300M tokens by Thursday", ANY_GPU, (3, 60), (60, 1500)),
    Case("LoRA 13B on 1B tokens in us-west-2", ANY_GPU, (1, 60), (20, 600), regions=frozenset({"us-west-2"})),
    # mixtures of experts
    Case("fine-tune mixtral 8x7b on 2B tokens", GPU_FAMILIES, (3, 60), (300, 6000)),
    Case("pretrain an 8x7b MoE on 100B tokens", GPU_FAMILIES, (40, 400), (30000, 200000), ON_DEMAND),
    Case("LoRA mixtral 8x22b on 500M tokens", GPU_FAMILIES, (1, 40), (100, 3000)),
    # long context
    Case("fine-tune llama-3.1-8b with 128k context on 500M tokens", GPU_FAMILIES, (4, 80), (150, 4000),
         approval_required=True),
    Case("continued pretraining of a 7B on 20B tokens, seq len 32k", GPU_FAMILIES, (30, 336), (2000, 40000)),
    Case("8k context sft of qwen2.5-7b on 1B tokens", ANY_GPU, (1, 50), (30, 800)),
    # preference tuning, RLHF, distillation
    Case("DPO llama-3-8b on 200M tokens", ANY_GPU, (0.5, 20), (10, 400)),
    Case("dpo on a 70B with lora, 100M tokens", GPU_FAMILIES, (1, 40), (30, 3000)),
    Case("RLHF PPO 7B on 100M tokens", GPU_FAMILIES, (0.5, 40), (20, 1000)),
    Case("grpo on qwen2.5-7b, 50M tokens", GPU_FAMILIES, (0.3, 30), (10, 600)),
    Case("distill llama-3.2-1b from llama-3.1-70b on 5B tokens", GPU_FAMILIES, (10, 300), (600, 12000)),
    Case("distill a 1B student from a 70b teacher on 2B tokens", GPU_FAMILIES, (4, 150), (250, 6000)),
    # pretraining
    Case("pretrain 125M on 2.5B tokens", ANY_GPU, (0.3, 30), (2, 150)),
    Case("pretrain 1.5B on 30B tokens", ANY_GPU, (5, 200), (200, 4000)),
    Case("pretrain 1B on 20B tokens from scratch, spot ok", ANY_GPU, (3, 150), (100, 2500)),
    Case("pretrain 7B on 1T tokens asap, production", H100_CLASS, (150, 500), (150000, 700000), ON_DEMAND),
    Case("pretrain 13B on 260B tokens for the launch", H100_CLASS, (80, 500), (60000, 300000), ON_DEMAND),
    Case("70B on 50B tokens by Dec 31", H100_CLASS, (60, 400), (60000, 350000), ON_DEMAND),
    Case("pretrain 405B on 15T tokens", denied=True),
    Case("pretrain 70B on 2T tokens", denied=True),
    # sweeps
    Case("sweep 20 trials of a 350M model on 1B tokens each", ANY_GPU, (0.5, 60), (10, 500)),
    Case("hpo: 8 lora runs on 7b, 100M tokens each", ANY_GPU, (0.5, 60), (10, 600)),
    # a grid is its product: 24 runs of 2.1e18 FLOPs each
    Case("sweep: 8 LRs x 3 seeds on a 350M model, 1B tokens each", ANY_GPU, (0.5, 80), (25, 1500)),
    # three ablations are three runs of 1.2e20 FLOPs, not one
    Case("run 3 ablations of a 1B model, 20B tokens each, by 12/18", ANY_GPU, (5, 150), (500, 6000)),
    # the data as examples × tokens each: 96M tokens, ~4.6e18 FLOPs
    Case("Need to run SFT on Llama-3.1-8B-Instruct, dataset is 120k conversations avg 800 tokens, by thursday",
         ANY_GPU, (0.3, 10), (2, 150)),
    # deadlines, budgets, regions
    Case("fine-tune 7B by tomorrow 9am", ANY_GPU, (0.5, 14), (20, 800)),
    # nothing full-fine-tunes 7B on 1B tokens for $50: the cheapest plan, and a warning that says so
    Case("fine-tune 7B under $50", ANY_GPU, (0.5, 60), (5, 150), extra=("warns about the budget",)),
    Case("fine-tune 7B in eu-west-1", ANY_GPU, (1, 80), (20, 800), regions=frozenset({"eu-west-1"})),
    Case("production fine-tune of our 7B model for the customer launch, need it by Friday", ANY_GPU, (1, 60),
         (30, 1500), ON_DEMAND),
    Case("fine-tune 13B on 8xH100 by Friday", frozenset({"p5"}), (2, 40), (100, 2000)),
    Case("fine-tune 7B on 4 p4d", frozenset({"p4d"}), (0.3, 10), (30, 600)),
    # a preference is planned as asked
    Case("fine-tune 7B on 1B tokens, prefer A100s", frozenset({"p4d", "p4de"}), (1, 60), (30, 800)),
    # time said as had, as a week or before an event: a deadline, never a job of that length
    Case("fine-tune 7B on 1B tokens, we have 3 days", ANY_GPU, (1, 40), (20, 400)),
    Case("can we fine-tune qwen2.5 14b on 1.2B tokens this week? experiment", ANY_GPU, (2, 60), (40, 2000)),
    Case("we need to fine-tune mistral 7b on 300M tokens before the Dec 18 release, production", ANY_GPU, (0.5, 20),
         (5, 300), ON_DEMAND),
    # five seeds are five runs: one run of a 350M model on 7B tokens is ~1.5e19 FLOPs, tens of dollars; with no
    # deadline the cheapest small GPUs may take a few days
    Case("pretrain a 350M model on 7B tokens 5 times with different seeds, spot fine", ANY_GPU, (1, 100),
         (150, 1500)),
    # twenty adapters are twenty runs: one LoRA of 7B on 100M tokens is ~2.8e18 FLOPs (4·N·D), twenty ~39 H100-hours
    Case("train 20 LoRA adapters for a 7B model, 100M tokens each", ANY_GPU, (0.5, 60), (60, 800)),
    # a run per language: 12 × 6·7e9·2e8 ≈ 1e20 FLOPs, ~70 H100-hours
    Case("fine-tune a 7B model for each of our 12 languages, 200M tokens per language", ANY_GPU, (0.5, 80),
         (100, 1500)),
    # a mixture of experts computes with its 3B active parameters (~9e18 FLOPs) but holds all 30B: ~480 GB of
    # weights, gradients and optimizer state needs a node of 80 GB-class GPUs
    Case("fine-tune Qwen3-30B-A3B on 500M tokens", GPU_FAMILIES, (0.5, 10), (15, 400)),
    # steps of a stated batch are the tokens: 2000 × 1M = 2B tokens, 6·7e9·2e9 ≈ 8.4e19 FLOPs, ~60 H100-hours
    Case("fine-tune 7B, 2000 steps of 1M tokens", ANY_GPU, (2, 80), (60, 1500)),
    # GRPO's 2000 steps of 256 rollouts of 1k tokens: 512M tokens through policy, reference and reward models
    Case("GRPO on qwen2.5-7b-instruct, 2000 steps of 256 rollouts of 1k tokens", ANY_GPU, (1, 80), (30, 2500)),
    # the sizes said of a named mixture of experts: 2.4B active (~1.4e19 FLOPs), 16B held (~260 GB of state)
    Case("fine-tune deepseek-v2-lite (16B MoE, 2.4B active) on 1B tokens", GPU_FAMILIES, (0.5, 20), (5, 500)),
    # two weeks held is the policy's longest job: planned, not denied for its start-up
    Case("reserve 8 p5 for 2 weeks, production", frozenset({"p5"}), (335, 337), (100_000, 260_000), ON_DEMAND,
         denied=False),
    # GPUs by their memory: 24 GB ones are A10G (g5) and L4 (g6); a 34B QLoRA base (~20 GB at 4 bits) fits 4 of them
    Case("qlora 34b on 200M tokens with 24GB GPUs only", frozenset({"g5", "g6"}), (5, 300), (20, 800)),
    # three seeds of 8 H100s held for 6 hours: 3 nodes × 6 h, ~$18-55 an instance-hour on spot or on-demand
    Case("run 3 seeds of 8 H100 for 6 hours each", H100_CLASS, (6, 7), (250, 1500)),
    # each node's 8 H100s times 2 nodes: 70B's ~1.1 TB of state over 16 H100s; 6·7e10·1e9 ≈ 4.2e20 FLOPs, ~290
    # H100-hours at 40% MFU, ~18 h on 16
    Case("fine-tune 70B on 1B tokens, 8 H100s x 2 nodes", frozenset({"p5"}), (10, 45), (1500, 7000), ON_DEMAND),
    # the batch written as settings: 5000 steps × 512 × 2048 = 5.2B tokens of a 1B model, ~3e19 FLOPs; with no
    # deadline the cheapest small GPUs may take days, as for "pretrain 1.5B on 30B tokens"
    Case("pretrain 1B for 5000 steps at bs=512, seq=2048", ANY_GPU, (1, 200), (20, 700)),
    # a 13B model (the size said first) on 500M tokens, with the 7B it replaces said beside: 6·1.3e10·5e8 ≈ 3.9e19
    Case("fine-tune 13B instead of 7B on 500M tokens", ANY_GPU, (1, 60), (30, 900)),
    # an earlier run's length is history: 7B on 1B tokens as estimated now, not a 4 h job cut off at a quarter
    Case("fine-tune 7B on 1B tokens; est. 4 hours on 8 A100s last time", ANY_GPU, (1, 40), (20, 400)),
    # a 10-minute cap nothing meets (start-up alone is ~15 min): one instance lands within minutes of the fastest;
    # 1M tokens of a 7B LoRA is ~3e16 FLOPs, a minute of one H100, so a few dollars, never 16 nodes for ~$570
    Case("quick smoke test: 7B lora, 1M tokens, 10 minutes max", ANY_GPU, (0.2, 1), (0.1, 20)),
    # started tonight, due Monday: 6·3e9·1e10 = 1.8e20 FLOPs, ~130 H100-hours at 40% MFU; days to spare, so one
    # node's cheapest price, not the cluster a midnight deadline would buy
    Case("kick off a 3B continued pretrain on 10B tokens of code tonight, should be done by Monday morning", ANY_GPU,
         (5, 110), (100, 1200)),
    # a public corpus by its name: one epoch of the Pile is ~300B tokens (Pythia's run), 6·4.1e8·3e11 ≈ 7.4e20 FLOPs,
    # ~65 H100-hours at 40% MFU and more for a model this narrow: days on one node, a few thousand dollars
    Case("pretrain a 410M model on the pile, one epoch", ANY_GPU, (30, 400), (500, 6000)),
    # GPT-2 small again from its start on 10B tokens: 6·1.24e8·1e10 ≈ 7.4e18 FLOPs, an 8-GPU node's hour or a small
    # GPU's day; tens of dollars
    Case("reproduce GPT-2 124M on OpenWebText, 10B tokens", ANY_GPU, (0.5, 60), (5, 200)),
)

# The scaling table the fit comes from (a 1.5B model on A100s): GPUs → published wall hours.
SEED_SCALING = ((8, 7.5), (16, 4.2), (32, 2.9))

# Published training times of a whole run: (name, the request, published wall hours). Touvron et al. 2021, "Training
# data-efficient image transformers & distillation through attention" (DeiT), §5: 300 epochs of DeiT-B (ViT-B/16) on
# ImageNet-1k take 53 hours on a single node of 8 V100s, 37 hours on two.
_DEIT_B = "train DeiT-B on imagenet for 300 epochs on {gpus} V100s, no interruptions"
PUBLISHED_RUNS = (
    ("DeiT-B, ImageNet-1k, 300 epochs, 8 V100", _DEIT_B.format(gpus=8), 53.0),
    ("DeiT-B, ImageNet-1k, 300 epochs, 16 V100", _DEIT_B.format(gpus=16), 37.0),
)

# Published efficiency at scale: (name, model parameters, sequence length, accelerators, instance type, low and
# high MFU the engine must plan at that scale), each from the paper named; the range is the published figure less
# what a cloud cluster without the authors' tuning loses, up to the published figure.
LARGE_SCALE = (
    # Llama Team 2024, "The Llama 3 Herd of Models", Table 4: 38-43% BF16 MFU on 8,192-16,384 H100s (405B, 8k).
    ("Llama 3 405B on 16,384 H100", 405_000_000_000, 8192, 16384, "p5.48xlarge", 0.30, 0.43),
    # Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM",
    # Table 1: 175B on 1,536 A100-80GB at 153 TFLOP/s per GPU (49% of 312), sequence 2048.
    ("Megatron-LM 175B on 1,536 A100", 175_000_000_000, 2048, 1536, "p4de.24xlarge", 0.36, 0.49),
    # Same table: 1T on 3,072 A100s at 163 TFLOP/s per GPU (52%).
    ("Megatron-LM 1T on 3,072 A100", 1_000_000_000_000, 2048, 3072, "p4de.24xlarge", 0.36, 0.52),
)
