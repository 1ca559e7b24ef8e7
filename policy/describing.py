"""Words that describe the work without changing the hardware it needs, read last so they do not hold a plan for
approval; and recurring work, which does hold it.

``policy.reading`` calls ``read_descriptions`` once every other reader has taken its phrases, and before what is left
is listed as unread; ``read_recurring`` before any date is read. Each reading is noted, in the style of the other
readers' notes:

- what the tokens are: "10B tokens of code", "on our support tickets (about 200M tokens)", "on chat data", "300M
  reasoning tokens";
- what the model is for: "our chatbot model", "the ranking model", "for classification", "for the prod recommender"
  (a task or domain noun after "for"; "prod" there was read as the stage already and stays read so);
- why the hardware is wanted: "to debug distributed training", "to profile the data loader";
- what the estimate already assumes: "bf16"/"fp16"/"mixed precision" (compute is priced at BF16 peak FLOP/s),
  "fp32 master weights" and "adamw" (memory is counted as mixed-precision Adam's),
  "flash attention" (activation memory is counted as with it, ``policy.estimate``), "in parallel" beside several
  trials (they run side by side already), "instances" after an instance family ("p4d instances");
- what gpuops does anyway: "notify me when done", "open to suggestions"; and the model the work starts from ("DPO on
  a fine-tuned 7B").

Conservative by construction: a described phrase is read only where every word of it is still in the text (a stage
word, hardware, a region, a number or a team was taken by its own reader first) and none of it is a word that could
change a plan (``_PLAN_WORDS``: hardware, places, spot and interruption, stage, urgency, money, negation, media).
Anything else stays unread, for a person to check.

Recurring work ("nightly", "every Monday", "quarterly") is noted with its runs a month or year, but stays in
``unread``: gpuops launches one run per approved request, so the plan prices one run, and a commitment that repeats
deserves a person's look (``policy.guardrails`` words its approval reason with what it comes to a month or year,
``cadence``).
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from policy.patterns import compiled_on_use
from policy.regions import AREA_WORDS, PLACE_WORDS

__all__ = ["APPROVAL_CLAIM_RE", "APPROVAL_CLAIMED", "BENCHMARK", "cadence", "claims_approval", "DATA_ITEMS",
           "plan_word", "read_descriptions", "read_recurring", "TextScan"]

_F = re.IGNORECASE | re.ASCII


class TextScan(Protocol):
    """The text with the phrases read so far blanked (``text``), as said (``said``), and the phrases read that mean
    nothing the plan uses (``unused``); ``policy.reading.Scan`` adds what the other readers need."""

    text: str
    said: str
    unused: list[str]

    def blank(self, start: int, end: int) -> None: ...


# Glue that ends a described phrase: "tokens of code on H100s" describes "code" only.
_GLUE = (r"(?:on|in|at|by|for|with|w|using|use|to|from|into|via|per|over|under|and|or|but|before|after|until|till"
         r"|then|so|of|as|than|is|are|was|be|it|its|it's|that|this|which|who|we|our|the|a|an|model|models|data"
         r"|dataset|datasets|corpus|tokens?|toks?)")
_WORD = rf"(?!{_GLUE}\b)[a-z][a-z'-]*[a-z]'?"  # "customers' tickets": a plural's possessive too
_PHRASE = rf"{_WORD}(?:\s+{_WORD}){{0,2}}"
# What a dataset is counted in: "120k conversations", "on our support tickets", "2M emails averaging 300 tokens".
DATA_ITEMS = (r"examples?|samples?|conversations?|convos?|dialogues?|dialogs?|prompts?|pairs?|rows?|records?|documents?"
              r"|docs?|sequences?|chats?|transcripts?|tickets?|articles?|threads?|messages?|instructions?|completions?"
              r"|e-?mails?|posts?|reviews?|pages?|papers?|books?|files?|snippets?|functions?|questions?|answers?|queries"
              r"|query|responses?|utterances?|turns?|stories|story|summaries|summary|reports?|comments?|tweets?"
              r"|sentences?|paragraphs?|passages?|abstracts?|notes|trajectories|trajectory|episodes?|solutions?|problems?"
              r"|comparisons?|preferences?|prefs?|rankings?|judge?ments?|annotations?|demonstrations?|rollouts?|generations?"
              r"|interactions?|sessions?|exchanges?|entries|entry|items?|calls?|captions?|translations?|ratings?"
              r"|traces?|proofs?|recipes?|descriptions?|listings?|transcriptions?|images?|photos?|pictures?|videos?"
              r"|logs?|contracts?|filings?|invoices?|receipts?|patents?|cases|manuals?|forms|resumes|chapters?"
              r"|slides?|notebooks?")
_OWNER = r"(?:(?:our|the|my|their|your|some|a|an)\s+)"
# Benchmarks a model is evaluated on
BENCHMARK = (r"(?:mmlu(?:-pro)?|hellaswag|gsm8k|humaneval(?:\+)?|mbpp|mt-bench|alpacaeval|truthfulqa|bbh|big-bench"
             r"|arc(?:-challenge)?|winogrande|ifeval|helm|lm-eval(?:-harness)?|gpqa|math-500|aime|mmmu|swe-bench)")
# What is debugged or profiled: "my training script", "the data loader" (data words included, glue not)
_OBJECT_WORD = (r"(?!(?:on|in|at|by|for|with|w|using|use|from|into|via|before|after|until|till|and|or|but|then|so"
                r"|is|are|was|be|it|its|that|this|which)\b)[a-z][a-z'-]*[a-z]")
_SIZE = r"(?:\d+(?:\.\d+)?\s*[kmb]\s+)"
# What a model is for, said after "for": a task or a product area. A closed list, so "for the EU" or "for 3 days"
# can never be read as a description.
_PURPOSE = (r"(?:classification|classifiers?|summari[sz]ation|summari[sz]ers?|chat|chatbots?|assistants?|ranking"
            r"|rankers?|re-?ranking|re-?rankers?|recommendations?|recommenders?|recsys|search|retrieval|retrievers?"
            r"|rag|retrieval[\s-]augmented\s+generation"
            r"|embeddings?|code\s+completion|completion|autocomplete|code|coding|translation|question\s+answering|qa"
            r"|sentiment(?:\s+analysis)?|moderation|ner|tagging|extraction|agents?|copilots?|(?:support|chat)\s+bots?"
            r"|bots?|support|reasoning|math|rl|reinforcement\s+learning|research|ablations?"
            r"|tool\s+use|function\s+calling|baselines?|(?:the\s+|a\s+)?paper|demos?"
            r"|debugging|profiling|benchmarking|development|dev\s+work|learning|teaching|a\s+tutorial|review|triage"
            r"|routing|drafting|analysis|(?:a\s+|the\s+|our\s+)?(?:customer\s+)?(?:pilot|poc|proof\s+of\s+concept|prototype))")
_DATA = (
    # "10B tokens of code", "1B tokens of our support tickets", "25B tokens from fineweb", "of screenshots + captions"
    rf"\btok(?:en)?s?\s+(?:of|from)\s+{_OWNER}?(?P<x>{_PHRASE}(?:\s*(?:,|\+|&|/|\band\b|\bplus\b)\s*{_PHRASE}){{0,2}})",
    # "on our support tickets (about 200M tokens)", "on the ticket archive, ~200M tokens", "on openwebtext (9B tokens)"
    rf"\b(?:on|over)\s+{_OWNER}?(?P<x>{_PHRASE})(?=\s*(?:\(|,)\s*(?:about|around|roughly|approx\.?|~)?"
    r"\s*\d[\d.,]*\s*(?:k|m|b|bn|t|thousand|million|billion)?\s*tok)",
    # "on FineWeb-Edu 100B tokens": the data named, its count after it
    rf"\b(?:on|over)\s+{_OWNER}?(?P<x>{_PHRASE})(?=\s+(?:about\s+|around\s+|~\s*)?\d[\d.,]*\s*"
    r"(?:k|m|b|bn|t|thousand|million|billion)\s*tok)",
    # "2000 hours of call center audio", "300 hours of noisy speech": what the sound is
    rf"\b(?:hours?|hrs?|h)\s+of\s+{_OWNER}?(?P<x>{_PHRASE})\s+(?:audio|speech)\b",
    # "our 80M token support corpus": what the counted tokens are
    rf"\btok(?:en)?s?\s+(?P<x>{_PHRASE})\s+(?:corpus|dataset|data)\b",
    # "on chat data", "on our support ticket dataset", "with our comparison data", "using the ticket corpus"
    rf"\b(?:on|over|with|using)\s+{_OWNER}?(?P<x>{_PHRASE})\s+(?:data|datasets?|corpus)\b",
    # "on customer emails", "on our support tickets", "on math problems": what the data is counted in
    rf"\b(?:on|over)\s+{_OWNER}?(?P<x>(?:{_WORD}\s+){{0,2}}(?:{DATA_ITEMS}))(?![\w-])",
    # "on our monorepo", "on the internal wiki", "on our codebase": where the data comes from
    rf"\b(?:on|over|from)\s+{_OWNER}?(?P<x>(?:{_WORD}\s+){{0,2}}(?:monorepos?|code[\s-]?bases?|repos?|repositories"
    r"|wikis?|knowledge[\s-]bases?|confluence|slack\s+history))(?![\w-])",
    # "for customer support chats", but not "for code completion", a purpose that ends the phrase (below)
    rf"\bfor\s+{_OWNER}?(?!{_PURPOSE}(?:\s*(?:$|[,.;:!?)])|\s+(?:on|in|with|by|for|using|to|from|before|until)\b))"
    rf"(?P<x>(?:{_WORD}\s+){{0,2}}(?:{DATA_ITEMS}))(?![\w-])(?!\s+(?:submission|camera|rebuttal)\b)",
)
# The tokens counted, then what they are in items: "200M tokens of preference pairs", "1B tokens of chat transcripts".
# The count is said already, so the items' noun describes them (elsewhere "pairs" may be a count's unit).
_COUNTED_DATA = (
    rf"\btok(?:en)?s?\s+of\s+{_OWNER}?(?P<x>(?:{_WORD}\s+){{0,2}}(?:{DATA_ITEMS}))(?![\w-])",
)
# What the tokens are, said between their count and the word: "300M reasoning tokens", "2B high quality tokens" (the
# count is read as tokens already; the words and "tokens" are taken here)
_COUNT_OF_WORDS_RE = compiled_on_use(
    rf"(?<![\w.])\d[\d.,]*\s*(?:k|m|b|bn|t)?\s+(?P<x>{_PHRASE})\s+(?P<tok>tok(?:en)?s?)\b", _F)
_PURPOSES = (
    # "our 7B chatbot model", "the ranking model (1.3B)"
    # ("the best model" is which of the runs is kept, never what a model is for)
    rf"\b(?:our|the|my|their|a|an)\s+{_SIZE}?(?!(?:best|top|winning|final|last|latest)\s)(?P<x>{_PHRASE})\s+models?\b",
    # "fine-tune bge-large embedding model": after the model's name, read already
    rf"(?<![\w-])(?P<x>{_PURPOSE})\s+models?\b",
    # "fine-tune our 7B chatbot", "the ranker": a product area named as the model itself
    # "our 110M BERT classifier": the model's name may stand between its size and what it is for
    # "train a sentiment classifier": what it classifies said before it
    # "our customer-facing chatbot": a hyphened word before it, which may say something else (production)
    rf"\b(?:our|my|their|the|an?)\s+{_SIZE}?(?:(?-i:[A-Z]\w*[A-Z]\w*)\s+|[a-z]+-?\d[\w.-]*\s+)?(?:[a-z]+-[a-z]+\s+)?(?P<x>(?:[a-z]+-|(?:sentiment|intent|spam|toxicity|fraud|topic|language)\s+)?(?:chatbots?|bots?|assistants?|rankers?|re-?rankers?|recommenders?"
    r"|classifiers?|summari[sz]ers?|retrievers?|copilots?|agents?))\b",
    # "adapt Mistral-7B to legal contract review", "specialise it to support triage": what the model is made for
    rf"\b(?:adapt|speciali[sz]e|tailor|tune)\w*\s+(?:[^\s,;]+\s+){{0,4}}?(?:to|for)\s+(?:the\s+|our\s+)?"
    rf"(?P<x>(?:(?:{_WORD}|[a-z]+-[a-z]+)\s+){{0,2}}{_PURPOSE})\b",
    # "for classification", "for the prod recommender", "for code completion"
    rf"\bfor\s+{_OWNER}?(?:(?:prod|production|internal|new|existing|customer|customers')\s+)?"
    rf"(?P<x>(?:(?:{_WORD}|[a-z]+-[a-z]+)\s+)?{_PURPOSE})\b",  # "for our on-device assistant"
)
# "to debug distributed training", "to profile the data loader", "to reproduce the llama 2 pretraining": why the
# hardware is wanted
# Research venues a deadline is named for: "the ICML deadline Jan 28", "for our NeurIPS submission"
_VENUE = (r"(?:icml|neurips|nips|iclr|acl|emnlp|naacl|eacl|coling|colm|cvpr|iccv|eccv|wacv|aaai|ijcai|kdd|www|sigir"
          r"|interspeech|icassp|arxiv)")
_WANTED = (
    # "for the paper submission", "for our ICML camera-ready": the occasion the work is for (its date is read apart)
    rf"\bfor\s+(?:the\s+|our\s+|a\s+|an\s+)?(?P<x>(?:{_VENUE}(?:\s+20\d\d)?\s+)?(?:paper\s+)?(?:submission|camera[\s-]ready"
    rf"|rebuttal)|{_VENUE}(?:\s+20\d\d)?\s+paper)(?![\w-])",
    # "(ICML deadline Jan 28)": the venue whose deadline is said
    rf"(?<![\w-])(?P<x>{_VENUE}(?:\s+20\d\d)?)(?=\s+(?:deadline|submission|camera|paper|due|rebuttal)\b)",
    rf"\bto\s+(?P<x>(?:debug|profile|benchmark|reproduce|investigate|diagnose|learn|get\s+familiar|play\s+around"
    r"|validate|verify|(?:check|measure|estimate|see|quantify)\s+(?:the\s+)?(?:run[\s-]to[\s-]run\s+|seed\s+)?"
    r"(?:variance|noise|spread|stability|reproducibility))\w*"
    # "to debug a distributed training issue": what is debugged, however it is named
    r"(?:\s+(?:an?|the|our|my|this|some)\s+(?:[a-z-]+\s+){0,3}?(?:issue|problem|bug|error|crash|hang|failure)s?\b)?"
    rf"(?:\s+(?:our|the|my|their|your|a|an))?(?:\s+{_OBJECT_WORD}){{0,3}})",
)
# Why the request names its region or hardware: "because of data residency", "for compliance reasons", "due to GDPR"
_REASON_WORDS = (r"(?:(?:data[\s-]+)?(?:residency|sovereignty)|compliance|privacy|gdpr|hipaa|security|latency)"
                 r"(?:\s+(?:reasons?|requirements?|rules?|constraints?))?")
_REASONS = (
    rf"\b(?:because\s+of|due\s+to|for)\s+(?:the\s+|our\s+)?(?P<x>{_REASON_WORDS})(?![\w-])",
    # "limited to 2 instances by quota": why a ceiling said beside it holds (the account's quotas are read from AWS)
    r"\b(?:by|because\s+of|due\s+to)\s+(?P<x>(?:the\s+|our\s+)?(?:aws\s+|account'?s?\s+)?(?:service\s+)?"
    r"(?:quotas?|limits?))(?![\w-])",
    # in brackets, as an aside: "in eu-west-1 (data residency)", "EU only (GDPR)"
    rf"\((?:\s*(?:for|due\s+to|because\s+of)\s+)?\s*(?P<x>{_REASON_WORDS})\s*\)",
    # said first, with what it makes the request say after it: "HIPAA so us-east-1 only", "GDPR, hence eu-west-1"
    rf"\b(?P<x>{_REASON_WORDS})\s*,?\s+(?:so|hence|therefore|thus|which\s+means)(?=\s)",
    # "in us-east-1 because that's where the data lives": why the region is named
    r"\b(?P<x>(?:because|since|as)\s+(?:that'?s|that\s+is|it'?s|this\s+is)\s+where\s+(?:the|our|all\s+(?:the|our))\s+"
    r"(?:data|dataset|datasets|bucket|buckets|corpus)\s+(?:lives?|is|are|sits?|resides?|is\s+stored|are\s+stored))"
    r"(?![\w-])",
    # "no spot please, we got burned last time": why a constraint said beside it is wanted
    r"(?:^|[,;(]|\s-+|\s\u2014)\s*(?P<x>(?:we|i)\s+(?:got|were|was)\s+burned(?:\s+(?:last\s+time|before|by\s+(?:it|that)))?)"
    r"(?=\s*(?:$|[,.;!)]))",
    # "no p4d please, we had issues with them", "we've had problems with spot": why what is said beside it is avoided
    r"(?:^|[,;(]|\s-+|\s\u2014)\s*(?P<x>(?:we|i)(?:\s+(?:had|have\s+had)|'ve\s+had)\s+(?:(?:some|many|a\s+lot\s+of|lots\s+of"
    r"|too\s+many|bad|a\s+bad)\s+)?(?:issues|problems|trouble|(?:bad\s+)?experiences?|a\s+bad\s+time)"
    r"(?:\s+with\s+(?:them|it|those|that|these)(?:\s+(?:before|last\s+time|recently))?)?)(?=\s*(?:$|[,.;!)]))",
)
# Said of how the run computes, and what the estimate already assumes of it (``policy.estimate``).
_ASSUMED = (
    # "must be deployed by Friday", "needs to be live before Christmas": the deadline (read already) is the serving's
    (r"\b(?:(?:needs?|has|have)\s+to\s+|must\s+|should\s+|will\s+)?be\s+(?:live|deployed|shipped|released"
     r"|serving(?:\s+traffic)?)\b"
     # "fine-tune a 3B for on-device", "for edge deployment": where it will run once trained
     r"|\bfor\s+(?:on[\s-]?device|mobile|edge|in[\s-]browser|embedded|offline)(?!\s+cases?\b)(?:\s+(?:use|deployment|"
     r"inference|serving|apps?|devices?))?(?![\w-])",
     "what the model is for once trained: the plan's finish is when training ends; deploying takes its own time after"),
    (r"\b(?:bf16|bfloat16|bfloat-16|fp16|float16|half[\s-]+precision|(?:bf16\s+)?mixed[\s-]+precision|amp)\b",
     "what the estimate already assumes: compute at the accelerator's BF16 peak FLOP/s (FP16's is the same) and "
     "memory as mixed-precision Adam"),
    # FP32 copies are part of mixed precision; training in FP32 or TF32 is slower than priced, so "fp32" alone stays
    # unread (FP8 is read with the hardware: ``policy.parse._fp8``)
    (r"\b(?:with\s+)?(?:fp32|float32)[\s-]+(?:master[\s-]+(?:weights|copy|params)|optimi[sz]er[\s-]+states?"
     r"|gradient[\s-]+accumulation)\b",
     "what the estimate already assumes: mixed-precision Adam keeps FP32 master weights and optimizer state "
     "(16 bytes a parameter)"),
    # "packing enabled", "with sequence packing": no padding is trained on, which the estimate assumes of every token
    (r"\b(?:with\s+|using\s+)?(?:sequence\s+|sample\s+|example\s+)?packing(?:\s+(?:enabled|on|turned\s+on))?\b"
     r"|\bpacked\s+sequences\b",
     "what the estimate already assumes: every token counted is trained on, none of it padding"),
    # Adam is what the memory estimate counts; an optimizer keeping less state could fit smaller hardware
    # (8-bit and paged Adam keep less: they stay unread)
    (r"(?<![\w-])(?<!bit\s)(?<!paged\s)(?:with\s+|using\s+)?(?:the\s+)?adam(?:w|[\s-]w)?(?![\w-])"
     r"(?![\s-]?8[\s-]?bit)(?:\s+optimi[sz]er)?(?![\w-])",
     "what the estimate already assumes: Adam's optimizer state in the memory estimate"),
    # "slack me when it finishes or fails", "post in #ml-runs when it's done"
    (r"\b(?:and\s+)?(?:notify|ping|tell|alert|message|dm|slack|email|post\s+in|post\s+to)\s+(?:me|us|the\s+team|#[a-z0-9_-]+"
     r"|@[a-z0-9._-]+|<[#@][a-z0-9]+(?:\|[^>]*)?>)"
     r"\s+(?:when|once|if)\s+(?:it'?s\s+|it\s+is\s+|it\s+)?"
     r"(?:done|finished|finishes|completes?|complete|ready|ends)(?:\s+or\s+(?:fails|crashes|dies|errors(?:\s+out)?))?\b",
     "what gpuops does already: the request's thread gets the result and the cost when the job ends"),
    # "post updates in #ml-runs", "send progress to <#C0123|ml-runs>": where to hear of the job, which gpuops says in
    # the request's thread
    (r"\b(?:please\s+)?(?:post|send|share|put)\s+(?:the\s+)?(?:updates?|progress|status(?:\s+updates?)?|results?)\s+"
     r"(?:in|to|into|on)\s+(?:#[a-z0-9_-]+|<#[a-z0-9]+(?:\|[^>]*)?>|the\s+channel|this\s+channel|(?:the\s+)?thread)",
     "where to hear of the job: gpuops posts its launch, progress and cost in the request's thread, where it was "
     "asked"),
    # "within our remaining budget", "out of what's left of the team budget": the month's budget check
    (r"\b(?:within|inside|under|out\s+of|from)\s+(?:(?:our|the|my|this\s+month'?s|the\s+team'?s)\s+)?"
     r"(?:remaining|left(?:over)?)\s+(?:(?:monthly|team)\s+)?budget\b"
     r"|\b(?:within|inside|under|out\s+of|from)\s+what'?s\s+left\s+(?:of|in)\s+(?:(?:our|the|my)\s+)?"
     r"(?:(?:monthly|team)\s+)?budget\b"
     # "use our team's budget": the requester's own team's, which every plan is checked against
     r"|\b(?:use|using|from|out\s+of|against|on|within)\s+(?:our|my)\s+team(?:'s|s')?\s+(?:monthly\s+)?budget\b",
     "what gpuops does already: the plan is checked against what is left of the team's monthly budget, and goes to "
     "finance when it would take more"),
    # "could we get budget approval to", "need sign-off for": what every plan goes through
    (r"\b(?:get|need|request|requesting|ask(?:ing)?\s+for|seek(?:ing)?)\s+(?:(?:budget|an?|the|your|some)\s+)?"
     r"(?:approval|sign[\s-]?off|go[\s-]?ahead|green[\s-]?light)(?:\s+(?:to|for))?\b",
     "what gpuops does already: the plan is posted with the approvals its cost and the policy ask for"),
    # "we have AWS credits to burn", "use our EDP discount": how the bill is paid, which only makes it smaller
    (r"\b(?:(?:our|the|some|aws|promotional|activate)\s+)+credits(?:\s+(?:to\s+(?:burn|use|spend)|left|available))?\b"
     r"|\bcredits\s+(?:to\s+(?:burn|use|spend)|left|available)\b"
     # "a 20% EDP discount on EC2": what it takes off, and where (no platform asked for)
     r"|\b(?:(?:our|the|an?)\s+)?(?:\d{1,2}(?:\.\d+)?\s*%\s+)?(?:edp|enterprise(?:\s+discount)?|private\s+pricing)"
     r"(?:\s+(?:discount|agreement|rates?))?(?:\s+(?:on|for)\s+(?:aws|ec2|sagemaker|compute|gpus?))?\b",
     "how the bill is paid: the plan is priced at the catalog's public prices, which credits or a negotiated discount "
     "only lower"),
    # "GPU type doesn't matter", "any instance type is fine": hardware left open, as when none is named
    (r"\b(?:the\s+)?(?:gpu|accelerator|instance|hardware|machine)(?:\s+types?)?s?\s+(?:doesn'?t|does\s+not|don'?t"
     r"|do\s+not)\s+(?:really\s+)?matter\b|\bany\s+(?:gpu|accelerator|instance|hardware)(?:\s+types?)?\s+(?:is|are|works?)"
     r"\s+(?:fine|ok(?:ay)?)\b"
     # "whatever hardware", "on whichever GPUs", "any instance type"
     r"|\b(?:on\s+)?(?:whatever|whichever|any)\s+(?:gpus?|accelerators?|instances?|hardware|machines?)(?:\s+types?)?"
     r"(?:\s+(?:works?|fits?|is\s+(?:cheapest|best|available)))?(?=\s*(?:$|[,.;!)]))"
     # the hardware's word read already ("on whichever GPUs work"): what is left of it
     r"|\b(?:on\s+)?(?:whatever|whichever)\s+(?:works?|fits?)(?=\s*(?:$|[,.;!)]))"
     # "no GPU preference", "no preference on hardware"
     r"|\bno\s+(?:(?:gpu|accelerator|instance|hardware)(?:[\s-]+type)?\s+)?preference"
     r"(?:\s+(?:on|for|re|about)\s+(?:the\s+)?(?:gpus?|accelerators?|instances?|hardware)(?:[\s-]+types?)?)?\b",
     "what gpuops does when no hardware is named: every type the policy allows is weighed"),
    # "a number for Q1 planning": what the estimate is wanted for
    # "just scoping for Q1 planning": the scoping is the same estimate
    (r"\b(?:(?:just|only)\s+)?(?:scoping|sizing|ballparking)(?:\s+(?:it|this))?\s+(?=for\b)|"
     r"\bfor\s+(?:the\s+|our\s+)?(?:q[1-4]|h[12]|next\s+(?:quarter|year)(?:'s)?|(?:annual|quarterly|yearly|budget))"
     r"(?:\s+budget(?:ing)?)?\s+(?:planning|roadmap|forecast(?:ing)?|budget(?:ing)?)\b",
     "what the estimate is for: the plan's cost is today's, at today's prices"),
    # "kick off the next round of our fine-tune": what happens once the plan is approved
    (r"\b(?:kick(?:s|ing)?[\s-]?off|spin(?:s|ning)?\s+up)(?:\s+(?:the\s+)?(?:next|another|a\s+new)\s+"
     r"(?:round|iteration|version|run|batch)(?:\s+of)?)?\b",
     "what gpuops does once the plan is approved: the job is launched then"),
    # "~1.2B tokens after dedup": the data as it is trained on
    (r"\b(?:after|post)[\s-](?:dedup(?:e|ing|lication)?|de-?duplication|filtering|cleaning|cleanup|tokeni[sz]ation"
     r"|chunking|splitting|packing|truncation)\b",
     "what the data is once prepared: the tokens said are what is trained on"),
    # "DPO … (reference frozen)": how DPO's estimate counts its reference model already
    (r"\b(?:with\s+)?(?:a\s+|the\s+)?(?:frozen\s+ref(?:erence)?(?:\s+model)?|ref(?:erence)?(?:\s+model)?\s+(?:is\s+)?frozen)\b",
     "what the estimate already assumes: DPO's reference model frozen, forward passes only"),
    # "just to test the pipeline end to end": how much of the pipeline the run exercises, not how much it computes
    (r"\b(?:(?:from\s+)?end[\s-]+to[\s-]+end|e2e)\b",
     "how much of the pipeline the run goes through: the work said is what is priced"),
    # "priority: normal": neither sooner nor later than the deadline says ("high" and "low" are read as urgency)
    (r"\b(?:priority\s*[:=]?\s*(?:normal|medium|standard|p2)|(?:normal|medium|standard)[\s-]+priority)\b",
     "what gpuops plans by default: the cheapest plan that meets the deadline with its safety margin"),
    (r"\b(?:(?:i'?m|we'?re|i\s+am|we\s+are)\s+)?open\s+to\s+(?:any\s+)?(?:suggestions|ideas|alternatives|options)\b",
     "what gpuops does already: the plan weighs every configuration the policy allows and lists alternatives"),
    # "a fine-tuned 7B", "DPO on our fine-tuned 7B", "GRPO from our SFT 8B model": as an earlier step left it
    (r"(?:(?<=\ba )|(?<=\ban )|(?<=\bour )|(?<=\bmy )|(?<=\btheir ))(?:fine[\s-]?tuned|finetuned|pre[\s-]?trained"
     r"|instruction[\s-]tuned|sft(?:'?d)?)(?![\w-])",
     "describing the model the work starts from"),
    # "evaluate on MMLU", "evals: MMLU, GSM8K, HumanEval": how the result is checked
    (rf"\bon\s+(?:the\s+)?{BENCHMARK}(?:\s*(?:,|and|&)\s*{BENCHMARK})*\b"
     rf"|\b{BENCHMARK}(?:\s*(?:,|and|&|/)\s*(?:and\s+)?{BENCHMARK})+\b",
     "what the model is evaluated on: the benchmark, which does not change the hardware or the hours priced"),
    # "redo last week's 8B fine-tune", "rerun yesterday's sweep": the work is planned as asked today
    (r"\b(?:redo|re-?do|redone|re-?done|rerun|re-run|repeat(?:ed)?)"
     r"(?:\s+(?:(?:last|this)\s+(?:week|month)'s|yesterday's|last\s+night's|the|our|that|my))?"
     r"(?![\w-])|\bagain\b"
     # "following up on yesterday", "same 1B tokens", "Friday still works": the earlier request it follows
     r"|\bfollowing\s+up\s+on\s+(?:yesterday|last\s+week|the\s+(?:thread|request)\s+above|(?:my|our)\s+(?:last\s+)?"
     r"(?:message|request))\b",
     "the same work again: it is planned from what the request says now, at today's prices"),
    # "Friday still works": the deadline said, read already, holds
    (r"\b(?:still\s+works|still\s+(?:ok(?:ay)?|fine|good)|works\s+still)\b",
     "the deadline said still holding: the plan meets it"),
    # "re-run the 70B LoRA from last week": which earlier run (or its data) is meant
    (r"\bfrom\s+(?:last\s+(?:week|month|time|quarter)|yesterday|the\s+other\s+day)\b",
     "said of an earlier run or its data: the plan is made from what this request says, at today's prices"),
    # "but in us-west-2 this time": what this request asks, said against an earlier run
    (r"\bthis\s+time(?:\s+(?:around|round))?\b",
     "said against an earlier run: the plan is made from what this request says"),
    # "avoid B200s (not approved by security yet)": why hardware or a place is kept out, which the plan does
    (r"\(\s*(?:(?:they'?re|it'?s|is|are)\s+)?(?:not\s+(?:yet\s+)?approved|too\s+(?:expensive|pricey|slow|flaky)|no\s+quota"
     r"|not\s+available|unavailable|flaky|unreliable|deprecated|being\s+phased\s+out"
     # "not in us-east-1 (capacity issues there)"
     r"|(?:no|low|limited)\s+capacity|capacity\s+(?:issues|problems|constraints|shortages?)|sold\s+out|always\s+full)"
     r"[^()]{0,40}\)",
     "why the request keeps it out: the plan keeps it out as said"),
    # "(approx)", "(roughly)": said of the figures, which the plan gives with their range
    (r"\(\s*(?:approx(?:imately|\.)?|roughly|ish)\s*\)",
     "said of the figures: the plan's cost comes with its range"),
    # "starting now", "kick it off now": when every plan starts
    # "fine-tune 7B on 1B tokens right now": the request ending on it ("need it right now" asks for haste, unread)
    (r"\b(?:start(?:s|ing)?|begin(?:s|ning)?|kick(?:ing)?\s+(?:it\s+)?off|run(?:\s+it)?|launch(?:\s+it)?)\s+(?:it\s+)?"
     r"(?:right\s+)?now\b|(?<!\bit\s)(?<!\bthem\s)\bright\s+now(?=\s*[.!]*\s*$)",
     "when the plan starts anyway: now, once approved"),
    # "nothing fancy", "just a plain run": what gpuops plans anyway
    (r"\b(?:nothing|no)\s+(?:too\s+)?(?:fancy|crazy)\b|\b(?:just\s+)?a\s+(?:plain|simple|vanilla|standard)\s+(?:run|fine[\s-]?tune|job)\b",
     "what gpuops plans anyway: the run as said"),
    # "with early stopping": the run may end sooner than priced, never later
    (r"\b(?:with\s+|and\s+|using\s+)?early[\s-]+stopping\b",
     "how the job may end: sooner than the run priced (its cost is the most it comes to)"),
    # "and push to the model registry when done": what happens to the outputs once the run ends
    (r"\b(?:and\s+)?(?:push|upload|register|publish)(?:\s+(?:it|the\s+(?:model|weights|adapter)))?\s+(?:to|in|on)\s+"
     r"(?:the\s+|our\s+)?(?:model\s+registry|registry|hugging\s*face(?:\s+hub)?|hf\s+hub|hub)"
     r"(?:\s+(?:when|once)\s+(?:it'?s\s+)?(?:done|finished|complete))?\b",
     "what happens to the model once trained: outside the run priced"),
    # "1.2M rows in a parquet file", "stored as jsonl": how the data is stored, not how much of it there is
    # "(chat format)", "in ShareGPT format", "alpaca-style format": the data's layout, not how much of it there is
    (r"\b(?:in|as)\s+(?:a\s+|an\s+|one\s+)?(?:parquet|jsonl|json|csv|arrow|webdataset|tfrecords?|mds)"
     r"(?:\s+(?:files?|format|shards?))?\b"
     r"|\b(?:(?:in|as)\s+(?:the\s+|a\s+)?)?(?:chat|chatml|sharegpt|alpaca|openai|messages|instruction|conversation(?:al)?"
     r"|prompt[\s/-]+(?:completion|response)|q&a|qa)(?:[\s-]+style)?\s+format(?:ted)?\b",
     "how the data is stored: the tokens said are what is trained on"),
    # "3 seeds, pick the best": what is done with the runs once trained
    # (checkpoints and models kept are ``policy.parse``'s, read before "checkpoint" says the job restarts)
    (r"\b(?:and\s+)?(?:pick|keep|choose|take|select)\s+(?:the\s+)?(?:best|winner|top)(?:\s+(?:one|run|seed|model))?\b",
     "what is done with the runs once trained: each is priced as the same job"),
    # "for a 3-day distributed training debug session", "a profiling session": what the hours are for ("training" may
    # be the task reader's already, blanked)
    (r"\b(?:distributed\s+(?:training\s+)?)?(?:debug(?:ging)?|profiling|benchmarking)\s+(?:sessions?|runs?|jobs?)\b",
     "why the hardware is wanted: the hours are priced as said"),
    # "contrastive", "with an InfoNCE loss", "MLM objective": the loss, computed on the forward pass priced already
    (r"\b(?:(?:with|using)\s+(?:an?\s+|the\s+)?)?(?:contrastive|info-?nce|triplet|in-?batch[\s-]+negatives?"
     r"|masked[\s-]+language[\s-]+model(?:l?ing)?|mlm|next[\s-]+token(?:[\s-]+prediction)?|causal[\s-]+lm)"
     r"(?:\s+(?:loss|objective|learning|training|fine[\s-]?tun(?:e|ing)))?\b",
     "the training objective: computed on the forward pass already priced (6 FLOPs a parameter a token with the "
     "backward pass)"),
    (r"\bflash[\s-]?(?:attention|attn)\b",  # a version said after it ("flash attn 2") is blanked by ``policy.parse``
     "what the estimate already assumes: a layer's activation memory is counted as with flash attention, "
     "without the sequence-squared attention scores"),
)
# A longer context asked for: "extend llama 3.1 8B's context to 128k", "increase the context window to 32k"
_LONGER_CONTEXT_RE = compiled_on_use(
    r"\b(?P<x>extend(?:s|ing|ed)?|expand(?:s|ing|ed)?|increas(?:e|es|ing)|stretch(?:es|ing)?|grow(?:s|ing)?)\b"
    r"(?=(?:[^.;]|\.(?=\w)){0,50}?\bcontext\b)", _F)  # a dot inside a name ("llama 3.1 8B") ends nothing
# A context this long, said, is what "long documents" are trained at: the word describes the data then
_LONG_CONTEXT = 16_384
# The model RL trains, named by its role after its size: "PPO on a 7B policy model" (policy.estimate costs RLHF with
# its value, reference and reward models beside it)
_RL_POLICY_RE = compiled_on_use(r"(?<![\w.])\d+(?:\.\d+)?\s*[bm]\s+(?P<x>policy(?:\s+model)?)(?![\w-])", _F)
_ONE_EACH_RE = compiled_on_use(r"\(\s*(?:one|1|an?)\s+(?:per|for\s+each|each|for\s+every)\s+[a-z][\w-]*\s*\)", _F)
_PARALLEL = r"\b(?:in\s+parallel|parallel|concurrently|side\s+by\s+side|simultaneously|at\s+once)\b"
_FAMILY_NOUN = (r"(?<![\w.-])(?P<fam>(?:ml\.)?(?:p|g|trn|inf|dl)\d+[a-z]*(?:-[a-z]+\d+)?(?:\.[a-z0-9-]+)?)"
                r"\s+(?P<x>instances?|machines?|nodes?|boxes|servers?)\b")
# Words that could change a plan: never read as a description, whatever position they stand in.
_PLAN_WORDS = (
    r"spot|on-demand|demand|reserved|reservation|capacity|interrupt\w*|preempt\w*|checkpoint\w*|restart\w*|resum\w*"
    r"|prod|production|launch\w*|releases?|experiment\w*|test\w*|prototyp\w*|poc|staging"
    r"|asap|urgent\w*|fast\w*|quick\w*|slow\w*|cheap\w*|budget|cost\w*|spend\w*|deadline|today|tonight|tomorrow"
    r"|no|not|never|without|except|excluding|avoid\w*|only|non|none|nor|don't|can't|won't"
    r"|gpus?|accelerators?|nodes?|instances?|machines?|hosts?|clusters?|trainium\w*|inferentia\w*|sagemaker|hyperpod"
    r"|eks|ec2|kubernetes|k8s|slurm|region\w*|zones?|teams?|epochs?|batch\w*|context|seq\w*|steps?|trials?|runs?"
    r"|sweep\w*|teachers?|students?|distill\w*|rlhf|dpo|ppo|lora|qlora|pretrain\w*|scratch|quantiz\w*|quantis\w*"
    r"|audio|speech|voice|sounds?|music|videos?|footage|images?|imagery|pictures?|photos?|vision|multimodal"
    r"|recordings?|podcasts?|frames|pixels?|transcri\w*|asr|tts|examples?|samples?|rows?|records?|pairs?|hours?"
    r"|days?|weeks?|months?|nightly|daily|weekly|monthly|every|each|recurring"
    r"|long\w*|short\w*|sparse|moe|experts?|reward|reference|critic|value|policy|judge|draft|frozen"
    r"|larger|smaller|bigger|huge|tiny|giant|foundation|frontier|full|partial"
    # approval said in words is never read: a description must not take it ("needs approval from the CTO")
    r"|approv\w*|sign[\s-]?off|signed"
)


# The patterns above (``policy.patterns.compiled_on_use``: most requests leave no word for them to read).
_DATA_RES = tuple(compiled_on_use(p, _F) for p in _DATA)
_COUNTED_DATA_RES = tuple(compiled_on_use(p, _F) for p in _COUNTED_DATA)
_ITEMS_RE = compiled_on_use(rf"(?:{DATA_ITEMS})", _F)
_PURPOSE_RES = tuple(compiled_on_use(p, _F) for p in _PURPOSES)
_REASON_RES = tuple(compiled_on_use(p, _F) for p in _REASONS)
_WANTED_RES = tuple(compiled_on_use(p, _F) for p in _WANTED)
_ASSUMED_RES = tuple((compiled_on_use(p, _F), what) for p, what in _ASSUMED)
_PARALLEL_RE = compiled_on_use(_PARALLEL, _F)
_FAMILY_NOUN_RE = compiled_on_use(_FAMILY_NOUN, _F)
_PLAN_WORD_RE = compiled_on_use(rf"(?:{_PLAN_WORDS})", _F)
# Recurring work and the runs it comes to, a month or (less often than monthly) a year.
_TWICE = r"(?:twice|two\s+times|2\s*(?:x|times))\s+(?:a|per|each|every)\s+"
_THRICE = r"(?:three\s+times|thrice|3\s*(?:x|times))\s+(?:a|per|each|every)\s+"
_RECURRING = (
    (rf"{_TWICE}day", 60, "month"),
    (rf"{_THRICE}week", 12, "month"),
    (rf"{_TWICE}week", 8, "month"),
    (rf"{_TWICE}month", 2, "month"),
    (r"nightly|daily|every\s+(?:single\s+)?(?:night|day|morning|evening)|each\s+(?:night|day)|once\s+(?:a|per)\s+day"
     r"|(?:every|each)\s+24\s*h(?:ours|rs)?", 30, "month"),
    (r"every\s+week\s*day|every\s+(?:business|working)\s+day|(?:on\s+)?weekdays", 21, "month"),
    (r"weekly|every\s+week|each\s+week|once\s+(?:a|per)\s+week|every\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day"
     r"|(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)days", 4, "month"),
    (r"every\s+(?:other|2|two)\s+weeks?|bi-?weekly|fortnightly", 2, "month"),
    (r"monthly|every\s+month|each\s+month|once\s+(?:a|per)\s+month", 1, "month"),
    (r"every\s+(?:2|two|other)\s+months|bi-?monthly", 6, "year"),
    (r"quarterly|every\s+quarter|each\s+quarter|once\s+a\s+quarter|every\s+(?:3|three)\s+months", 4, "year"),
    (r"every\s+(?:6|six)\s+months|twice\s+a\s+year|semi-?annually|half-?yearly", 2, "year"),
    (r"yearly|annually|every\s+year|each\s+year|once\s+a\s+year", 1, "year"),
)
# "the monthly cost", "weekly spend": a figure over a period, not work repeated
_RECURRING_RES = [(compiled_on_use(rf"(?<![\w-])(?:{pattern})(?![\w-])", _F), runs, period)
                  for pattern, runs, period in _RECURRING]
# Looked for in the text as written, whose "budget" may be read already: "our monthly budget is nearly gone"
_FIGURE_AFTER_RE = compiled_on_use(
    r"\s+(?:cost|costs|spend|spending|bill|burn|total|figure|number|run[\s-]?rate"
    r"|(?P<budget>budget|allowance|quota|limit|cap))\b", _F)


def read_descriptions(scan: TextScan, fields: dict[str, Any], notes: list[str]) -> None:
    """Read the descriptive phrases still in the text, each with its note; recurring work is noted only."""
    if fields.get("seq_len"):
        for m in _LONGER_CONTEXT_RE.finditer(scan.said) if "context" in scan.said.lower() else ():
            start, end = m.span("x")  # "extend llama's context to 128k": the length is read already
            if scan.text[start:end] == scan.said[start:end]:
                scan.blank(start, end)
                notes.append(f"read '{m['x']}' with the context length said: the plan trains at that length")
    found: list[tuple[str, str]] = []
    said_long = ("long",) if (fields.get("seq_len") or 0) >= _LONG_CONTEXT else ()
    for pattern in _COUNTED_DATA_RES:
        found += [(x, "what the data is") for x in _described(scan, pattern, items=True, allow=said_long)]
    for pattern in _DATA_RES:
        found += [(x, "what the data is") for x in _described(scan, pattern, allow=said_long)]
    for pattern in _REASON_RES:
        found += [(x, "why the request names what it does") for x in _described(scan, pattern)]
    for pattern in _WANTED_RES:
        found += [(x, "why the work is wanted") for x in _described(scan, pattern)]
    for pattern in _PURPOSE_RES:
        found += [(x, "what the model is for") for x in _described(scan, pattern)]
    found += [(x, "what the data is") for x in _counted_words(scan)]
    for said, what in dict(found).items():
        notes.append(f"read '{said}' as {what}: it describes the work and does not change the plan")
    for pattern, assumed in _ASSUMED_RES:
        for m in _still_said(scan, pattern):
            scan.blank(m.start(), m.end())
            notes.append(f"read '{_spaced(m.group(0))}' as {assumed}, so it does not change the plan")
    if fields.get("task") == "rlhf" and "polic" in scan.text.lower():
        for m in _RL_POLICY_RE.finditer(scan.said):
            start, end = m.span("x")
            if scan.text[start:end] == scan.said[start:end]:
                scan.blank(start, end)
                notes.append(f"read '{_spaced(m['x'])}' as the model RL trains, costed with its value, reference and "
                             "reward models beside it, so it does not change the plan")
    if (fields.get("trials") or 1) > 1:
        for m in _still_said(scan, _ONE_EACH_RE):  # "4 LoRA adapters (one per language)"
            scan.blank(m.start(), m.end())
            notes.append(f"read '{_spaced(m.group(0))}' as what tells the {fields['trials']} runs apart: each is "
                         "priced as the same job")
        for m in _still_said(scan, _PARALLEL_RE):
            scan.blank(m.start(), m.end())
            notes.append(f"read '{_spaced(m.group(0))}' with the {fields['trials']} trials: they run side by side "
                         "already when the hardware allows, so it does not change the plan")
    for m in _FAMILY_NOUN_RE.finditer(scan.said):
        start, end = m.span("x")
        if scan.text[m.start("fam") : m.end("fam")].strip() == "" and scan.text[start:end] == scan.said[start:end]:
            scan.blank(start, end)
            notes.append(f"read '{m['x']}' with '{m['fam']}' as that instance family, with no count of its own")


def _counted_words(scan: TextScan) -> list[str]:
    """The words between a token count read already and the word "tokens" ("300M reasoning tokens"), each blanked
    with that word once read, where none of them could change a plan."""
    read = []
    for m in _COUNT_OF_WORDS_RE.finditer(scan.said):
        start, end = m.span("x")
        words = scan.said[start:end].split()
        if (scan.text[start : m.end("tok")] != scan.said[start : m.end("tok")] or scan.text[m.start() : start].strip()
                or any(plan_word(w) for w in words)):
            continue  # the words or "tokens" taken by another reader, the count not, or a word that plans
        scan.blank(start, m.end("tok"))
        read.append(" ".join(words))
    return read


# Approval said in words: "already approved by @alice", "my manager approved it", "approved in yesterday's planning
# meeting", "please auto-approve", "skip approval". Only approvals recorded with the Approve button or the API count.
APPROVAL_CLAIM_RE = compiled_on_use(
    r"\b(?:(?:it(?:'s|\s+(?:is|was|has\s+been))|this\s+(?:is|was|has\s+been)|(?:is|was|has\s+been))\s+)?"
    r"(?:already\s+|pre-?)approved(?:\s+by\s+(?:my\s+|our\s+|the\s+)?[\w@.'-]+(?:\s+(?:lead|manager|team))?)?"
    # "approved by Sarah already", "Sarah already approved it", "auto-approve please"
    r"|(?<!not\s)(?<!n't\s)(?<!never\s)\bapproved\s+by\s+(?:my\s+|our\s+|the\s+)?[\w@.'-]+"
    r"(?:\s+(?:lead|manager|team))?(?:\s+already)?"
    r"|\b[\w@.'-]+\s+already\s+(?:approved|signed\s+off(?:\s+on)?|ok'?d|okayed)(?:\s+(?:it|this))?"
    r"|\bauto-?approve(?:\s+(?:it|this))?,?\s+(?:please|pls)\b"
    # "approve asap pls", "please approve quickly": how soon the approval is wanted, never how soon the job ends
    r"|\b(?:(?:please|pls|plz)\s+)?approve\s+(?:it\s+|this\s+)?(?:asap|quickly|fast|soon|today|right\s+away|urgently"
    r"|as\s+soon\s+as\s+(?:possible|you\s+can))(?:,?\s+(?:please|pls|plz|thanks|thx))?(?![\w-])"
    r"|\b(?:my|our|the)\s+(?:manager|lead|boss|director|vp|head(?:\s+of\s+\w+)?|pm)\s+(?:already\s+)?(?:approved|signed\s+off"
    r"(?:\s+on)?|ok'?d|okayed|green-?lit)(?:\s+(?:it|this))?"
    r"|\bapproved\s+(?:in|at|during)\s+(?:(?:yesterday'?s|today'?s|last\s+week'?s|this\s+week'?s|the|our)\s+)?"
    r"(?:[\w-]+\s+){0,2}?(?:meeting|standup|stand-up|sync|review|call|planning)(?:\s+(?:meeting|call|session))?"
    r"|\b(?:please|pls|just|(?:can|could)\s+you)\s+auto-?approve(?:\s+(?:it|this))?|\bauto-?approve\s+(?:it|this)\b"
    r"|\bskip\s+(?:the\s+)?approvals?|\bwithout\s+(?:an?\s+|any\s+)?approvals?"
    r"|\bno\s+approvals?\s+(?:needed|required|necessary)|\bbypass(?:ing)?\s+(?:the\s+)?approvals?", _F)


# What such a phrase is called wherever it is said back: the note, the approval's reason, the plan message
APPROVAL_CLAIMED = "approval said in words"


def claims_approval(phrase: str) -> bool:
    """Whether an unread phrase is approval said in words ("already approved by @alice"), which only recorded
    approvals can give."""
    return APPROVAL_CLAIM_RE.fullmatch(_spaced(phrase)) is not None


def cadence(phrase: str) -> tuple[int, str] | None:
    """How many runs a recurring phrase comes to, and over what: ("nightly": 30, "month"), ("quarterly": 4,
    "year"); None if it is no cadence."""
    said = _spaced(phrase)
    return next(((runs, period) for pattern, runs, period in _RECURRING_RES if pattern.fullmatch(said)), None)


def _described(scan: TextScan, pattern: re.Pattern[str], *, items: bool = False, allow: tuple[str, ...] = ()
               ) -> list[str]:
    """The described phrases ``pattern`` finds where each word is still unread and none could change a plan; each
    is blanked once read. ``items``: a dataset's item nouns ("pairs", "examples") describe, their count said;
    ``allow``: plan words that what the request said already settles ("long", its long context said)."""
    read = []
    for m in pattern.finditer(scan.said):
        start, end = m.span("x")
        # a list ends before the first of its parts that plans: "of medical text, budget 15k" describes "medical text"
        for sep in _LIST_SEPARATOR_RE.finditer(scan.said, start, end):
            if any(plan_word(w) for w in scan.said[sep.end() : end].split()):
                end = sep.start()
                break
        # the words no other reader took ("to debug distributed training": "training" is the task's), to the last
        # of them ("to debug a distributed training issue": "issue" too), which are what this reading blanks
        spans = [(start + w.start(), start + w.end()) for w in re.finditer(r"\S+", scan.said[start:end])
                 if scan.text[start + w.start():start + w.end()] == w.group(0)]
        if not spans or spans[0][0] != start:
            continue
        end = spans[-1][1]
        unread = [scan.said[a:b] for a, b in spans]
        words = scan.said[start:end].split()
        if any(plan_word(w) and not (items and _ITEMS_RE.fullmatch(w)) and w.lower() not in allow for w in unread):
            continue
        for a, b in spans:
            scan.blank(a, b)
        while len(words) > 1 and words[-1].lower() in _TRAILING_GLUE:  # "reproduce the" of "… the llama 2 run"
            words.pop()
        # a list's separator after its last part read ("of medical text, need it …": the rest read elsewhere)
        read.append(" ".join(words).rstrip(",;:/&+ "))
    return read


_LIST_SEPARATOR_RE = compiled_on_use(r"\s*(?:,|\+|&|/|\band\b|\bplus\b)\s*", _F)
_TRAILING_GLUE = frozenset(("the", "a", "an", "our", "my", "their", "your", "of", "for"))


def plan_word(word: str) -> bool:
    """A word that could change a plan, whole or in any hyphened part ("long-context")."""
    lowered = word.lower().strip("'.,;:!?\"()")  # "production," ends a list part as "production" does
    return (lowered in AREA_WORDS or lowered in PLACE_WORDS or any(c.isdigit() for c in lowered)
            or any(_PLAN_WORD_RE.fullmatch(part) is not None for part in (lowered, *lowered.split("-"))))


def _still_said(scan: TextScan, pattern: re.Pattern[str]) -> list[re.Match[str]]:
    """Matches of ``pattern`` in the text as it stands: phrases no reader has taken."""
    return list(pattern.finditer(scan.text))


# "as a one-off", "just this once": one run, as every request is; said beside a cadence ("re-run our nightly eval as
# a one-off"), the cadence is what the work usually is, not this request's
_ONE_OFF_RE = compiled_on_use(r"\b(?:as\s+)?(?:a\s+)?(?:one[\s-]?off|one[\s-]time)(?:\s+(?:run|job|thing))?\b"
                              r"|\b(?:just\s+)?this\s+once\b", _F)


def read_recurring(scan: TextScan, notes: list[str]) -> None:
    """ "nightly", "once a week", "every Monday": noted with the runs a month and listed as unread in one piece.
    Read before dates, so the Monday of "every Monday" is no deadline. Said as a one-off, one run."""
    lowered = scan.text.lower()
    once = _ONE_OFF_RE.search(scan.text) if ("one" in lowered or "once" in lowered) else None
    if once is not None:
        scan.blank(once.start(), once.end())
        notes.append(f"read '{_spaced(once.group(0))}' as one run, as every request is")
    first: dict[tuple[int, str], str] = {}  # each cadence's first phrase: "nightly … every night" is one cadence
    for pattern, runs, period in _RECURRING_RES:
        for m in list(pattern.finditer(scan.text)):
            said = _spaced(m.group(0))
            # "the monthly cost", a figure's period; not "what will a 13B SFT every week cost?", the work repeated
            adjective = " " not in said.strip()
            figure = _FIGURE_AFTER_RE.match(scan.said, m.end()) if adjective else None
            if figure is not None:  # a figure's period, no work repeated
                if figure["budget"]:
                    scan.blank(m.start(), m.end())  # "our monthly budget": the team's, which every plan is checked on
                continue  # "the monthly cost": left to the words read with it ("what's the monthly cost if …")
            scan.blank(m.start(), m.end())
            if once is not None:  # "our nightly eval suite … as a one-off": what the work usually is
                notes.append(f"read '{said}' as how the work usually runs: this request, a one-off, is one run")
                continue
            if (runs, period) in first:
                notes.append(f"read '{said}' as the same recurring work as '{first[runs, period]}'")
                continue
            first[runs, period] = said
            scan.unused.append(said)
            notes.append(f"read '{said}' as recurring work, about {runs} run{'s' if runs > 1 else ''} a {period}: "
                         "gpuops "
                         "launches one run per approved request, so the plan prices one run; left unread so a person "
                         "approves the recurring commitment")


def _spaced(text: str) -> str:
    return " ".join(text.split())
