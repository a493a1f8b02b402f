"""The Bank: one view over every store of a project, and the only way to change a memory.

Every change is read-modify-write under the project lock: the affected store is re-read (cheap
when unchanged), the pure operation is applied, the result written atomically and journalled.
A TUI edit therefore never overwrites what a hook wrote a second earlier.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from memtui.config import Config
from memtui.core import dedup, ids, intake, ops, redact, storekinds
from memtui.core.clock import utcnow
from memtui.core.memory import Memory, Source, Status, new_id
from memtui.errors import Ambiguous, BadValue, ConfigError, Conflict, NotFound, UsageError
from memtui.store import proposals, rendering, undo, verified
from memtui.store.agentstores import open_store, read_only
from memtui.store.batchadd import Batch, prepare, track
from memtui.store.journal import Change, Entry, Journal
from memtui.store.locations import MarkdownDir, Project, find_project, markdown_dirs
from memtui.store.lock import ProjectLock
from memtui.store.markdown import MarkdownStore
from memtui.store.rendering import BLOCK_SCOPES, RenderPlan  # noqa: F401  (re-exported)
from memtui.store.safepath import confine
from memtui.store.statefile import StateStore
from memtui.store.undo import Step

Store = StateStore | MarkdownStore
#: Why another agent's store is not here, and what makes it appear.
_ABSENT = {
    "md:gemini": "Gemini CLI keeps no private memory for this project yet (it registers the project in "
    "~/.gemini/projects.json on its first run here): run `gemini` in the project once",
    "md:codex": "Codex CLI has no memories here ($CODEX_HOME/memories/MEMORY.md): turn them on with "
    "`[features] memories = true` in Codex's config.toml",
}


@dataclass(frozen=True)
class SaveResult:
    memory: Memory
    superseded: tuple[Memory, ...] = ()
    #: True when an identical memory existed and was touched instead of copied.
    reaffirmed: bool = False
    #: The reviewed memory this unreviewed save would have superseded: kept, and the save waits in
    #: the review queue as a proposal to replace it (store/proposals.py).
    proposed: Memory | None = None
    #: An explicit supersede that matched nothing: the memory was saved as new; this says so.
    unmatched_supersede: str | None = None
    redacted: tuple[str, ...] = ()
    #: What the way in changed (control characters removed, a field cut to its limit): one phrase each.
    notes: tuple[str, ...] = ()


def clean_tags(tags: Iterable[str]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for tag in tags:
        t = str(tag).strip().lower().lstrip("#")
        if t and t not in (Status.SUPERSEDED.value, Status.ARCHIVED.value):
            seen.setdefault(t, None)
    return tuple(seen)


#: At most this many questions per memory, each at most QUESTION_CHARS: a handful of phrasings,
#: not a second copy of the memory.
MAX_QUESTIONS = 5
QUESTION_CHARS = 160


def clean_questions(questions: Iterable[str]) -> tuple[str, ...]:
    """Questions as stored: redacted, one line each, short, distinct, at most MAX_QUESTIONS."""
    seen: dict[str, str] = {}  # folded → as written: the first spelling of a question is kept
    for question in questions:
        text = " ".join(redact.redact(str(question)).split())[:QUESTION_CHARS].strip()
        if text:
            seen.setdefault(text.lower(), text)
    return tuple(seen.values())[:MAX_QUESTIONS]


class Bank:
    def __init__(
        self,
        project: Project,
        config: Config | None = None,
        *,
        env: Mapping[str, str] | None = None,
        clock: Callable[[], datetime] = utcnow,
        actor: tuple[str, str | None] | None = None,
    ) -> None:
        self.project = project
        #: (session, agent) of the MCP server session this Bank works for: every change it journals
        #: says so, and `undo` takes the session's run of changes back as one step (store/undo.py).
        self.actor = actor
        self.config = config or Config.load(project.path("config.toml"))
        #: A config.toml a tolerant open (`open_tolerant`) could not read, as its one line.
        self.config_problem: str | None = None
        self.registry = self.config.types
        self.clock = clock
        self.lock = ProjectLock(project.path("lock"))
        self.journal = Journal(project.path("journal.jsonl"))
        self.state = StateStore(project.path("state.json"), project.name)
        self.markdown = [open_store(d, self.registry) for d in markdown_dirs(project, env)]
        self._stores: dict[str, Store] = {self.state.key: self.state, **{s.key: s for s in self.markdown}}
        #: Why the CLAUDE.md block could not follow the last change (the change itself was saved).
        self.render_problem: str | None = None
        self._batch: Batch | None = None

    @classmethod
    def open(cls, cwd: Path | None = None, env: Mapping[str, str] | None = None, **kwargs: Any) -> Bank:
        project = find_project(cwd, env).require()
        return cls(project, Config.load(project.path("config.toml")), env=env, **kwargs)

    @classmethod
    def open_tolerant(cls, cwd: Path | None = None, env: Mapping[str, str] | None = None) -> Bank:
        """`open` for a reader that shows what it can (`status`): a config.toml or state.json that a
        bounded read refuses (core/boundedread.py) is a line in `problems`, not a failure."""
        from memtui.core.boundedread import Unreadable

        project = find_project(cwd, env).require()
        try:
            config = Config.load(project.path("config.toml"))
            unread = None
        except ConfigError as exc:
            if not isinstance(exc.__cause__, Unreadable):
                raise
            config, unread = Config(path=project.path("config.toml")), f"{exc}; the defaults are used"
        bank = cls(project, config, env=env)
        bank.state.tolerant = True
        bank.config_problem = unread
        return bank

    # -- reading -------------------------------------------------------------------------------

    def stores(self) -> dict[str, Store]:
        return dict(self._stores)

    def store(self, key: str, *, create: bool = False) -> Store:
        """The store named `key` (`state`, `local`, `project`, `user`, `agent:<name>` or its `md:`
        key). `create`: a subagent's memory folder that does not exist yet is made, as Claude Code
        makes it on the subagent's first write."""
        aliases = {"state.json": "state", **storekinds.ALIASES}
        key = aliases.get(key, key)
        if key.startswith("agent:"):
            key = "md:" + key
        if key not in self._stores and create and key.startswith("md:agent:"):
            name = key.removeprefix("md:agent:")
            if not name or name.startswith(".") or not all(c.isalnum() or c in "-_." for c in name):
                raise UsageError(f"{name!r} is not a subagent name: use letters, digits, '-', '_' and '.'")
            directory = self.project.root / ".claude" / "agent-memory" / name  # made on the first write
            store = MarkdownStore(MarkdownDir(f"agent:{name}", directory), self.registry)
            self.markdown.append(store)
            self._stores[key] = store
        if key not in self._stores and key in _ABSENT:
            raise UsageError(_ABSENT[key])
        if key not in self._stores:
            raise UsageError(f"no store {key!r}; stores here: {', '.join(self._stores)}, or agent:<name>")
        return self._stores[key]

    def attach(self, store: Any) -> None:
        """Add a store beside the project's (the organisation's scopes, memtui/org/store.py): one
        with the same contract (load, cached, active, snapshot, encode, apply, key, scope), its
        changes journalled and undone like any other's."""
        self._stores[store.key] = store

    def memories(self, *, include_inactive: bool = True) -> list[Memory]:
        out: list[Memory] = []
        for store in self._stores.values():
            if store is self.state or store.exists:
                out += store.load().values()
        return out if include_inactive else [m for m in out if m.active]

    @property
    def problems(self) -> list[str]:
        salvaged = [f"{self.state.salvaged}; `memtui repair` writes the merge and lists what to review"]
        # What a tolerant open (`status`) could not read:
        unread = [p for p in (self.config_problem, self.state.problem) if p]
        return unread + (salvaged if self.state.salvaged else []) + [p for s in self.markdown for p in s.problems]

    def get(self, memory_id: str) -> Memory:
        for memory in self.memories():
            if memory.id == memory_id:
                return memory
        raise NotFound(f"no memory {memory_id!r}; `memtui list` shows the ids")

    def resolve(self, ref: str) -> Memory:
        """An exact id, else a unique prefix, else a unique suffix (the random part or the file stem)."""
        problem = ids.problem(ref)
        if problem:  # not echoed: an id typed or pasted may be anything, a terminal escape too
            raise NotFound(f"that is not a memory id ({problem}); `memtui list` shows the ids")
        everything = self.memories()
        for memory in everything:
            if memory.id == ref:
                return memory
        for match in (lambda m: m.id.startswith(ref), lambda m: m.id.endswith(ref)):
            hits = [m for m in everything if match(m)] if ref else []
            if len(hits) == 1:
                return hits[0]
            if len(hits) > 1:
                raise Ambiguous(
                    f"{ref!r} matches {len(hits)} memories ({', '.join(m.id for m in hits[:3])}, …); give more of the id"
                )
        raise NotFound(f"no memory {ref!r}; `memtui list` shows the ids")

    def _fresh(self, memory: Memory) -> Memory:
        """The memory as its store now holds it (with its file path, at stored precision)."""
        return self._stores[memory.store].cached(memory.id) or memory

    # -- the transaction -----------------------------------------------------------------------

    def commit(
        self,
        op: str,
        summary: str,
        changes: Mapping[str, Mapping[str, Memory | None]],
        header: Mapping[str, Any] | None = None,
    ) -> Entry | None:
        """One transaction over any stores: encode, journal (write-ahead, one undoable entry) and apply.

        For callers composing several changes (consolidation): hold `bank.lock` and load the affected
        stores first, so the changes are computed from what is on disk now.
        """
        self._writable({*changes, *([self.state.key] if header else [])})
        now = self.clock()
        if self._batch is not None:
            self._gather(self._batch, changes, now)
            return None
        journal: list[Change] = []
        encoded: dict[str, dict[str, dict[str, Any] | None]] = {}
        for key, memories in changes.items():
            store = self._stores[key]
            encoded[key] = {}
            for mid, memory in memories.items():
                after = store.encode(memory) if memory is not None else None
                encoded[key][mid] = after
                journal.append(Change(key, mid, store.snapshot(mid), after))
        self._confined(encoded)
        entry = (
            self.journal.append(op, summary, journal, session=self._by()[0], agent=self._by()[1]) if journal else None
        )
        for number, (key, snaps) in enumerate(encoded.items()):
            try:
                self._stores[key].apply(snaps, now, header if key == self.state.key else None)
            except OSError:
                # A first store that failed (a full disk) before any of its files changed leaves
                # the project as it was, so the journal too; once anything changed, the entry
                # stays, for undo.
                if entry is not None and number == 0 and self._unchanged(key, journal):
                    self.journal.retract(entry)
                raise
        if header and self.state.key not in encoded:
            self.state.apply({}, now, header)
        self._auto_render()
        return entry

    @contextmanager
    def batch(self, op: str, summary: str, texts: Iterable[str] | None = None) -> Iterator[Batch]:
        """Many operations (`add`, with its redaction, checks and dedup) as ONE undoable change to
        state.json: inside, each is applied to what this process holds, so the next one's dedup sees
        it, and nothing is written; on the way out the whole batch is journalled as one entry and the
        file written once. An error inside writes nothing at all. `texts`: what the adds will save,
        when known, for a shortlist that keeps the dedup of a large batch fast (store/batchadd.py)."""
        with self.lock:
            self.state.load()
            batch = self._batch = Batch(op, summary)
            prepare(batch, self.state, texts)
            try:
                yield batch
            except BaseException:
                self.state.forget()
                raise
            finally:
                self._batch = None
            changes = [c for c in batch.changes.values() if c.before != c.after]
            if changes:
                batch.entry = self.journal.append(
                    op, batch.summary, changes, session=self._by()[0], agent=self._by()[1]
                )
                self.state.apply({c.id: c.after for c in changes}, self.clock())
                self._auto_render()

    def _by(self) -> tuple[str | None, str | None]:
        """(session, agent) for the journal: whose change this is, when an agent session's."""
        return self.actor if self.actor else (None, None)

    def _gather(self, batch: Batch, changes: Mapping[str, Mapping[str, Memory | None]], now: datetime) -> None:
        if set(changes) - {self.state.key}:
            raise UsageError("a batch changes state.json only; save into other stores one by one")
        snaps = {}
        for mid, memory in changes.get(self.state.key, {}).items():
            after = self.state.encode(memory) if memory is not None else None
            first = batch.changes.get(mid)
            before = first.before if first is not None else self.state.snapshot(mid)
            batch.changes[mid] = Change(self.state.key, mid, before, after)
            snaps[mid] = after
            track(batch, mid, memory)
        self.state.apply(snaps, now, write=False)

    def _writable(self, keys: Iterable[str]) -> None:
        """Refuse a change, before its first write, when a file or folder it must write is the
        wrong kind of thing (a folder named state.json, a file where a memory folder belongs): a
        change is carried out whole or not at all."""
        for key in keys:
            store = self._stores[key]
            if read_only(store):
                raise UsageError(getattr(store, "refusal", f"{key} is read only"))
            if getattr(store, "remote", False):
                continue  # a database's store (memtui/org/store.py): no file of the project to check
            paths = [store.path] if isinstance(store, StateStore) else [store.path / "MEMORY.md"]
            if isinstance(store, MarkdownStore) and store.path.exists() and not store.path.is_dir():
                raise UsageError(f"{store.path} is a file where a memory folder belongs; move it aside and run again")
            for path in paths:
                if path.is_dir():
                    raise UsageError(f"{path} is a directory where memtui expects a file; move it aside and run again")
        if self.journal.path.is_dir():
            raise UsageError(
                f"{self.journal.path} is a directory where memtui expects a file; move it aside and run again"
            )

    def _unchanged(self, key: str, changes: Iterable[Change]) -> bool:
        store = self._stores[key]
        if isinstance(store, StateStore):
            return True  # state.json is replaced whole or not at all
        return all(store.snapshot(c.id) == c.before for c in changes if c.store == key)

    def _confined(self, encoded: Mapping[str, Mapping[str, dict[str, Any] | None]]) -> None:
        """Refuse a change, before its first write, when a file it writes or removes lies behind a
        symbolic link out of the project (a cloned repository's `.claude/memory -> ~/.ssh`)."""
        paths = [self.lock.path, self.journal.path, self.state.path]
        for key, snaps in encoded.items():
            store = self._stores[key]
            if isinstance(store, MarkdownStore):
                paths += [store.path / "MEMORY.md", *(store.path / s["path"] for s in snaps.values() if s)]
                paths += [f for f in map(store.file_of, snaps) if f is not None]
        for path in paths:
            confine(path)

    def _mutate(
        self,
        op: str,
        refs: Sequence[str],
        fn: Callable[[Memory, datetime], Memory],
        already: Callable[[Memory], bool] = lambda _m: False,
    ) -> list[Memory]:
        """Apply `fn` to each memory `refs` name, as one undoable change. Memories `already` in the
        state the operation leads to are left alone: a no-op writes nothing and no journal entry (an
        undo must undo something the person did). Returns the memories changed."""
        with self.lock:
            targets = list({m.id: m for m in (self.resolve(ref) for ref in refs)}.values())
            targets = [m for m in targets if not already(m)]
            if not targets:
                return []
            now = self.clock()
            changes: dict[str, dict[str, Memory | None]] = {}
            results = []
            for memory in targets:
                changed = fn(memory, now)
                changes.setdefault(memory.store, {})[memory.id] = changed
                results.append(changed)
            self.commit(op, f"{op} {', '.join(m.id for m in targets)}", changes)
            return [self._fresh(m) for m in results]

    # -- operations ----------------------------------------------------------------------------

    def add(
        self,
        type_: str,
        content: str,
        *,
        tags: Iterable[str] = (),
        name: str = "",
        description: str = "",
        supersedes: str | None = None,
        store: str = "state",
        source: Source | None = None,
        reviewed: bool = True,
        questions: Iterable[str] = (),
        created: datetime | None = None,
        trim: bool = False,
        valid_until: str | None = None,
        valid_from: str | None = None,
    ) -> SaveResult:
        """Save a memory (or re-affirm the one it repeats). A field over its limit (core/intake.py)
        raises UsageError, or with `trim` (capture) is cut; either way control characters are removed
        and the result's notes say so. `created`: when the fact was first recorded, for a memory
        brought in from another tool (`memtui import`); default now. `valid_until`/`valid_from`:
        valid time (core/validity.py; a bad date raises UsageError)."""
        valid_until, valid_from = _bound(valid_until), _bound(valid_from)
        given, notes = _taken_in(trim, text=content, name=name, description=description, tags=tags)
        scan = redact.scan(given["text"])
        content = scan.text.strip()
        name, description = redact.redact(given["name"]).strip(), redact.redact(given["description"]).strip()
        tags = given["tags"]
        asked = clean_questions(questions)
        type_ = type_.strip().lower()
        if not content:
            raise UsageError("the memory is empty; give the text to remember")
        if not type_:
            raise UsageError(f"a memory needs a type, e.g. {', '.join(self.registry.names()[:6])}")
        tags = clean_tags(tags)
        with self.lock:
            target = self.store(store, create=True)
            target.load()
            active = target.active()
            problem = self.registry.unknown(type_, lambda: (m.type for m in target.load().values()))
            if problem:
                raise UsageError(problem)
            shortlist: dedup.Candidates | None = None
            if self._batch is not None and self._batch.shortlist is not None and target is self.state:
                shortlist = self._batch.shortlist.of(type_)
            elif isinstance(target, StateStore):
                shortlist = target.dedup_shortlist()
            decision = dedup.decide(type_, content, active, shortlist, supersedes)
            now = self.clock()
            if decision.reaffirm:
                old = active[decision.reaffirm]
                # An agent repeating a reviewed memory re-affirms it, but adds no words of its own to it.
                extra = () if proposals.held((old.id,), active, reviewed) else tags
                touched = ops.touch(old, now).evolve(tags=clean_tags((*old.tags, *extra)))
                self.commit("reaffirm", f"reaffirm {old.id}", {target.key: {old.id: touched}})
                return SaveResult(self._fresh(touched), reaffirmed=True, redacted=scan.kinds, notes=notes)
            replaced, kept = proposals.split(decision.supersede, active, reviewed)
            source = self._stamped(source)
            memory = Memory(
                id=new_id(now),
                type=type_,
                content=content,
                created=created or now,
                updated=created or now,
                name=name,
                description=description,
                tags=tags,
                supersedes=replaced[0] if replaced else None,
                proposes=kept[0] if kept else None,
                source=source,
                reviewed=reviewed,
                questions=asked,
                valid_until=valid_until,
                valid_from=valid_from,
                store=target.key,
                scope=target.scope,
            )
            if isinstance(target, MarkdownStore):
                memory = memory.evolve(id=target.id_for(target.new_relpath(memory)))
            superseded = [ops.supersede(active[mid], now) for mid in replaced]
            changes: dict[str, Memory | None] = {m.id: m for m in superseded}
            changes[memory.id] = memory
            self.commit("add", _add_note(memory.id, replaced, kept, decision.unmatched, notes), {target.key: changes})
            return SaveResult(
                self._fresh(memory),
                tuple(self._fresh(m) for m in superseded),
                proposed=active[kept[0]] if kept else None,
                unmatched_supersede=decision.unmatched,
                redacted=scan.kinds,
                notes=notes,
            )

    def _stamped(self, source: Source | None) -> Source | None:
        """A new memory's source with the branch and commit the project is on (its provenance);
        HEAD is read once per batch (an import adds thousands), else once per memory."""
        if source is None or source.branch or source.commit:
            return source
        batch = self._batch
        place = batch.place if batch is not None else None
        if place is None:
            place = verified.where(self.project.root)
            if batch is not None:
                batch.place = place
        branch, commit = place
        return replace(source, branch=branch or None, commit=commit or None) if branch or commit else source

    def ask_about(self, answers: Mapping[str, Iterable[str]]) -> list[Memory]:
        """Record the questions each memory answers (doc2query), id → questions; one change, no
        new version of the text (the memory says the same, it is only easier to find)."""
        with self.lock:
            changes: dict[str, dict[str, Memory | None]] = {}
            done = []
            for ref, questions in answers.items():
                try:
                    memory = self.resolve(ref)
                except (NotFound, Ambiguous):
                    continue  # dropped or merged since the batch was asked: nothing to enrich
                store = self._stores[memory.store]
                if read_only(store) or not getattr(store, "keeps_fields", lambda _id: True)(memory.id):
                    continue  # another agent's own file, or a line of one: nowhere to keep questions
                asked = clean_questions(questions)
                if asked and asked != memory.questions:
                    changed = memory.evolve(questions=asked)
                    changes.setdefault(memory.store, {})[memory.id] = changed
                    done.append(changed)
            if changes:
                self.commit("enrich", f"questions for {len(done)} memories", changes)
            return done

    def touch(self, *refs: str) -> list[Memory]:
        return self._mutate("touch", refs, ops.touch)

    def drop(self, *refs: str, op: str = "drop") -> list[Memory]:
        """Archive (restorable). `op`: the journal's word for it (`forget` from an agent's memory_forget)."""
        return self._mutate(op, refs, ops.drop, lambda m: m.status is Status.ARCHIVED)

    def settle(self, keep: str, drop: str) -> list[Memory]:
        """A git merge conflict settled by keeping one version; the other goes to the trash. One undoable change."""
        with self.lock:
            kept, dropped = self.resolve(keep), self.resolve(drop)
            now = self.clock()
            changes: dict[str, dict[str, Memory | None]] = {}
            changes.setdefault(kept.store, {})[kept.id] = ops.review(kept)
            changes.setdefault(dropped.store, {})[dropped.id] = ops.drop(dropped, now).evolve(conflict=None)
            self.commit("settle", f"keep {kept.id}, drop {dropped.id}", changes)
            return [self._fresh(m) for m in (changes[kept.store][kept.id], changes[dropped.store][dropped.id]) if m]

    def restore(self, *refs: str) -> list[Memory]:
        return self._mutate("restore", refs, ops.restore, lambda m: m.active)

    def review(self, *refs: str) -> list[Memory]:
        """Mark memories reviewed; a proposal (store/proposals.py) supersedes the memory it would
        replace, in the same undoable change."""
        with self.lock:
            targets = list({m.id: m for m in (self.resolve(ref) for ref in refs)}.values())
            targets = [m for m in targets if not (m.reviewed and not m.conflict and not m.proposes)]
            if not targets:
                return []
            changes = proposals.accepted(targets, {m.id: m for m in self.memories()}, self.clock())
            self.commit("review", f"review {', '.join(m.id for m in targets)}", changes)
            return [self._fresh(changes[m.store][m.id] or m) for m in targets]

    def reject(self, *refs: str) -> list[Memory]:
        """Reject what waits in the review queue (an agent's proposal, a capture): archived, restorable.
        A reviewed memory is not rejected (`drop` archives it)."""
        for ref in refs:
            memory = self.resolve(ref)
            if memory.reviewed and not memory.conflict:
                raise UsageError(f"{memory.id} is reviewed, not waiting for review; `memtui drop` archives it")
        return self._mutate("reject", refs, ops.drop, lambda m: m.status is Status.ARCHIVED)

    def update(
        self,
        ref: str,
        *,
        expected: Memory | None = None,
        content: str | None = None,
        type_: str | None = None,
        tags: Iterable[str] | None = None,
        name: str | None = None,
        description: str | None = None,
        reviewed: bool | None = None,
        valid_until: str | None = None,
        valid_from: str | None = None,
    ) -> Memory:
        """Edit fields of one memory. With `expected` (what the editor started from), a memory that
        changed on disk in the meantime raises Conflict instead of being overwritten. A valid-time
        bound of "" clears it (None leaves it)."""
        with self.lock:
            current = self.resolve(ref)
            if expected is not None and _comparable(current) != _comparable(expected):
                raise Conflict(f"{current.id} changed on disk since it was opened; reload it and apply your edit again")
            given, _ = _taken_in(False, text=content, name=name, description=description, tags=tags)
            content, name, description = given.get("text"), given.get("name"), given.get("description")
            tags = given.get("tags")
            changes: dict[str, Any] = {}
            if content is not None:
                text = redact.redact(content).strip()
                if not text:
                    raise UsageError("the memory would be empty; use drop to remove it")
                changes["content"] = text
            if type_ is not None:
                changes["type"] = type_.strip().lower()
                store = self._stores[current.store]
                problem = (
                    self.registry.unknown(changes["type"], lambda: (m.type for m in store.load().values()))
                    if changes["type"] != current.type
                    else None
                )
                if problem:
                    raise UsageError(problem)
            if tags is not None:
                changes["tags"] = clean_tags(tags)
            if name is not None:
                changes["name"] = redact.redact(name).strip()
            if description is not None:
                changes["description"] = redact.redact(description).strip()
            if reviewed is not None:
                changes["reviewed"] = reviewed
            if valid_until is not None:
                changes["valid_until"] = _bound(valid_until)
            if valid_from is not None:
                changes["valid_from"] = _bound(valid_from)
            changes = {k: v for k, v in changes.items() if getattr(current, k) != v}
            if not changes:
                return current  # the same text, type and tags: nothing to write, nothing to undo
            if "content" in changes and current.questions:
                changes["questions"] = ()  # they answered the old text; enrichment asks again
            updated = current.evolve(updated=self.clock(), **changes)
            edits: dict[str, dict[str, Memory | None]] = {current.store: {current.id: updated}}
            if changes.get("reviewed") and updated.proposes:  # saving an agent's proposal accepts it
                edits = proposals.accepted([updated], {m.id: m for m in self.memories()}, self.clock())
                updated = edits[current.store][current.id] or updated
            self.commit("edit", f"edit {current.id}: {', '.join(changes)}", edits)
            return self._fresh(updated)

    def merge(
        self,
        refs: Sequence[str],
        content: str,
        *,
        tags: Iterable[str] | None = None,
        type_: str | None = None,
        name: str = "",
    ) -> Memory:
        if len(refs) < 2:
            raise UsageError("merge needs at least two memories")
        with self.lock:
            sources = list({m.id: m for m in (self.resolve(ref) for ref in refs)}.values())
            if len(sources) < 2:
                raise UsageError(f"{sources[0].id} is named twice; merge needs two different memories")
            stores = {m.store for m in sources}
            if len(stores) > 1:
                raise UsageError("these memories live in different stores; promote them into one store first")
            target = self._stores[sources[0].store]
            target.load()
            now = self.clock()
            given, _ = _taken_in(False, text=content, name=name, tags=tags)  # the way in, as add's
            merged, superseded = ops.merge(
                sources,
                redact.redact(given["text"]).strip(),
                now,
                type_=type_,
                tags=clean_tags(given["tags"]) if tags is not None else None,
                name=given["name"],
            )
            if isinstance(target, MarkdownStore):
                merged = merged.evolve(id=target.id_for(target.new_relpath(merged)))
            changes: dict[str, Memory | None] = {m.id: m for m in superseded}
            changes[merged.id] = merged
            self.commit("merge", f"merge {', '.join(m.id for m in sources)} into {merged.id}", {target.key: changes})
            return self._fresh(merged)

    def promote(self, ref: str, store: str) -> Memory:
        """Move a memory to another store (state.json ⇄ a Markdown scope), keeping its fields; from
        a read-only store (Codex's memories) it is copied, the source left as it is."""
        with self.lock:
            memory = self.resolve(ref)
            target = self.store(store, create=True)
            if target.key == memory.store:
                raise UsageError(f"{memory.id} is already in {target.key}")
            target.load()
            moved = memory.evolve(
                store=target.key,
                scope=target.scope,
                path=None,
                id=new_id(self.clock()),
                content=redact.redact(memory.content).strip(),
                name=redact.redact(memory.name).strip(),
                description=redact.redact(memory.description).strip(),
            )
            if isinstance(target, MarkdownStore):
                moved = moved.evolve(id=target.id_for(target.new_relpath(moved)))
            source: dict[str, dict[str, Memory | None]] = (
                {} if read_only(self._stores[memory.store]) else {memory.store: {memory.id: None}}
            )
            self.commit(
                "promote",
                f"promote {memory.id} to {target.key} as {moved.id}",
                {**source, target.key: {moved.id: moved}},
            )
            return self._fresh(moved)

    def bump_access(self, ids: Iterable[str]) -> None:
        """Count a recall (accessCount + 1). Bookkeeping, not an edit: not journalled, never fails loudly."""
        wanted = set(ids)
        with self.lock:
            memories = self.state.load()
            snaps = {}
            for mid in wanted & memories.keys():
                raw = self.state.snapshot(mid) or {}
                raw["accessCount"] = int(raw.get("accessCount", 0) or 0) + 1
                snaps[mid] = raw
            if snaps:
                self.state.apply(snaps, self.clock())

    def update_header(self, **values: Any) -> dict[str, Any]:
        with self.lock:
            self.state.load()
            self.state.apply({}, self.clock(), values)
            return self.state.header

    def prune_archived(self, older_than_days: float = 14) -> list[str]:
        """Remove long-archived memories from state.json; the journal keeps them restorable."""
        with self.lock:
            cutoff = self.clock() - timedelta(days=older_than_days)
            old = [m for m in self.state.load().values() if m.status is Status.ARCHIVED and m.updated < cutoff]
            if old:
                self.commit("prune", f"prune {len(old)} archived", {self.state.key: {m.id: None for m in old}})
            return [m.id for m in old]

    def undo(self, session: str | None = None) -> Step:
        """Take back the newest step (store/undo.py): one change, or an agent session's run of them;
        with `session`, every change of that session not yet undone. Whole or not at all."""
        with self.lock:
            pending = self.journal.pending()
            try:
                entries = undo.step(pending, session)
            except NotFound as exc:
                damaged = self.journal.unreadable
                raise NotFound(
                    str(exc)
                    + (f"; {self.journal.path} has {damaged} unreadable line(s), kept as they are" if damaged else "")
                ) from None
            reverse = undo.reversal(entries)
            missing = {c.store for c in reverse} - self._stores.keys()
            if missing:  # an organisation's scope (memtui/org/) this process could not open
                raise UsageError(
                    f"the step to undo changed {', '.join(sorted(missing))}, which is not open here; "
                    "`memtui org status` checks the connection"
                )
            for key in {c.store for c in reverse}:
                self._stores[key].load()
            self._writable({c.store for c in reverse})
            undo.check(self._stores, entries, reverse)
            was = undo.active_ids(self._stores, reverse)
            done = undo.Step(tuple(entries))
            self.journal.append(
                "undo", f"undo {done.label}: {done.summary}", reverse, undoes=tuple(e.seq for e in entries)
            )
            now = self.clock()
            by_store: dict[str, dict[str, dict[str, Any] | None]] = {}
            for change in reverse:
                by_store.setdefault(change.store, {})[change.id] = change.after
            for key, snaps in by_store.items():
                self._stores[key].apply(snaps, now)
            self._auto_render()
            now_active = undo.active_ids(self._stores, reverse)
            return undo.Step(tuple(entries), restored=len(now_active - was), removed=len(was - now_active))

    def undo_sessions(self) -> list[dict[str, Any]]:
        """The agent sessions with changes left to undo, newest first (store/undo.py)."""
        return undo.sessions(self.journal.pending())

    def restore_from_journal(self, memory_id: str) -> Memory:
        """Bring back a memory that was pruned from its store, from its last journalled snapshot."""
        with self.lock:
            found = self.journal.last_snapshot(memory_id)
            if found is None:
                raise NotFound(f"{memory_id!r} is not in the journal; nothing to restore")
            key, snap = found
            store = self._stores[key]
            if memory_id in store.load():
                return self.restore(memory_id)[0]
            self.journal.append(
                "unprune", f"bring back {memory_id} from the journal", [Change(key, memory_id, None, snap)]
            )
            store.apply({memory_id: snap}, self.clock())
            return self.restore(memory_id)[0]

    # -- rendering (memtui/store/rendering.py) ------------------------------------------------

    def render_plan(self) -> RenderPlan:
        return rendering.plan(self)

    def write_render(self, plan: RenderPlan | None = None) -> RenderPlan:
        with self.lock:
            return rendering.write(self, plan or rendering.plan(self))

    def _auto_render(self) -> None:
        self.render_problem = rendering.auto(self)


def _add_note(
    memory_id: str, replaced: Sequence[str], kept: Sequence[str], unmatched: str | None, notes: Sequence[str]
) -> str:
    """The journal's summary of an add."""
    note = f"add {memory_id}" + (f" superseding {', '.join(replaced)}" if replaced else "")
    if kept:
        note += f" proposing to supersede {kept[0]} (reviewed: waits for review)"
    if unmatched:
        note += f" (supersede target not found: {unmatched[:60]!r})"
    if notes:
        note += f" ({'; '.join(notes)})"
    return note


def _taken_in(trim: bool, **values: Any) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The fields as the way in takes them (core/intake.py); over a limit is a UsageError."""
    try:
        return intake.fields(trim, **values)
    except intake.TooLong as exc:
        raise UsageError(str(exc)) from None


def _comparable(memory: Memory) -> tuple[Any, ...]:
    return (memory.id, memory.type, memory.content, memory.tags, memory.name, memory.description, memory.status)


def init_project(root: Path) -> Project:
    """Create `.memory/` with an empty state.json, a commented config and a .gitignore for derived files."""
    from memtui.config import DEFAULT_TEXT
    from memtui.store.atomic import atomic_write

    project = Project(root.resolve())
    confine(project.path("state.json"), project.root)  # a cloned `.memory -> elsewhere` gets nothing
    project.memory_dir.mkdir(parents=True, exist_ok=True)
    if not project.path("state.json").exists():
        state = StateStore(project.path("state.json"), project.name)
        state.load()
        state.apply({}, utcnow())
    if not project.path("config.toml").exists():
        atomic_write(project.path("config.toml"), DEFAULT_TEXT)
    from memtui.store.ignore import ensure_ignored

    ensure_ignored(project)
    return project


def _bound(text: str | None) -> str | None:
    """A valid-time bound as given by a person or an agent: normalised, "" or None for none."""
    from memtui.core import validity

    if text is None or not text.strip():
        return None
    try:
        return validity.parse(text)
    except validity.BadDate as exc:
        raise BadValue(str(exc)) from None
