"""Whether a prompt names what it is about, or only points at something said before.

"how do I trigger it?" and "where do those live?" name nothing the store could match: their
subject is in the conversation. Searched alone they match whatever shares their few generic
words, weakly, and that used to pass the gate. Recall takes the subject of such a prompt from the
turn before it (`recall.lookup`), and gives nothing when there is no turn before it.

The test runs on every prompt, so it is a word count over two small lists, linear in the prompt
and without a model: a prompt is subject-less when it points at least as often as it names.
Naming is any word that is neither a reference nor filler: the function words, question words
and the verbs, adjectives and nouns that a question about anything uses ("run", "use", "safe",
"version", "way").
"""

from __future__ import annotations

#: Words that point at a subject named elsewhere.
_REFERENCES = "it its itself that this these those they them their theirs there same one ones former latter above"
REFERENCES = frozenset(_REFERENCES.split())

#: Words that name no subject: function and question words, the leftovers of contractions, and
#: the generic verbs, adverbs, adjectives and nouns of any question.
_FILLER = """
    a an the and or but so if then than as at by for from in into of off on onto out over per to up
    down with without about after before again also just only still too very really instead right
    away now yet ever even here all any some each every both either other another more most less
    much many few lot no not nor
    i me my we us our you your he him his she her who whom whose what which when where why how
    whether s t d m ll re ve doesn don isn aren wasn weren didn won couldn shouldn wouldn haven hasn
    am is are was were be been being do does did done doing have has had having can could will
    would shall should may might must
    ok okay please thanks yes hmm well
    use run work live set put need want keep fail break happen trigger change update upgrade
    configure deploy start stop call read write name display show process replace raise regenerate
    edit add remove fix test build ship support own mean handle store get go make take give find
    look see try let know tell say think explain do done enable disable install check pass
    safe stable good bad new old best better wrong same fine ready sure possible known
    often long soon later first last next usually
    thing things stuff part parts way ways version versions place step steps time times file files
    option options setting settings cause reason kind sort bit case idea
"""
FILLER = frozenset(_FILLER.split())


def words(text: str) -> list[str]:
    """The prompt's words, lower case, split at anything that is not a letter or a digit."""
    return "".join(c if c.isalnum() else " " for c in text.lower()).split()


def _filler(word: str) -> bool:
    if word in FILLER or word.isdigit():
        return True
    # The plain inflections, so the list need not spell them ("editing", "processed", "owns").
    for end, back in (("ing", ""), ("ing", "e"), ("ed", ""), ("ed", "e"), ("es", ""), ("s", "")):
        if word.endswith(end) and len(word) > len(end) + 2 and word[: -len(end)] + back in FILLER:
            return True
    return False


#: How a prompt announces a new subject: it leans on nothing said before.
_SWITCHES = ("unrelated", "off topic", "by the way", "btw", "random question", "side question", "different topic")


def switches(text: str) -> bool:
    """True when the prompt opens by saying it changes the subject ("unrelated, but …", "by the
    way, …"): the turn before is not its context, however on-topic it was."""
    return " ".join(words(text[:80])).startswith(_SWITCHES)


def points(text: str) -> bool:
    """True when the prompt points back at all ("what does that CI job need?", "where do those
    files live?"): it names something, but leans on the turn before for the rest. An off-topic
    prompt after an on-topic turn ("what's a good book on Stoicism?") does not point."""
    return any(w in REFERENCES for w in words(text))


def subjectless(text: str) -> bool:
    """True when the prompt points (it, that, those…) at least as often as it names: its subject
    is in the conversation, not in the prompt."""
    found = words(text)
    refs = sum(w in REFERENCES for w in found)
    # Without a reference the prompt points at nothing: "make ship" or "run the tests" name their
    # subject in words this list calls generic.
    return refs > 0 and sum(1 for w in found if w not in REFERENCES and not _filler(w)) <= refs
