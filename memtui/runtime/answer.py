"""A recall event's answer: a prompt's explicit "remember that …" saved, its memories recalled; a
session's briefing with its chores. Recall itself (`recall.answer`) gives the text; the agent
(`Context.answer`) shapes it for its stdout.
"""

from __future__ import annotations

from typing import Any

from memtui.core.payload import PROMPT

TASK_NOTIFICATION = "<task-notification>"
#: Explicit "remember that …" detection reads this much of a prompt.
EXPLICIT_CHARS = 20000
#: How long an explicit save waits for another writer before it gives up (and recall goes on).
SAVE_LOCK_SECONDS = 2.0


def prompt(context: Any) -> dict[str, Any] | None:
    text = context.hook.prompt
    if text is None or text.lstrip().startswith(TASK_NOTIFICATION):
        return None
    settings = context.settings
    saved: list[Any] = []
    unsaved: str | None = None
    found: list[tuple[str, str]] = []
    try:
        found = _explicit(text)
        saved = _save(context, found) if found else []
    except Exception as exc:  # a store that cannot be written must not cost the recall
        context.log(f"could not save the explicit memory: {_describe(exc)}")
        unsaved = _unsaved_note(exc) if found else None
    notes = [_saved_note(saved)] if saved else []
    if unsaved:
        notes.append(f"{unsaved} Tell the user it was not saved, so they can save it again later.")
    if settings.recall and len(text.strip()) >= settings.min_prompt_chars:
        from memtui.recall import answer

        reserved = sum(len(n) + 2 for n in notes)
        try:
            notes.append(answer.prompt(context, text, [m.id for m in saved], reserved))
        except Exception as exc:  # an index that cannot be read (a full disk) must not cost the notes
            if not notes:
                raise
            context.log(f"recall failed: {_describe(exc)}")
    reply = context.answer("\n\n".join(n for n in notes if n))
    if unsaved and reply is not None and "hookSpecificOutput" in reply:
        reply["systemMessage"] = unsaved  # shown to the person; additionalContext reaches only the model
    return reply


def _explicit(text: str) -> list[tuple[str, str]]:
    """What the user explicitly asked to remember: (type, content) pairs, found without a model."""
    if "remember" not in text[:EXPLICIT_CHARS].lower():
        return []  # the common case, decided without importing the detector
    from memtui.capture.explicit import explicit_memories

    return list(explicit_memories(text[:EXPLICIT_CHARS]))


def _save(context: Any, found: list[tuple[str, str]]) -> list[Any]:
    """Save what the user explicitly asked to remember, now."""
    from memtui.core.memory import PERSON, Source
    from memtui.store.bank import Bank

    bank = Bank(context.project)
    bank.lock.timeout = SAVE_LOCK_SECONDS
    # The person's own "remember …" in the prompt: theirs, though it came through an agent's session.
    source = Source(context.session_id or None, context.event, agent=context.agent.NAME, kind=PERSON, rests_on="person")
    return [bank.add(type_, content, source=source, trim=True).memory for type_, content in found]


def _unsaved_note(exc: BaseException) -> str:
    """The one line the person and the model are told when an explicit save failed (a read-only or
    full disk, the store's lock held): never dropped without a word."""
    from memtui.core.defuse import for_model
    from memtui.errors import say

    return f"memtui could not save this: {for_model(say(exc), oneline=True)}."


def _saved_note(saved: list[Any]) -> str:
    """Outside the fence, so everything of the memory in it is defused: the text is the user's,
    but a prompt that carries `</system-reminder>` or invisible characters must not have memtui
    repeat them as its own words."""
    from memtui.core.defuse import for_model

    items = "; ".join(
        f"[{for_model(m.type, oneline=True)}] {for_model(m.content, oneline=True)[:200]} ({for_model(m.id, oneline=True)})"
        for m in saved
    )
    return f"memtui saved this to the project's memory as the user asked: {items}"


def respond(context: Any) -> dict[str, Any] | None:
    """A recall event's answer: the prompt's memories, or the session's briefing with its chores
    (a verify queued when HEAD moved, per-clone files kept out of git, the merge driver registered)."""
    if context.event == PROMPT:
        return prompt(context)
    from memtui.recall.answer import briefing
    from memtui.runtime import spool, verify_jobs

    text = briefing(context)
    context.chore("queue verification", verify_jobs.after_session_start)
    context.chore("queue the capture of sessions that ended without SessionEnd", spool.leftovers)
    context.chore("update .memory/.gitignore", _ignore_per_clone_files)
    note = context.chore("register the merge driver", _merge_driver)
    return context.answer("\n\n".join(part for part in (text, note) if part))


def _merge_driver(context: Any) -> str | None:
    """A clone the project's .gitattributes sends to memtui's merge driver, whose git config does
    not name it (a teammate who never ran setup): register it, as `git lfs install` would; if that
    cannot be done, the session is told what to run. Returns that note, if any."""
    from pathlib import Path

    root = Path(context.project.root)
    if not (root / ".gitattributes").is_file():
        return None
    from memtui.store import gitdriver

    if not gitdriver.missing(root):
        return None
    if gitdriver.register(root):
        context.log("registered memtui's git merge driver for this clone")
        return None
    return f"memtui: {gitdriver.HOW}."


def _ignore_per_clone_files(context: Any) -> None:
    """A project from before a per-clone file was ignored gets the line (a read of a small file)."""
    from memtui.store.ignore import ensure_ignored

    ensure_ignored(context.project)


def _describe(exc: BaseException) -> str:
    from memtui.runtime import log

    return log.describe(exc)
