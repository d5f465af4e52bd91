"""One clause read for who it names (``localmem.clauses``), each reader alone: a claim's
subject, its act and what it is done to; a conversation's doer of a verb and owner of a
noun. The sentences are written for this test; ``tests/test_roles.py`` holds the readers
together to a conversation."""

from __future__ import annotations

from localmem.clauses import Turn, object_head, owner_word, subject_at, subject_before, tokenize, verb_after

NAMES = frozenset({"priya", "hassan", "leila"})
USER_TURN = Turn("user", "assistant", ())


def test_a_subject_names_each_person_joined_by_and_and_not_a_possessor() -> None:
    tokens = tokenize("Priya and Hassan collected the card.")
    assert subject_at(tokens, 0, NAMES) == (["name:priya", "name:hassan"], 3)
    assert subject_at(tokenize("Leila's husband drove."), 0, NAMES) == ([], 0)
    assert subject_at(tokenize("The user booked it."), 0, NAMES) == (["user"], 2)


def test_the_act_after_a_subject_is_a_verb_that_does_not_only_carry() -> None:
    tokens = tokenize("Priya is preparing her medical form for the trip.")
    verb, at = verb_after(tokens, 1)
    assert verb == "preparing"
    assert object_head(tokens, at + 1) == "form"
    assert verb_after(tokenize("Priya has a form."), 1)[0] is None  # "has" only carries
    assert verb_after(tokenize("Priya never signed it."), 1)[0] is None  # negated
    assert object_head(tokenize("signs whether it fits"), 1) is None  # no determiner: no thing


def test_the_doer_of_a_verb_is_the_speaker_the_other_party_or_a_name() -> None:
    said = tokenize("I still need to sign the form.")
    assert subject_before(said, said.index("sign"), USER_TURN, NAMES) == frozenset({"user"})
    told = tokenize("Hassan collected the money.")
    assert subject_before(told, 1, USER_TURN, NAMES) == frozenset({"name:hassan"})
    bare = tokenize("Bring the tickets.")
    assert subject_before(bare, 0, USER_TURN, NAMES) == frozenset({"assistant"})  # an imperative
    thing = tokenize("The form is due.")
    assert subject_before(thing, thing.index("due"), USER_TURN, NAMES) == frozenset({"thing"})


def test_the_owner_a_word_before_a_noun_gives() -> None:
    assert owner_word("my", "my", USER_TURN, NAMES) == frozenset({"user"})
    assert owner_word("Leila's", "leila's", USER_TURN, NAMES) == frozenset({"name:leila"})
    assert owner_word("the", "the", USER_TURN, NAMES) is None
