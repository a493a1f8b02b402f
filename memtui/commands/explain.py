"""explain: what an agent's session would get for a prompt, layer by layer, and why.

Every layer of a session (`recall.layers.picture`), what the agent loads by itself (its module's
`LOADS`), then each search candidate with its signals by name and its hit probability, the gate's
decision with its reason (`index.calibration.decide`), and the memories recall would inject. This is
how a person checks recall, and how the gate is tuned.
"""

from __future__ import annotations

import argparse
from typing import Any

from memtui.commands.common import open_bank, print_json, readable, text_argument

USAGE = 'usage: memtui explain [--agent NAME] [--json] "PROMPT"  (or the prompt on standard input)'


def register(sub: argparse._SubParsersAction) -> None:
    from memtui.agents import DEFAULT, NAMES

    p = sub.add_parser(
        "explain",
        help="what an agent's session would get for a prompt: every layer, each candidate's scores, the gate's reason",
    )
    p.add_argument("prompt", nargs="*", help="the prompt (or standard input)")
    p.add_argument(
        "--agent", choices=NAMES, default=DEFAULT, help=f"the agent whose session to explain (default {DEFAULT})"
    )
    p.add_argument(
        "--semantic",
        choices=["local", "off"],
        default=None,
        help="local: words and meaning, as the warm service (default when installed); off: words only, as the "
        "hook without a service",
    )
    p.add_argument("--json", action="store_true", help="the same as one JSON object")
    p.set_defaults(func=cmd_explain)


def cmd_explain(args: argparse.Namespace) -> int:
    bank = readable(open_bank(args))
    text = text_argument(args.prompt, "prompt", usage=USAGE)
    report = explained(bank, text, args.agent, _mode(args.semantic))
    if args.json:
        print_json(report)
    else:
        for line in lines(report):
            print(line)
    return 0


def _mode(requested: str | None) -> str:
    if requested:
        return requested
    from memtui.index import embed

    return "local" if embed.available() else "off"


def explained(bank: Any, prompt: str, agent: str, semantic: str) -> dict[str, Any]:
    """The whole explanation as JSON values: layers, what the agent loads, candidates, decision."""
    from dataclasses import asdict

    from memtui import agents
    from memtui.config import unreviewed
    from memtui.core import provenance
    from memtui.index import calibration
    from memtui.index.search import search
    from memtui.recall.layers import Loads, picture
    from memtui.runtime.settings import HookSettings

    settings = HookSettings.from_table(bank.config.section("hooks"))
    module = agents.get(agent)
    loads = Loads.read(bank.project, bank.config, loads=module.LOADS)
    what = tuple(module.LOADS)
    layers = [asdict(layer) for layer in picture(bank.project, bank.config, settings) if _gets(layer.name, what)]
    # As recall searches: at least five (the gate reads the best five hits' signals).
    hits = search(bank, prompt, k=max(settings.recall_k, 5), semantic=semantic)
    decision = calibration.decide(hits, settings.recall_k)
    clause = ""
    if not decision.kept:
        # As recall does (`recall.lookup`): a held prompt is judged sentence by sentence.
        from dataclasses import replace

        from memtui.index.clauses import clauses

        for part in clauses(prompt):
            found = search(bank, part, k=max(settings.recall_k, 5), semantic=semantic)
            alone = calibration.decide(found, settings.recall_k)
            if alone.kept:
                clause, hits = part, found
                reason = f"{alone.reason}; on its sentence {part!r} (the whole prompt: {decision.reason})"
                decision = replace(alone, reason=reason)
                break
    kept = {h.memory.id for h in decision.kept}
    mode = unreviewed(bank.config)
    names = calibration.HYBRID_SIGNALS if decision.model == "hybrid" else calibration.LEXICAL_SIGNALS
    candidates = [
        {
            "id": h.memory.id,
            "summary": h.memory.summary,
            "p": h.score,
            "signals": dict(zip(names, h.signals, strict=False)),
            "why": h.why,
            "kept": h.memory.id in kept,
            "loaded": loads.carries(h.memory),
            "by": provenance.writer(h.memory, agents.label),
            "trust": _trust(h.memory, mode),
        }
        for h in hits
    ]
    injected = [
        h.memory.id
        for h in decision.kept
        if settings.recall and _trust(h.memory, mode) != "held" and h.memory.active and loads.adds(h.memory)
    ]
    return {
        "prompt": prompt,
        "agent": agent,
        "loads": {
            "what": list(what),
            "block_lines": len(loads.block),
            "index_lines": len(loads.index.lines),
            "index_path": str(loads.index_path) if loads.index_path else None,
        },
        "layers": layers,
        "candidates": candidates,
        "decision": {
            "model": decision.model,
            "relevance": round(decision.relevance, 4),
            "gate_at": decision.gate_at,
            "reason": decision.reason,
            "kept": [h.memory.id for h in decision.kept],
            "clause": clause,
        },
        "injected": injected,
        "unreviewed": mode,
    }


def _trust(memory: Any, mode: str) -> str:
    """How recall treats the memory: "reviewed", "marked" (recalled with its unreviewed label),
    "unmarked" (`[recall] unreviewed = "allow"`) or "held" (not recalled until reviewed)."""
    if memory.reviewed:
        return "reviewed"
    if memory.held or mode == "hold":
        return "held"
    return "marked" if mode == "mark" else "unmarked"


#: The layers an agent gets only when it loads their file by itself (the rest memtui sends).
LAYER_LOADS = {
    "CLAUDE.md block": "claude_md",
    "MEMORY.md index": "auto_memory",
    "AGENTS.md block": "agents_md",
    "Gemini MEMORY.md": "gemini_memory",
}


def _gets(layer: str, loads: tuple[str, ...]) -> bool:
    """Whether an agent that loads `loads` by itself gets this layer in its session."""
    needs = LAYER_LOADS.get(layer)
    return needs is None or needs in loads


def lines(report: dict[str, Any]) -> list[str]:
    """The explanation for a terminal: every text a memory or the prompt chose goes through the defuser."""
    from memtui.core.defuse import for_terminal
    from memtui.recall.layers import counted

    def clean(value: object) -> str:
        return for_terminal(str(value), oneline=True)

    loads = report["loads"]
    out = [f"prompt: {clean(report['prompt'])}", f"agent: {report['agent']}"]
    what = ", ".join(loads["what"]) or "nothing memtui knows of"
    out.append(
        f"  loads by itself: {what} (memtui's block {loads['block_lines']} lines, "
        f"auto-memory index {loads['index_lines']} lines)"
    )
    out.append("layers:")
    for layer in report["layers"]:
        limit = f" of {layer['limit']}" if layer["limit"] else ""
        out.append(
            f"  {clean(layer['name'])} ({layer['by']}): {counted(layer['name'], layer['count'])}, "
            f"{layer['size'] / 1024:.1f} KB{limit}; {clean(layer['what'])}"
        )
    decision = report["decision"]
    out.append(f"candidates ({decision['model']} model):")
    if not report["candidates"]:
        out.append("  none")
    for c in report["candidates"]:
        mark = "kept" if c["kept"] else "    "
        loaded = " (already loaded)" if c["loaded"] else ""
        out.append(f"  {mark} p={c['p']:.2f}  {clean(c['id'])}  {clean(c['summary'])}{loaded}")
        out.append("        " + ", ".join(f"{name} {value:.3f}" for name, value in c["signals"].items()))
        out.append(f"        by {clean(c['by'])} · {c['trust']}")
    out.append(f"gate: {clean(decision['reason'])}")
    injected = report["injected"]
    out.append("injects: " + (", ".join(clean(i) for i in injected) if injected else "nothing"))
    return out
